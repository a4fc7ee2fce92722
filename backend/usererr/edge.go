package usererr

import (
	"errors"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/userfile"
)

// Edge is a problem a command or a bound method finds itself, before or
// after the backend services it calls, with no typed error of its own in
// those services: a flag value, an export target, a confirmation not
// given. Kind names which; the other fields are its data. The sentence is
// made here, like every other.
type Edge struct {
	Kind EdgeKind
	// Name is the option or argument a value was given for ("priority").
	Name string
	// Value is what the user gave, echoed (clipped).
	Value string
	// Min is the least value allowed, for BelowMin.
	Min int
	// TaskID, Path and Dir name what the problem is about.
	TaskID, Path, Dir string
	// FileKind is what a path that is not a regular file is.
	FileKind userfile.Kind
	// N and Of count things.
	N, Of int
	// Err is the error the problem came with, if any.
	Err error
}

// EdgeKind names a problem found at an edge.
type EdgeKind string

// The problems found at an edge.
const (
	// NotNumber: Name's Value is not a whole number.
	NotNumber EdgeKind = "not_number"
	// BelowMin: Name's Value is below Min.
	BelowMin EdgeKind = "below_min"
	// NotTime: Name's Value is not a time the command reads.
	NotTime EdgeKind = "not_time"
	// Empty: Name was given an empty value.
	Empty EdgeKind = "empty"
	// Twice: Value was given twice for Name.
	Twice EdgeKind = "twice"
	// NotConfirmed: the user did not confirm a destructive step.
	NotConfirmed EdgeKind = "not_confirmed"
	// ToolsNotReady: N tools the roles use are not ready.
	ToolsNotReady EdgeKind = "tools_not_ready"
	// NoRepoRecorded: task TaskID has no working directory recorded.
	NoRepoRecorded EdgeKind = "no_repo_recorded"
	// TaskRunning: task TaskID runs, so a manual verification is refused.
	TaskRunning EdgeKind = "task_running"
	// NoWorktree: task TaskID has no worktree (Path "") or its worktree
	// Path is gone.
	NoWorktree EdgeKind = "no_worktree"
	// NoVerifyCommand: no verify command applies to task TaskID in Dir.
	NoVerifyCommand EdgeKind = "no_verify_command"
	// VerifyFailed: the verify command ran and did not pass.
	VerifyFailed EdgeKind = "verify_failed"
	// TargetMissingDir: the folder Dir of export target Path does not exist.
	TargetMissingDir EdgeKind = "target_missing_dir"
	// TargetNotDir: Dir, the folder of export target Path, is not a folder.
	TargetNotDir EdgeKind = "target_not_dir"
	// TargetNotRegular: export target Path is FileKind.
	TargetNotRegular EdgeKind = "target_not_regular"
	// TargetExists: export target Path exists (no --force).
	TargetExists EdgeKind = "target_exists"
	// SavedBut: the settings were saved, but applying them failed (Err).
	SavedBut EdgeKind = "saved_but"
	// NoRepoChosen: a repository setting was asked for without a folder.
	NoRepoChosen EdgeKind = "no_repo_chosen"
	// UnknownTool: there is no tool named Value.
	UnknownTool EdgeKind = "unknown_tool"
	// NotChanged: the file Path is not changed in the task's work.
	NotChanged EdgeKind = "not_changed"
	// UsageDates: a usage range that is not two dates, from before to.
	UsageDates EdgeKind = "usage_dates"
	// UsageTooLong: a usage range longer than a year.
	UsageTooLong EdgeKind = "usage_too_long"
	// SchedulePaused: schedule Value is paused, so it cannot run now.
	SchedulePaused EdgeKind = "schedule_paused"
	// BadSide: Value is not a side of a diff ("old" or "new").
	BadSide EdgeKind = "bad_side"
)

// Error is a plain description for logs; users see Describe's sentence.
func (e *Edge) Error() string {
	s := string(e.Kind)
	for _, f := range []string{e.Name, e.Value, e.TaskID, e.Path} {
		if f != "" {
			s += " " + f
		}
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the error the problem came with.
func (e *Edge) Unwrap() error { return e.Err }

func describeEdge(err error) (string, Code, bool) {
	var e *Edge
	if !errors.As(err, &e) {
		return "", "", false
	}
	switch e.Kind {
	case NotNumber:
		return fmt.Sprintf("%s must be an integer, got %q", e.Name, e.Value), InvalidInput, true
	case BelowMin:
		return fmt.Sprintf("%s must be at least %d, got %s", e.Name, e.Min, e.Value), InvalidInput, true
	case NotTime:
		return fmt.Sprintf("%s %q is not a time (use \"2026-12-02 02:00\", local time or --tz, or RFC 3339)", e.Name, e.Value), InvalidInput, true
	case Empty:
		return fmt.Sprintf("%s is empty; leave it out instead", e.Name), InvalidInput, true
	case Twice:
		return fmt.Sprintf("%s %s is given twice", e.Name, e.Value), InvalidInput, true
	case NotConfirmed:
		return "Not confirmed: nothing changed", InvalidInput, true
	case ToolsNotReady:
		return fmt.Sprintf("%d tool(s) the roles use are not ready", e.N), Other, true
	case NoRepoRecorded:
		return "Task " + e.TaskID + " has no working directory recorded", WrongStatus, true
	case TaskRunning:
		return "Task " + e.TaskID + " is running: its gate verifies it", WrongStatus, true
	case NoWorktree:
		if e.Path != "" {
			return "The worktree " + e.Path + " of task " + e.TaskID + " no longer exists", WrongStatus, true
		}
		return "Task " + e.TaskID + " has no worktree to verify", WrongStatus, true
	case NoVerifyCommand:
		return "No verify command for task " + e.TaskID + ": set one with `boof-runner verify set --repo " + e.Dir + " CMD` or settings verify.command", InvalidSettings, true
	case VerifyFailed:
		return "The verify command did not pass", Other, true
	}
	return describeEdgeMore(e)
}

func describeEdgeMore(e *Edge) (string, Code, bool) {
	switch e.Kind {
	case TargetMissingDir:
		return "Export to " + e.Path + ": the folder " + e.Dir + " does not exist", InvalidInput, true
	case TargetNotDir:
		return "Export to " + e.Path + ": " + e.Dir + " is not a folder", InvalidInput, true
	case TargetNotRegular:
		return "Export to " + e.Path + ": it is " + kindWords(e.FileKind) + ", not a regular file; refusing to replace it", InvalidInput, true
	case TargetExists:
		return "Export to " + e.Path + ": file exists (use --force to replace it)", InvalidInput, true
	case SavedBut:
		msg, code := Describe(e.Err)
		return "The settings were saved, but " + lowerFirst(trimPeriod(msg)), code, true
	case NoRepoChosen:
		return "Choose a repository folder first", InvalidInput, true
	case UnknownTool:
		return "Unknown tool " + e.Value, InvalidInput, true
	case NotChanged:
		return fmt.Sprintf("The file %q is not changed in this task", e.Path), InvalidInput, true
	case UsageDates:
		return "The usage range needs two dates, from before to (YYYY-MM-DD)", InvalidInput, true
	case UsageTooLong:
		return "The usage range is limited to one year", InvalidInput, true
	case SchedulePaused:
		return "Schedule " + e.Value + " is paused: resume it to run it now", WrongStatus, true
	case BadSide:
		return fmt.Sprintf("%q is not a side of the diff (old or new)", e.Value), InvalidInput, true
	}
	return "Something went wrong (" + string(e.Kind) + ")", Other, true
}

// lowerFirst lowers the first letter of a sentence of ours that goes on
// after a comma.
func lowerFirst(s string) string {
	if startsWithWord(s) && len(s) > 1 && s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z') {
		return string(s[0]+'a'-'A') + s[1:]
	}
	return s
}
