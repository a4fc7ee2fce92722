package cli

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func runShow(ctx context.Context, c *call) error {
	fs := c.newFlags()
	asJSON := fs.Bool("json", false, "print JSON")
	full := fs.Bool("sections", false, "print every body section in full")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one task ID")
	}
	s, paths, err := c.openStoreRead(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	t, err := s.GetTask(ctx, pos[0])
	if err != nil {
		return err
	}
	wt, err := waits(ctx, s, paths)
	if err != nil {
		return err
	}
	usage, err := s.TaskUsageByRole(ctx, t.ID)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.io.Stdout, shownTask{Task: t, WaitingFor: wt.of(t), UsageByRole: roleUsages(usage)})
	}
	secs, err := s.Sections(ctx, t.ID)
	if err != nil {
		return err
	}
	atts, err := s.Attachments(ctx, t.ID)
	if err != nil {
		return err
	}
	w := c.io.Stdout
	printFields(w, t, wt.status(t), usage, atts)
	if len(t.Questions) > 0 {
		fmt.Fprintln(w, "\nopen questions (answer with: boof-runner answer "+t.ID+" TEXT):")
		for i, q := range t.Questions {
			fmt.Fprintf(w, "  %d. %s\n", i+1, safeText(q))
		}
	}
	fmt.Fprintf(w, "\n%s\n", safeText(t.Prompt))
	printSections(w, secs, *full)
	return nil
}

// printFields prints the task's fields, one a line, those without a value
// left out.
func printFields(w io.Writer, t task.Task, status string, usage []store.UsageRow, atts []store.Attachment) {
	// Every field is printed through safeLine: titles, paths, errors and
	// questions may hold text from agents or files.
	field := func(name, format string, args ...any) {
		fmt.Fprintf(w, "%-10s %s\n", name+":", safeLine(fmt.Sprintf(format, args...)))
	}
	field("id", "%s", t.ID)
	field("title", "%s", t.DisplayTitle())
	field("status", "%s", status)
	field("priority", "%d", t.Priority)
	field("runs", "%d/%d", t.CompletedRuns, t.Runs)
	opt := func(name, v string) {
		if v != "" {
			field(name, "%s", v)
		}
	}
	opt("base", t.Base)
	opt("repo", t.Repo)
	opt("command", t.Command)
	if len(t.Labels) > 0 {
		field("labels", "%s", strings.Join(t.Labels, ", "))
	}
	roles := make([]string, 0, len(t.Tools))
	for r, tc := range t.Tools {
		roles = append(roles, fmt.Sprintf("%s=%s/%s", r, tc.Tool, tc.Model))
	}
	sort.Strings(roles)
	if len(roles) > 0 {
		field("tools", "%s", strings.Join(roles, " "))
	}
	opt("branch", t.Branch)
	if t.BaseSHA != "" || t.HeadSHA != "" {
		field("commits", "%s..%s", short(t.BaseSHA), short(t.HeadSHA))
	}
	opt("worktree", t.WorktreePath)
	opt("error", t.Error)
	if u := t.Usage; u.TokensIn+u.TokensOut > 0 || u.CostUSD > 0 || len(usage) > 0 {
		field("usage", "%d in, %d out, %d cache read, %d cache write, $%.4f", u.TokensIn, u.TokensOut, u.CacheRead, u.CacheWrite, u.CostUSD)
		for _, r := range usage { // per role, as the window's task view shows it
			fmt.Fprintf(w, "%-10s %s\n", "", safeLine(fmt.Sprintf("%s: %d step(s), %d in, %d out, %d cache read, %d cache write, $%.4f",
				r.Key, r.Executions, r.TokensIn, r.TokensOut, r.CacheRead, r.CacheWrite, r.CostUSD)))
		}
	}
	field("created", "%s", t.CreatedAt.Local().Format(time.DateTime))
	field("updated", "%s", t.UpdatedAt.Local().Format(time.DateTime))
	if t.StartedAt != nil {
		field("started", "%s", t.StartedAt.Local().Format(time.DateTime))
	}
	if t.FinishedAt != nil {
		field("finished", "%s", t.FinishedAt.Local().Format(time.DateTime))
	}
	for _, a := range atts {
		field("attached", "%s (%d bytes) %s", a.Name, a.Size, a.Path)
	}
}

// printSections lists a task's stored sections after its prompt, or with
// full prints each in full.
func printSections(w io.Writer, secs []task.Section, full bool) {
	if len(secs) > 1 && !full {
		fmt.Fprintln(w, "\nsections (show --sections prints them):")
	}
	for _, sec := range secs {
		if sec.Kind == task.SectionPrompt {
			continue
		}
		head := string(sec.Kind)
		if sec.Iteration > 0 {
			head += fmt.Sprintf(" iteration %d", sec.Iteration)
		}
		if sec.Round > 0 {
			head += fmt.Sprintf(" round %d", sec.Round)
		}
		if sec.Verdict != "" {
			head += " verdict " + sec.Verdict
		}
		if sec.Step != "" {
			head += " step " + sec.Step
		}
		if full {
			fmt.Fprintf(w, "\n--- %s\n%s\n", safeLine(head), safeText(sec.Body))
		} else {
			fmt.Fprintf(w, "  [%s] %d bytes\n", safeLine(head), len(sec.Body))
		}
	}
}

func short(sha string) string {
	if len(sha) > 10 {
		return sha[:10]
	}
	return sha
}

// shownTask is a task of show --json: the task, why it waits and its usage
// per role.
type shownTask struct {
	task.Task
	WaitingFor  *waitingFor `json:"waiting_for,omitempty"`
	UsageByRole []roleUsage `json:"usage_by_role"`
}

// roleUsage is a task's usage by one role, summed over its steps.
type roleUsage struct {
	Role       string  `json:"role"`
	Steps      int     `json:"steps"`
	TokensIn   int64   `json:"tokens_in"`
	TokensOut  int64   `json:"tokens_out"`
	CacheRead  int64   `json:"cache_read"`
	CacheWrite int64   `json:"cache_write"`
	CostUSD    float64 `json:"cost_usd"`
}

func roleUsages(rows []store.UsageRow) []roleUsage {
	out := make([]roleUsage, len(rows))
	for i, r := range rows {
		out[i] = roleUsage{Role: r.Key, Steps: r.Executions, TokensIn: r.TokensIn, TokensOut: r.TokensOut,
			CacheRead: r.CacheRead, CacheWrite: r.CacheWrite, CostUSD: r.CostUSD}
	}
	return out
}
