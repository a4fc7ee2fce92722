package pipeline

import "github.com/boof-runner/boof-runner/backend/task"

// resumeState is where a run goes on from. point is where a run released
// by a usage limit goes on (nil: from the start); afterSection the last
// section before the first run of this iteration began; note tells the
// first step the run runs that the previous attempt was cut short; cutSeen
// is set once a resumed run reached the step cut short; replay the reports
// done before the limit.
type resumeState struct {
	point        *task.ResumePoint
	afterSection int64
	note         bool
	cutSeen      bool
	replay       replay
}

// takeNote returns whether the step about to run is told the previous
// attempt was cut short: only the first step of the run is.
func (rs *resumeState) takeNote() bool {
	n := rs.note
	rs.note = false
	return n
}

// replay holds the reports a run going on after a usage limit takes
// instead of running their steps again (nil: none), and those replayed, so
// that their sections are not stored twice.
type replay struct {
	reports map[string]task.Section
	stored  map[string]bool
}

// load takes the reports of iter stored after the section after.
func (p *replay) load(secs []task.Section, after int64, iter int) {
	p.reports = map[string]task.Section{}
	for _, s := range secs {
		if s.ID <= after || s.Iteration != iter {
			continue
		}
		switch s.Kind {
		case task.SectionPlannerReport, task.SectionFinalPlan, task.SectionDeveloperReport,
			task.SectionObserverReport, task.SectionReviewerReport:
			p.reports[replayKey(s.Kind, s.Round)] = s
		}
	}
}

// take returns the stored report of a step's kind and round and forgets
// it, marking its section stored; false when the step must run.
func (p *replay) take(kind task.SectionKind, round int) (task.Section, bool) {
	if p.reports == nil {
		return task.Section{}, false
	}
	sec, ok := p.reports[replayKey(kind, round)]
	if !ok {
		return task.Section{}, false
	}
	delete(p.reports, replayKey(kind, round))
	if p.stored == nil {
		p.stored = map[string]bool{}
	}
	p.stored[replayKey(kind, round)] = true
	return sec, true
}

// wasStored reports whether the section of kind and round was stored
// before the usage limit (its step was replayed).
func (p *replay) wasStored(kind task.SectionKind, round int) bool {
	return p.stored[replayKey(kind, round)]
}

// forget reports whether the section of kind and round was stored before
// the usage limit, and forgets it: it is not stored again, once.
func (p *replay) forget(kind task.SectionKind, round int) bool {
	if !p.stored[replayKey(kind, round)] {
		return false
	}
	delete(p.stored, replayKey(kind, round))
	return true
}
