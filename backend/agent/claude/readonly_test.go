package claude

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// A read-only step runs without the edit tools it is given to deny; its
// shell stays (so tests run) and so does the permission bypass the shell
// needs in -p mode. A writable step denies nothing.
func TestReadOnlyArgs(t *testing.T) {
	ro := args(agent.Request{Prompt: "p", ReadOnly: true}, false, []string{"Edit", "Write"})
	if !slices.Contains(ro, "--disallowed-tools=Edit,Write") || !slices.Contains(ro, "--dangerously-skip-permissions") {
		t.Errorf("read-only args %q", ro)
	}
	if none := strings.Join(args(agent.Request{Prompt: "p", ReadOnly: true}, false, nil), " "); strings.Contains(none, "disallowed") {
		t.Errorf("read-only args with nothing to deny %q", none)
	}
	if rw := strings.Join(args(agent.Request{Prompt: "p"}, false, []string{"Edit"}), " "); strings.Contains(rw, "disallowed") {
		t.Errorf("writable args %q", rw)
	}
}

// The deny list is ReadOnlyDisallowed as far as the executable's init line
// listed them, the safe list while they are unknown; the knowledge is per
// executable (path, size, modification time) and survives in the state
// dir for another process; a list without Read is not learnt.
func TestKnownToolsDenyList(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "claude")
	if err := os.WriteFile(bin, []byte("v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	key, ok := keyOf(bin)
	if !ok {
		t.Fatal("no key")
	}
	state := filepath.Join(dir, "state")
	k := newKnownTools(state)
	if got := k.readOnlyDeny(key, true); !slices.Equal(got, SafeReadOnlyDisallowed) {
		t.Fatalf("unknown tools: deny %q", got)
	}
	if got := k.readOnlyDeny(binKey{}, false); !slices.Equal(got, SafeReadOnlyDisallowed) {
		t.Fatalf("unreadable executable: deny %q", got)
	}
	if err := k.learn(key, "", []string{"Bash", "Edit"}); err != nil {
		t.Fatal(err)
	}
	if _, known := k.lookup(key); known {
		t.Fatal("a list without Read was learnt")
	}
	older := []string{"Task", "Bash", "Edit", "MultiEdit", "Read", "Write", "NotebookEdit"}
	if err := k.learn(key, "", older); err != nil {
		t.Fatal(err)
	}
	if err := k.noteVersion(key, "1.0.99"); err != nil {
		t.Fatal(err)
	}
	if got := k.readOnlyDeny(key, true); !slices.Equal(got, []string{"Edit", "MultiEdit", "Write", "NotebookEdit"}) {
		t.Fatalf("older claude: deny %q", got)
	}
	// Another process reads the file.
	other := newKnownTools(state)
	if got := other.readOnlyDeny(key, true); !slices.Equal(got, []string{"Edit", "MultiEdit", "Write", "NotebookEdit"}) {
		t.Fatalf("from the file: deny %q", got)
	}
	if b, err := os.ReadFile(filepath.Join(state, toolsFile)); err != nil || !strings.Contains(string(b), `"version": "1.0.99"`) {
		t.Fatalf("file %s %v", b, err)
	}
	// An upgrade replaces the executable: its tools are not known yet.
	if err := os.WriteFile(bin, []byte("version 2"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(bin, time.Now(), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	newKey, _ := keyOf(bin)
	if got := other.readOnlyDeny(newKey, true); !slices.Equal(got, SafeReadOnlyDisallowed) {
		t.Fatalf("upgraded claude: deny %q", got)
	}
	if err := other.learn(newKey, "", []string{"Bash", "Edit", "Read", "Write"}); err != nil {
		t.Fatal(err)
	}
	if got := other.readOnlyDeny(newKey, true); !slices.Equal(got, []string{"Edit", "Write"}) {
		t.Fatalf("upgraded claude after learning: deny %q", got)
	}
	// The first instance (a runner that read the file before) sees what
	// the other learnt once the file changed.
	if got := k.readOnlyDeny(newKey, true); !slices.Equal(got, []string{"Edit", "Write"}) {
		t.Fatalf("learnt by another process: deny %q", got)
	}
}

// Through the adapter: a writable step's init line teaches the tools of the
// claude it ran; a later read-only step with another Tool on the same state
// dir (the runner after doctor) denies exactly the edit tools listed there.
func TestReadOnlyStepDeniesTheToolsItsClaudeHas(t *testing.T) {
	state := t.TempDir()
	stream := filepath.Join(t.TempDir(), "stream.jsonl")
	init := `{"type":"system","subtype":"init","session_id":"5e551011-11a1-4a1e-9d1e-000000000001","tools":["Bash","Edit","MultiEdit","Read","Write"],"model":"claude-sonnet-5"}
{"type":"result","subtype":"success","is_error":false,"result":"Done.","session_id":"5e551011-11a1-4a1e-9d1e-000000000001","usage":{"input_tokens":10,"output_tokens":2}}
`
	if err := os.WriteFile(stream, []byte(init), 0o600); err != nil {
		t.Fatal(err)
	}
	withStream := func(o *Options) {
		o.StateDir = state
		o.Env = append(o.Env, "FAKE_CLAUDE_STREAM="+stream)
	}
	first, rec := fakeCLI(t, "success", "0", withStream)
	runFake(t, first, agent.Request{Prompt: "p", ReadOnly: true})
	if got := readArgs(t, rec); !slices.Contains(got, "--disallowed-tools=Edit,Write,NotebookEdit") {
		t.Fatalf("read-only step with unknown tools: args %q", got)
	}
	runFake(t, first, agent.Request{Prompt: "p"})
	second, rec2 := fakeCLI(t, "success", "0", withStream)
	runFake(t, second, agent.Request{Prompt: "p", ReadOnly: true})
	if got := readArgs(t, rec2); !slices.Contains(got, "--disallowed-tools=Edit,MultiEdit,Write") {
		t.Fatalf("read-only step after learning: args %q", got)
	}
}
