package taskmd

import (
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// OngoingError is recorded on a task that was ongoing in the file: its run
// belonged to the app that wrote it, which is not running it any more.
const OngoingError = "interrupted: the task was running when its file was written; retry to run it again"

// finish settles what depends on the whole file: an ongoing task becomes
// stopped, an archived one gets the status it returns to, and a
// prev_status on another status is dropped.
func finish(d *Doc) error {
	t := &d.Task
	prev := strings.TrimSpace(d.prevWord)
	if t.Status == task.StatusOngoing {
		t.Status = task.StatusStopped
		if t.Error == "" {
			t.Error = OngoingError
		}
		d.Notes = append(d.Notes, "status ongoing imported as stopped (the run it was in is gone)")
	}
	if t.Status != task.StatusArchived {
		if prev != "" {
			d.Notes = append(d.Notes, fmt.Sprintf("prev_status %q dropped: the task is not archived", clip(prev)))
		}
		return nil
	}
	if prev == "" {
		t.PrevStatus = task.StatusStopped
		if lastReviewerApproved(d.Sections) {
			t.PrevStatus = task.StatusDone
		}
		d.Notes = append(d.Notes, fmt.Sprintf("archived without the status it had before: unarchiving returns it to %s", t.PrevStatus))
		return nil
	}
	st, err := ParseStatusWord(prev)
	if err != nil {
		return fmt.Errorf("%w: prev_status: %w", ErrFormat, err)
	}
	if err := task.CheckUnarchive(t.Status, st); err != nil {
		return fmt.Errorf("%w: archived task needs prev_status it can return to: %w", ErrFormat, err)
	}
	t.PrevStatus = st
	return nil
}

func lastReviewerApproved(secs []task.Section) bool {
	v := ""
	for _, s := range secs {
		if s.Kind == task.SectionReviewerReport {
			v = s.Verdict
		}
	}
	return v == string(task.VerdictApprove)
}

// validate applies the task rules to a parsed document.
func validate(d Doc) error {
	t := d.Task
	n := task.NewTask{Title: t.Title, Prompt: t.Prompt, Priority: t.Priority, Base: t.Base, Labels: t.Labels,
		Runs: t.Runs, Repo: t.Repo, Command: t.Command, Tools: t.Tools}
	if _, err := n.Normalize(); err != nil {
		return fmt.Errorf("%w: %w", ErrFormat, err)
	}
	if t.CompletedRuns < 0 || t.CompletedRuns > task.MaxRuns {
		return fmt.Errorf("%w: completed_runs %d out of range", ErrFormat, t.CompletedRuns)
	}
	u := t.Usage
	if u.TokensIn < 0 || u.TokensOut < 0 || u.CacheRead < 0 || u.CacheWrite < 0 || u.CostUSD < 0 {
		return fmt.Errorf("%w: usage must not be negative", ErrFormat)
	}
	for _, s := range d.Sections {
		if err := s.Validate(); err != nil {
			return fmt.Errorf("%w: section %s: %w", ErrFormat, s.Kind, err)
		}
	}
	for _, q := range t.Questions {
		if strings.TrimSpace(q) == "" {
			return fmt.Errorf("%w: empty question", ErrFormat)
		}
	}
	if len(t.Extra) > 1<<20 {
		return fmt.Errorf("%w: unknown keys and sections take more than 1 MiB", ErrFormat)
	}
	return nil
}
