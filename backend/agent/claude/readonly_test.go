package claude

import (
	"slices"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// A read-only step runs without claude's edit tools; its shell stays (so
// tests run) and so does the permission bypass the shell needs in -p mode.
func TestReadOnlyArgs(t *testing.T) {
	ro := args(agent.Request{Prompt: "p", ReadOnly: true}, false)
	if !slices.Contains(ro, "--disallowed-tools=Edit,MultiEdit,Write,NotebookEdit") || !slices.Contains(ro, "--dangerously-skip-permissions") {
		t.Errorf("read-only args %q", ro)
	}
	if rw := strings.Join(args(agent.Request{Prompt: "p"}, false), " "); strings.Contains(rw, "disallowed") {
		t.Errorf("writable args %q", rw)
	}
}
