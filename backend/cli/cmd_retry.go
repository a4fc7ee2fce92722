package cli

import (
	"context"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func runRetry(ctx context.Context, c *call) error {
	return taskVerb(ctx, c, func(s *store.Store, id string) (task.Task, error) { return s.Retry(ctx, id) })
}
