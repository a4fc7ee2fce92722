package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/boof-runner/boof-runner/backend/task"
)

// loadAttachments reads the task's attachments for the prompts. A file that
// is gone from the data root fails the run before any step: the agents
// would otherwise work without something the user gave them.
func (r *run) loadAttachments(ctx context.Context) error {
	atts, err := r.st.Attachments(ctx, r.t.ID)
	if err != nil {
		return fmt.Errorf("attachments: %w", err)
	}
	r.atts, r.readDirs = nil, nil
	for _, a := range atts {
		fi, err := os.Stat(a.Path)
		if err != nil || !fi.Mode().IsRegular() {
			return &failure{fmt.Sprintf("attachment %q is missing at %s: attach it again or remove it from the task", a.Name, a.Path)}
		}
		r.atts = append(r.atts, Attachment{Name: a.Name, Path: a.Path, Size: fi.Size()})
	}
	if len(r.atts) > 0 {
		r.readDirs = []string{filepath.Dir(r.atts[0].Path)}
		r.logf(task.LevelInfo, "%d attachment(s) listed in every prompt, read from %s", len(r.atts), r.readDirs[0])
	}
	return nil
}
