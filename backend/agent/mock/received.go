package mock

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// receivedDir is the folder of a worktree's state directory where the
// mock agent records every prompt it received, one file per run.
const receivedDir = "received"

// Received is one prompt the mock agent received, as ReadReceived returns it.
type Received struct {
	Role   task.Role `json:"role"`
	Prompt string    `json:"prompt"`
}

// record keeps the prompt of this run in the state directory, so that a
// test can assert on what the agent process itself read (not what the
// pipeline meant to send). A failure to record is not the run's failure.
func record(o runOpts) {
	dir := filepath.Join(o.state, receivedDir)
	if os.MkdirAll(dir, 0o700) != nil {
		return
	}
	b, err := json.Marshal(Received{Role: o.role, Prompt: o.prompt})
	if err != nil {
		return
	}
	name := fmt.Sprintf("%020d-%d.json", time.Now().UnixNano(), os.Getpid())
	_ = os.WriteFile(filepath.Join(dir, name), b, 0o600)
}

// ReadReceived returns the prompts the mock agent received for the
// working directory workDir, oldest first; stateBase is the tool's state
// directory (Options.StateDir, the host's "<data root>/mock-state").
func ReadReceived(stateBase, workDir string) ([]Received, error) {
	state, err := stateDir(stateBase, workDir)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(state, receivedDir)
	ents, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("received prompts: %w", err)
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	out := make([]Received, 0, len(names))
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return nil, fmt.Errorf("received prompts: %w", err)
		}
		var r Received
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, fmt.Errorf("received prompt %s: %w", n, err)
		}
		out = append(out, r)
	}
	return out, nil
}
