package app

import (
	"time"

	"github.com/boof-runner/boof-runner/backend/budget"
)

// BudgetRetryResult is what RetryBudgetStopped did.
type BudgetRetryResult struct {
	// Retried lists the tasks re-queued; Held those a cap still holds.
	Retried []budget.Stopped `json:"retried"`
	Held    []budget.Stopped `json:"held"`
}

// Budget reports spend against every budget now (days and months in local
// time), the breakers in effect, the tasks a budget stopped and how many
// pending tasks a cap holds back: the Settings screen's progress bars.
func (s *SettingsService) Budget() (budget.Report, error) {
	cur, _ := s.file.Load()
	rep, err := budget.Snapshot(s.ctx(), s.store, cur, time.Now(), time.Local)
	if err != nil {
		return rep, userError(err)
	}
	return rep, nil
}

// RetryBudgetStopped re-queues, in one action, every task a budget stopped
// that no cap holds any more (its period rolled over or its limit was
// raised).
func (s *SettingsService) RetryBudgetStopped() (BudgetRetryResult, error) {
	cur, _ := s.file.Load()
	retried, held, err := budget.RetryReleased(s.ctx(), s.store, cur, time.Now(), time.Local)
	res := BudgetRetryResult{Retried: retried, Held: held}
	if res.Retried == nil {
		res.Retried = []budget.Stopped{}
	}
	if res.Held == nil {
		res.Held = []budget.Stopped{}
	}
	if len(retried) > 0 {
		s.wake()
		s.emit.Emit(EventTasksChanged)
	}
	return res, userError(err)
}
