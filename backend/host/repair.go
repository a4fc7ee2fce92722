package host

import (
	"context"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// RepairRepos records the working directory of tasks that ran in git but
// recorded none (added before the working directory was recorded at add),
// so that their review commands work: the repository of the task's
// worktree, else the settings' working directory when it holds the task's
// branch (see worktree.Manager.RepoOf). It returns the ids it repaired.
// Tasks it cannot place are left as they are. It reads settings only when
// such a task exists, so opening a data root with none costs one query.
func RepairRepos(ctx context.Context, st *store.Store, paths dataroot.Paths) ([]string, error) {
	tasks, err := st.TasksWithoutRepo(ctx)
	if err != nil || len(tasks) == 0 {
		return nil, err
	}
	set, _ := SettingsFile(paths).Load() // invalid settings: their defaults hold no working directory
	m := worktree.NewManager(gitx.New(), time.Now)
	var fixed []string
	for _, t := range tasks {
		repo := m.RepoOf(ctx, t, set.WorkDir())
		if repo == "" {
			continue
		}
		ok, err := st.RecordRepo(ctx, t.ID, repo)
		if err != nil {
			return fixed, fmt.Errorf("repair repo of %s: %w", t.ID, err)
		}
		if ok {
			fixed = append(fixed, t.ID)
		}
	}
	return fixed, nil
}
