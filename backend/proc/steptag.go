package proc

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
)

// Owners of step tags: what kind of process of ours started the work.
const (
	// OwnerRun marks the runner's work: agent steps and the runner's git
	// commands (provisioning, leftovers, worktree removal).
	OwnerRun = "run"
	// OwnerAccept marks the git commands of an accept or an undo.
	OwnerAccept = "accept"
)

// StepEnv is the environment variable that marks every process Boof Runner
// starts for one data root's work: agent steps and everything they start,
// and our own git commands. Its value is a step tag (StepTag); processes
// inherit it, so crash recovery finds a dead run's processes by scanning
// /proc/<pid>/environ even after they left their group or were re-parented.
const StepEnv = "BOOF_STEP"

// Scope returns the short, stable name of a data root used in its step
// tags, so that recovery of one data root never touches another's
// processes.
func Scope(dataRoot string) string {
	abs, err := filepath.Abs(dataRoot)
	if err != nil {
		abs = dataRoot
	}
	sum := sha256.Sum256([]byte(filepath.Clean(abs)))
	return hex.EncodeToString(sum[:6])
}

// StepTag returns the tag "<scope>/<owner>/<task>/<step>". Characters that
// would break the format ('/', '=', whitespace, control bytes) become '_'.
func StepTag(scope, owner, taskID, step string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '/' || r == '=' || r <= ' ' || r == 0x7f {
				return '_'
			}
			return r
		}, s)
	}
	return clean(scope) + "/" + clean(owner) + "/" + clean(taskID) + "/" + clean(step)
}

// StepTagEnv returns the environment entry StepEnv=StepTag(...).
func StepTagEnv(scope, owner, taskID, step string) string {
	return StepEnv + "=" + StepTag(scope, owner, taskID, step)
}

// TagPrefix returns the prefix every tag of scope and owner starts with
// (owner "" matches every owner).
func TagPrefix(scope, owner string) string {
	if owner == "" {
		return scope + "/"
	}
	return scope + "/" + owner + "/"
}

// Tagged is one live process found by its step tag, or a descendant of one.
type Tagged struct {
	// PID and Start identify the process (start in clock ticks since boot).
	PID   int
	Start uint64
	// Tag is its StepEnv value, or the tag of the tagged ancestor through
	// which it was found.
	Tag string
	// Command is its command line, space-separated (may be empty).
	Command string
}

// TaskID returns the task part of the tag ("" when the tag is malformed).
func (t Tagged) TaskID() string { return tagPart(t.Tag, 2) }

// Step returns the step part of the tag.
func (t Tagged) Step() string { return tagPart(t.Tag, 3) }

func tagPart(tag string, i int) string {
	parts := strings.SplitN(tag, "/", 4)
	if len(parts) != 4 {
		return ""
	}
	return parts[i]
}
