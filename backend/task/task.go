package task

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Task is one unit of queued work. JSON keys are snake_case and stable: the
// CLI's --json output and the UI both use this shape.
type Task struct {
	ID            string     `json:"id"`
	Title         string     `json:"title"`
	Prompt        string     `json:"prompt"`
	Status        Status     `json:"status"`
	Priority      int        `json:"priority"`
	Skip          bool       `json:"skip"`
	Labels        []string   `json:"labels"`
	Command       string     `json:"command"`
	Runs          int        `json:"runs"`
	CompletedRuns int        `json:"completed_runs"`
	Base          string     `json:"base"`
	Repo          string     `json:"repo"`
	CreatedAt     time.Time  `json:"created_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
	StartedAt     *time.Time `json:"started_at,omitempty"`
	FinishedAt    *time.Time `json:"finished_at,omitempty"`
	Error         string     `json:"error,omitempty"`
	Branch        string     `json:"branch,omitempty"`
	// PrevStatus is the status before archiving; unarchive returns to it.
	PrevStatus Status `json:"prev_status,omitempty"`
	// Position orders pending tasks of equal priority (lower first) after a
	// reorder; zero for tasks never reordered, which then go oldest first.
	Position int `json:"position"`
	// Questions are the planner's open questions while the task is in actions.
	Questions []string `json:"questions"`
	// Tools are per-task tool overrides by role.
	Tools Tools `json:"tools"`
	// Usage is the token usage and cost summed over the task's executions.
	Usage Usage `json:"usage"`
	// BaseSHA, HeadSHA and WorktreePath are the run outcome in git.
	BaseSHA      string `json:"base_sha,omitempty"`
	HeadSHA      string `json:"head_sha,omitempty"`
	WorktreePath string `json:"worktree_path,omitempty"`
	// NotBefore is the earliest time the queue may start the task (nil: any time).
	NotBefore *time.Time `json:"not_before,omitempty"`
	// OnLimit is what the task does when a tool hits its usage limit ("" = settings).
	OnLimit OnLimit `json:"on_limit,omitempty"`
	// ScheduleID is the schedule whose fire queued the task, "" for none.
	ScheduleID string `json:"schedule_id,omitempty"`
	// FixRuns counts the completed fix runs: runs that addressed a review
	// of the user's once the planned runs were done.
	FixRuns int `json:"fix_runs"`
	// RunStart says where the next run begins (the planner when zero).
	RunStart RunStart `json:"run_start"`
	// OriginID is the id the task had where it came from (an imported
	// file's id); "" for a task made here.
	OriginID string `json:"origin_id,omitempty"`
	// Extra is what an imported file held that this version does not know:
	// a JSON object of its unknown frontmatter keys and sections, kept so an
	// export gives it back. Empty when there was nothing.
	Extra json.RawMessage `json:"extra,omitempty"`
	// Executor is where the task's runs execute ("" = settings.executor).
	Executor Executor `json:"executor,omitempty"`
}

// Limits on user input.
const (
	MaxPriority = 1_000_000
	MaxRuns     = 100
	MaxTitle    = 200
	MaxLabel    = 64
)

// ErrInvalid is matched by every validation error of user input (each an
// *InvalidError).
var ErrInvalid = errors.New("invalid task")

// NewTask is what a user supplies to create a task.
type NewTask struct {
	Title    string   `json:"title"`
	Prompt   string   `json:"prompt"`
	Priority int      `json:"priority"`
	Base     string   `json:"base"`
	Labels   []string `json:"labels"`
	Runs     int      `json:"runs"`
	Repo     string   `json:"repo"`
	Command  string   `json:"command"`
	Draft    bool     `json:"draft"`
	Tools    Tools    `json:"tools"`
	// Verify is the task's own verify command (it wins over the
	// repository's and the global one); NoVerify runs no verify command
	// for this task. See TaskVerify.
	Verify   string `json:"verify,omitempty"`
	NoVerify bool   `json:"no_verify,omitempty"`
	// NotBefore is the earliest time the queue may start it (nil: any time).
	// A time in the past is allowed: the task then runs now.
	NotBefore *time.Time `json:"not_before,omitempty"`
	// OnLimit is "", "wait" or "switch".
	OnLimit OnLimit `json:"on_limit,omitempty"`
	// Executor is "" (settings.executor decides), "local" or "kubernetes".
	Executor Executor `json:"executor,omitempty"`
}

func invalid(format string, args ...any) error {
	return &InvalidError{Reason: fmt.Sprintf(format, args...)}
}

// Normalize trims and checks n, returning the cleaned copy or an error
// wrapping ErrInvalid that names the bad field.
func (n NewTask) Normalize() (NewTask, error) {
	n.Title = strings.TrimSpace(n.Title)
	n.Base = strings.TrimSpace(n.Base)
	if strings.TrimSpace(n.Prompt) == "" {
		return n, invalid("prompt is empty")
	}
	if len(n.Prompt) > MaxPrompt {
		return n, invalid("prompt is larger than %d MiB", MaxPrompt>>20)
	}
	if strings.IndexByte(n.Prompt, 0) >= 0 {
		return n, invalid("prompt contains a NUL byte")
	}
	if len(n.Title) > MaxTitle {
		return n, invalid("title is longer than %d bytes", MaxTitle)
	}
	if p := LineProblem(n.Title); p != "" {
		return n, invalid("title %s", p)
	}
	if n.Priority < -MaxPriority || n.Priority > MaxPriority {
		return n, invalid("priority %d is outside ±%d", n.Priority, MaxPriority)
	}
	if n.Runs == 0 {
		n.Runs = 1
	}
	if n.Runs < 1 || n.Runs > MaxRuns {
		return n, invalid("runs must be between 1 and %d", MaxRuns)
	}
	if strings.ContainsAny(n.Base, " \t\n\r\x00") || strings.HasPrefix(n.Base, "-") || LineProblem(n.Base) != "" {
		return n, invalid("base ref %q is not a valid ref name", n.Base)
	}
	labels, err := NormalizeLabels(n.Labels)
	if err != nil {
		return n, err
	}
	n.Labels = labels
	if n.Command != "" && !ValidCommandName(n.Command) {
		return n, invalid("command name %q must be 1-64 letters, digits, '-', '_' or '.'", n.Command)
	}
	if strings.ContainsAny(n.Repo, "\x00\n\r") {
		return n, invalid("repo path contains a line break or NUL")
	}
	if !utf8.ValidString(n.Repo) {
		return n, invalid("repo path is not valid UTF-8 text")
	}
	tools, err := NormalizeTools(n.Tools)
	if err != nil {
		return n, err
	}
	n.Tools = tools
	if n.Verify != "" || n.NoVerify {
		tv, err := TaskVerify{Command: n.Verify, Skip: n.NoVerify}.Normalize()
		if err != nil {
			return n, err
		}
		n.Verify = tv.Command
	}
	if _, err := ParseOnLimit(string(n.OnLimit)); err != nil {
		return n, err
	}
	if _, err := ParseExecutor(string(n.Executor)); err != nil {
		return n, err
	}
	if n.NotBefore != nil {
		if y := n.NotBefore.Year(); y < 2000 || y > 9999 {
			return n, invalid("the start time %s is not a plausible date", n.NotBefore.Format(time.RFC3339))
		}
		nb := n.NotBefore.UTC().Truncate(time.Millisecond)
		n.NotBefore = &nb
	}
	return n, nil
}

// NormalizeLabels trims labels and drops repeated ones, and refuses empty
// labels and labels with commas, line breaks, control characters or
// invalid UTF-8 (never rewriting them).
func NormalizeLabels(in []string) ([]string, error) {
	out := []string{}
	seen := map[string]bool{}
	for _, l := range in {
		l = strings.TrimSpace(l)
		if l == "" {
			return nil, invalid("a label is empty")
		}
		if seen[l] {
			continue
		}
		if len(l) > MaxLabel {
			return nil, invalid("label %q is longer than %d bytes", l, MaxLabel)
		}
		if p := LineProblem(l); p != "" {
			return nil, invalid("label %q %s", l, p)
		}
		if strings.ContainsRune(l, ',') {
			return nil, invalid("label %q contains a comma", l)
		}
		seen[l] = true
		out = append(out, l)
	}
	return out, nil
}

// DisplayTitle is the title, or the prompt's first line when the title is empty.
func (t Task) DisplayTitle() string {
	if t.Title != "" {
		return t.Title
	}
	first, _, _ := strings.Cut(strings.TrimSpace(t.Prompt), "\n")
	if r := []rune(first); len(r) > 80 {
		first = string(r[:80]) + "…"
	}
	return first
}

// ValidCommandName reports whether s can name a command template: 1–64
// ASCII letters, digits, '-', '_' or '.', not starting with '.' or '-'.
func ValidCommandName(s string) bool {
	if s == "" || len(s) > 64 || s[0] == '.' || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
