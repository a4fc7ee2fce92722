package cli

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

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
	s, _, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	t, err := s.GetTask(ctx, pos[0])
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.io.Stdout, t)
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
	// Every field is printed through safeLine: titles, paths, errors and
	// questions may hold text from agents or files.
	field := func(name, format string, args ...any) {
		fmt.Fprintf(w, "%-10s %s\n", name+":", safeLine(fmt.Sprintf(format, args...)))
	}
	field("id", "%s", t.ID)
	field("title", "%s", t.DisplayTitle())
	status := string(t.Status)
	if t.PrevStatus != "" {
		status += " (was " + string(t.PrevStatus) + ")"
	}
	if t.Skip {
		status += ", skipped"
	}
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
	if u := t.Usage; u.TokensIn+u.TokensOut > 0 || u.CostUSD > 0 {
		field("usage", "%d in, %d out, %d cache read, %d cache write, $%.4f", u.TokensIn, u.TokensOut, u.CacheRead, u.CacheWrite, u.CostUSD)
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
	if len(t.Questions) > 0 {
		fmt.Fprintln(w, "\nopen questions (answer with: boof-runner answer "+t.ID+" TEXT):")
		for i, q := range t.Questions {
			fmt.Fprintf(w, "  %d. %s\n", i+1, safeText(q))
		}
	}
	fmt.Fprintf(w, "\n%s\n", safeText(t.Prompt))
	if len(secs) > 1 && !*full {
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
		if *full {
			fmt.Fprintf(w, "\n--- %s\n%s\n", safeLine(head), safeText(sec.Body))
		} else {
			fmt.Fprintf(w, "  [%s] %d bytes\n", safeLine(head), len(sec.Body))
		}
	}
	return nil
}

func short(sha string) string {
	if len(sha) > 10 {
		return sha[:10]
	}
	return sha
}
