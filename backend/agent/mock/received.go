package mock

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/boof-runner/boof-runner/backend/filelock"

	"github.com/boof-runner/boof-runner/backend/task"
)

// receivedFile is the file, in a worktree's state directory, where the mock
// agent appends every prompt it got, one JSON line each.
const receivedFile = "received.jsonl"

// Received is one prompt the mock agent got: tests read what the agent
// received with ReadReceived instead of trusting what the app meant to send.
type Received struct {
	At     time.Time `json:"at"`
	Role   task.Role `json:"role"`
	Dir    string    `json:"dir"`
	Model  string    `json:"model,omitempty"`
	Prompt string    `json:"prompt"`
}

// record appends r to the state directory's received file under the same
// lock the counters use.
func record(state string, r Received) error {
	if err := os.MkdirAll(state, 0o700); err != nil {
		return fmt.Errorf("record prompt: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(state, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("record prompt: %w", err)
	}
	defer lock.Close()
	if err := filelock.Lock(lock); err != nil {
		return fmt.Errorf("record prompt: %w", err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("record prompt: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(state, receivedFile), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("record prompt: %w", err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("record prompt: %w", err)
	}
	return f.Close()
}

// ReadReceived returns every prompt the mock agent received under a state
// base directory (Options.StateDir; in a data root "<root>/mock-state"),
// across all working directories, oldest first. A base that does not exist
// yields none.
func ReadReceived(base string) ([]Received, error) {
	files, err := filepath.Glob(filepath.Join(base, "*", receivedFile))
	if err != nil {
		return nil, err
	}
	var out []Received
	for _, name := range files {
		f, err := os.Open(name)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 256<<20)
		for sc.Scan() {
			var r Received
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				f.Close()
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			out = append(out, r)
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out, nil
}
