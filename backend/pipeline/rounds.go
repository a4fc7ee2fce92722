package pipeline

import "github.com/boof-runner/boof-runner/backend/task"

// rounds is the fix-round state of a run: the fix rounds left (the
// observer's, and the developer's shared by the reviewer and the verify
// gate, each review.maxFixRounds) and the round each step is at.
type rounds struct {
	obsBudget, fixBudget  int
	obs, rev, dev, verify int
}

// newRounds returns the rounds of a run allowed maxFix fix rounds.
func newRounds(maxFix int) rounds {
	return rounds{obsBudget: maxFix, fixBudget: maxFix}
}

// takeObserverFix takes one of the observer's fix rounds; false when none
// is left.
func (f *rounds) takeObserverFix() bool {
	if f.obsBudget <= 0 {
		return false
	}
	f.obsBudget--
	return true
}

// takeFix takes one developer fix round for the reviewer or the verify
// gate; false when none is left.
func (f *rounds) takeFix() bool {
	if f.fixBudget <= 0 {
		return false
	}
	f.fixBudget--
	return true
}

// nextReview moves an observer's or reviewer's round on and returns it.
func (f *rounds) nextReview(role task.Role) int {
	if role == task.RoleObserver {
		f.obs++
		return f.obs
	}
	f.rev++
	return f.rev
}

// nextVerify moves the verify round on and returns it.
func (f *rounds) nextVerify() int {
	f.verify++
	return f.verify
}

// seen moves the rounds past a section stored before this run (a fix run
// or a resumed run goes on after them).
func (f *rounds) seen(s task.Section) {
	switch s.Kind {
	case task.SectionDeveloperReport:
		f.dev = max(f.dev, s.Round+1)
	case task.SectionReviewerReport:
		f.rev = max(f.rev, s.Round)
	case task.SectionObserverReport:
		f.obs = max(f.obs, s.Round)
	}
}
