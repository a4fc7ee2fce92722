package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// HeadingHandoff is the prompt section that carries a handoff to a fresh
// session: on another tool after a usage limit, or after a rotation.
const HeadingHandoff = "## Handoff"

// Caps of a handoff's parts, so the note never crowds out the prompt.
const (
	handoffReportChars = 4000
	handoffOutputChars = 4000
	handoffFiles       = 200
)

// handoff is what a fresh session needs to go on with a step another
// session started: why it changed hands, from which tool and session,
// what the task is, the plan, what the steps of this run reported, the
// files changed on the branch and the last output of the cut step. Every
// step end writes one too (stephandoff.go): then To is "" and Done,
// Broken and Next say what the step did, what is broken and what comes next.
type handoff struct {
	// Reason says why the step changes hands ("claude-code reached its usage limit").
	Reason string
	Step   string
	// From and To are the tools; FromModel and FromSession what From ran with.
	From, To    string
	FromModel   string
	FromSession string
	// Task, Plan, Reports, Files and Output are the note's sections.
	Task    string
	Plan    string
	Reports []string
	Files   []string
	Output  string
	// Done is the step's report, Broken its failure, verdict or error ("" =
	// nothing), Next the step that comes next ("" = go on with this step).
	Done, Broken, Next string
}

// markdown renders the handoff as the file and prompt section text.
func (h handoff) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Handoff of step %s\n\n", h.Step)
	fmt.Fprintf(&b, "- Why: %s\n- From: %s", h.Reason, h.From)
	if h.FromModel != "" {
		fmt.Fprintf(&b, " (model %s)", h.FromModel)
	}
	if h.FromSession != "" {
		fmt.Fprintf(&b, ", session %s", h.FromSession)
	}
	if h.To != "" {
		fmt.Fprintf(&b, "\n- To: %s, in a fresh session", h.To)
	}
	b.WriteString("\n\n")
	part := func(title, body string) {
		if body = strings.TrimSpace(body); body != "" {
			fmt.Fprintf(&b, "## %s\n\n%s\n\n", title, body)
		}
	}
	part("What the task is", h.Task)
	part("The plan", h.Plan)
	part("What the steps so far reported", strings.Join(h.Reports, "\n\n"))
	part("What was done", h.Done)
	part("What is broken", h.Broken)
	files := "No files changed on the branch yet."
	if len(h.Files) > 0 {
		files = "- " + strings.Join(h.Files, "\n- ")
	}
	part("Files changed on the branch", files)
	part("Last output of the cut-short step", h.Output)
	next := h.Next
	if next == "" {
		next = fmt.Sprintf("Go on with step %s from where it stopped: inspect `git status` and `git diff` "+
			"in the working directory, keep the work already done, and finish the step's job.", h.Step)
	}
	part("What to do next", next)
	return b.String()
}

// writeHandoff gathers the handoff of step s, scrubs it of secrets, writes
// it next to the task's transcripts (outside the worktree, so never
// committed) and returns its text and path ("" when the pipeline keeps no
// transcripts or the file could not be written: the text still goes into
// the prompt).
func (r *run) writeHandoff(ctx context.Context, s stepSpec, h handoff) (text, path string) {
	h.Step = s.name()
	h.Task = clip(r.t.Prompt, handoffReportChars)
	h.Plan = clip(r.settled.finalPlan, handoffReportChars)
	if secs, err := r.st.Sections(ctx, r.t.ID); err == nil {
		for _, sec := range secs {
			if sec.ID <= r.res.afterSection || sec.Iteration != r.iter {
				continue
			}
			if _, ok := reportRoles[sec.Kind]; ok {
				h.Reports = append(h.Reports, fmt.Sprintf("### %s\n\n%s", sec.Kind, clip(strings.TrimSpace(sec.Body), handoffReportChars)))
			}
		}
	}
	if h.Files == nil {
		h.Files = r.changedFiles(ctx)
	}
	text = secrets.Scrub(h.markdown())
	dir := r.p.o.TranscriptDir
	if dir == "" {
		return text, ""
	}
	tdir := filepath.Join(dir, r.t.ID)
	path = filepath.Join(tdir, fmt.Sprintf("i%d-%s-handoff-%d.md", r.iter, s.name(), r.switched.nextHandoff(tdir)))
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		r.logf(task.LevelWarn, "Cannot write the handoff file: %v", err)
		return text, ""
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		r.logf(task.LevelWarn, "Cannot write the handoff file: %v", err)
		return text, ""
	}
	return text, path
}

// lastHandoffNo returns the highest number of the handoff files in dir
// whose step matches the glob step ("*" for any), 0 when there is none.
func lastHandoffNo(dir, step string) int {
	n, _ := latestHandoff(dir, "*", step)
	return n
}

// latestHandoff returns the number and path of the newest handoff file in
// dir of iteration iter and step (globs), 0 and "" when there is none.
func latestHandoff(dir, iter, step string) (int, string) {
	paths, _ := filepath.Glob(filepath.Join(dir, "i"+iter+"-"+step+"-handoff-*.md"))
	best, at := 0, ""
	for _, p := range paths {
		base := strings.TrimSuffix(filepath.Base(p), ".md")
		k, err := strconv.Atoi(base[strings.LastIndex(base, "-")+1:])
		if err == nil && k > best {
			best, at = k, p
		}
	}
	return best, at
}

// reportRoles are the sections a handoff lists as the steps' reports.
var reportRoles = map[task.SectionKind]struct{}{
	task.SectionPlannerReport: {}, task.SectionFinalPlan: {}, task.SectionDeveloperReport: {},
	task.SectionVerification: {}, task.SectionObserverReport: {}, task.SectionReviewerReport: {},
}

// changedFiles lists the files changed on the task's branch against its
// base, with the untracked ones, as "M path"; nil when the task runs
// without a worktree or git cannot tell.
func (r *run) changedFiles(ctx context.Context) []string {
	if !r.wt.Isolated {
		return nil
	}
	var fs []worktree.FileChange
	var fsErr error
	un, unErr := r.p.o.Worktrees.UntrackedBeside(ctx, r.wt.WorkDir, func() {
		fs, fsErr = r.p.o.Worktrees.Files(ctx, r.wt.WorkDir, r.wt.BaseSHA, "")
	})
	var out []string
	if fsErr == nil {
		for _, f := range fs {
			out = append(out, fmt.Sprintf("%s %s", f.Status, f.Path))
		}
	}
	if unErr == nil {
		for _, p := range un {
			out = append(out, "? "+p+" (untracked)")
		}
	}
	if len(out) > handoffFiles {
		out = append(out[:handoffFiles], fmt.Sprintf("… and %d more", len(out)-handoffFiles))
	}
	return out
}

// tail keeps the last output of a step attempt (its text and tool calls),
// for the handoff of a step cut short.
type tail struct {
	mu    sync.Mutex
	lines []string
	size  int
}

// add keeps e's text when it is agent text or a tool call.
func (t *tail) add(e agent.Event) {
	var line string
	switch e.Kind {
	case agent.EventText:
		line = e.Text
	case agent.EventToolCall:
		line = "→ " + e.Tool + " " + clip(e.Text, 300)
	default:
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, line)
	t.size += len(line)
	for t.size > handoffOutputChars && len(t.lines) > 1 {
		t.size -= len(t.lines[0])
		t.lines = t.lines[1:]
	}
}

// text returns the kept output, then the result's report or error.
func (t *tail) text(res agent.Result) string {
	t.mu.Lock()
	out := strings.Join(t.lines, "\n")
	t.mu.Unlock()
	if e := strings.TrimSpace(res.ErrorText); e != "" {
		out += "\n\nThe step ended with: " + e
	} else if rep := strings.TrimSpace(res.Report); rep != "" {
		out += "\n\n" + rep
	}
	return clip(strings.TrimSpace(out), handoffOutputChars)
}
