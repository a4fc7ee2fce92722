package worktree

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// Meta is the sidecar written next to a task's worktree, under
// <root>/.meta/<taskId>.json. It outlives the worktree directory so a
// retry or a review still knows the task's base.
type Meta struct {
	TaskID  string    `json:"taskId"`
	Repo    string    `json:"repo"`
	BaseRef string    `json:"baseRef"`
	BaseSHA string    `json:"baseSha"`
	Branch  string    `json:"branch"`
	Created time.Time `json:"created"`
}

func metaPath(root, taskID string) string {
	return filepath.Join(root, ".meta", taskID+".json")
}

// ReadMeta reads the sidecar of taskID under root. It returns false when
// there is none, and an error when it exists but cannot be read or parsed.
func ReadMeta(root, taskID string) (Meta, bool, error) {
	data, err := userfile.ReadKept(metaPath(root, taskID))
	if errors.Is(err, os.ErrNotExist) {
		return Meta{}, false, nil
	}
	if err != nil {
		return Meta{}, false, fmt.Errorf("read meta: %w", err)
	}
	var m Meta
	if err := json.Unmarshal(data, &m); err != nil {
		return Meta{}, false, fmt.Errorf("parse meta %s: %w", metaPath(root, taskID), err)
	}
	return m, true, nil
}

// writeMeta writes the sidecar atomically (temporary file, fsync, rename).
func writeMeta(root string, m Meta) error {
	return writeJSONFile(metaPath(root, m.TaskID), m)
}

// writeJSONFile writes v as indented JSON to path atomically and durably
// (atomicfile.WriteFile).
func writeJSONFile(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err := atomicfile.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	return nil
}
