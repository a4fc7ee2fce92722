package pullreq

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// OpenOptions are the choices of a pull request; nil and empty take
// settings (forge.draft, forge.labels, forge.reviewers).
type OpenOptions struct {
	PushOptions
	Draft     *bool    `json:"draft,omitempty"`
	Labels    []string `json:"labels,omitempty"`
	Reviewers []string `json:"reviewers,omitempty"`
}

// Opened is what Open did.
type Opened struct {
	Record Record `json:"record"`
	// Existing: the pull request was open already (opened before by Boof
	// Runner, or by hand for the same branch): no second one was made.
	Existing bool `json:"existing"`
	// Problem says what went wrong after it was opened (labels,
	// reviewers), "" when nothing did.
	Problem string `json:"problem,omitempty"`
}

// Open pushes the task (Push) and opens its pull request on the remote's
// forge, titled and described from the task (prompt, final plan, the
// reviewer's verdict, verification, usage, the issue it closes). A task
// whose pull request is open gets none more (Existing), nor does a branch
// the forge already has one for (it is adopted). Errors: Push's,
// *forge.UnknownForgeError for a remote on no known forge,
// *forge.NoTokenError, the forge's errors; nothing is recorded of a pull
// request that was not opened.
func (s *Service) Open(ctx context.Context, taskID string, o OpenOptions) (Opened, error) {
	pushed, err := s.Push(ctx, taskID, o.PushOptions)
	if err != nil {
		return Opened{}, err
	}
	rec := pushed.Record
	if rec.Open() {
		return Opened{Record: rec, Existing: true}, nil
	}
	p, err := project(rec, s.hosts())
	if err != nil {
		return Opened{}, err
	}
	f, err := s.client(ctx, p, false)
	if err != nil {
		return Opened{}, err
	}
	t, err := s.task(ctx, taskID)
	if err != nil {
		return Opened{}, err
	}
	fs := s.forgeSettings()
	n := forge.NewPullRequest{Head: rec.Head, Base: rec.Base, Title: Title(t), Draft: fs.Draft, Labels: fs.Labels, Reviewers: fs.Reviewers}
	if o.Draft != nil {
		n.Draft = *o.Draft
	}
	if o.Labels != nil {
		n.Labels = o.Labels
	}
	if o.Reviewers != nil {
		n.Reviewers = o.Reviewers
	}
	if n.Body, err = s.body(ctx, t, p); err != nil {
		return Opened{}, err
	}
	out := Opened{}
	var pr forge.PullRequest
	err = s.withTimeout(ctx, p.Host, func(ctx context.Context) error {
		var err error
		pr, err = f.Open(ctx, n)
		var ex *forge.ExistsError
		if errors.As(err, &ex) {
			out.Existing = true
			if ex.Number == 0 {
				found, ok, ferr := f.Find(ctx, rec.Head)
				if ferr != nil || !ok {
					return errors.Join(err, ferr)
				}
				ex.Number = found.Number
			}
			pr, err = f.Get(ctx, ex.Number, "")
		}
		return err
	})
	var pe *forge.PartialError
	if errors.As(err, &pe) {
		pr, out.Problem, err = pe.PR, pe.Err.Error(), nil
	}
	if err != nil {
		return Opened{}, err
	}
	rec = apply(rec, pr)
	rec.Problem = out.Problem
	if err := s.d.Store.SavePullRequest(ctx, rec); err != nil {
		return Opened{}, err
	}
	out.Record = rec
	return out, nil
}

// apply copies what the forge says of a pull request into the record.
func apply(rec Record, pr forge.PullRequest) Record {
	rec.Number, rec.State = pr.Number, string(pr.State)
	if pr.URL != "" {
		rec.URL = pr.URL
	}
	if pr.Review != "" || pr.State.IsOpen() {
		rec.Review = pr.Review
	}
	if pr.Head != "" {
		rec.Head = pr.Head
	}
	if pr.Base != "" {
		rec.Base = pr.Base
	}
	if pr.MergeSHA != "" {
		rec.MergeSHA = pr.MergeSHA
	}
	if pr.ETag != "" {
		rec.ETag = pr.ETag
	}
	return rec
}

// Title is the pull request's title: the task's title, else its prompt's
// first line, at most 120 characters.
func Title(t task.Task) string {
	title := strings.TrimSpace(t.Title)
	if title == "" {
		title, _, _ = strings.Cut(strings.TrimSpace(t.Prompt), "\n")
	}
	if r := []rune(title); len(r) > 120 {
		title = string(r[:119]) + "…"
	}
	return title
}

// body is the pull request's description: the prompt, the final plan, the
// reviewer's last report, the last verification, the usage, and the issue
// the task was made from ("Closes …", so the merge closes it).
func (s *Service) body(ctx context.Context, t task.Task, p forge.Project) (string, error) {
	secs, err := s.d.Store.Sections(ctx, t.ID)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(quote(strings.TrimSpace(t.Prompt)) + "\n")
	last := func(k task.SectionKind) (task.Section, bool) {
		for i := len(secs) - 1; i >= 0; i-- {
			if secs[i].Kind == k && strings.TrimSpace(secs[i].Body) != "" {
				return secs[i], true
			}
		}
		return task.Section{}, false
	}
	if sec, ok := last(task.SectionFinalPlan); ok {
		b.WriteString("\n<details><summary>Plan</summary>\n\n" + clip(sec.Body, 20000) + "\n\n</details>\n")
	}
	if sec, ok := last(task.SectionReviewerReport); ok {
		verdict := ""
		if sec.Verdict != "" {
			verdict = " (" + sec.Verdict + ")"
		}
		b.WriteString("\n<details><summary>Review" + verdict + "</summary>\n\n" + clip(sec.Body, 20000) + "\n\n</details>\n")
	}
	if v, ok, err := s.d.Store.LastVerifyRun(ctx, t.ID); err == nil && ok {
		fmt.Fprintf(&b, "\n**Verification:** `%s` %s (exit %d)\n", v.Command, v.Outcome, v.ExitCode)
	}
	if l, ok, err := s.d.Store.Issue(ctx, t.ID); err == nil && ok {
		ref := fmt.Sprintf("#%d", l.Number)
		if l.Project != p.Path || l.Host != p.Host {
			ref = l.URL
			if l.Host == p.Host {
				ref = fmt.Sprintf("%s#%d", l.Project, l.Number)
			}
		}
		b.WriteString("\nCloses " + ref + "\n")
	}
	u := t.Usage
	fmt.Fprintf(&b, "\n---\nMade by Boof Runner (task %s; %d tokens in, %d out, $%.2f).\n", t.ID, u.TokensIn, u.TokensOut, u.CostUSD)
	return b.String(), nil
}

func quote(s string) string {
	return "> " + strings.ReplaceAll(clip(s, 20000), "\n", "\n> ")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "\n…"
}

var _ = store.ErrNotFound
