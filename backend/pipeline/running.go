package pipeline

import "github.com/boof-runner/boof-runner/backend/agent"

// ran is what the last attempt of the running step ran with: its tool,
// model and native session (tool is "" until an attempt started).
type ran struct {
	tool, model, session string
}

// running is what the run knows of the step that runs, for its rotation
// and its handoff: the watch on its attempt, what its last attempt ran
// with, the files its handoff lists (carried to the next read-only step),
// and its prompt diff.
type running struct {
	// watch follows the running attempt (nil before the first).
	watch *watch
	// last is what the running step's last attempt ran with.
	last ran
	// files are the files touched as the last step handoff listed them
	// (nil: not yet listed).
	files []string
	// diff is the prompt diff of the running attempt (nil: it has none).
	diff *promptDiff
}

// begin starts a step: no attempt of it ran yet.
func (s *running) begin() { s.last = ran{} }

// ranAttempt reports whether an attempt of the step started.
func (s *running) ranAttempt() bool { return s.last.tool != "" }

// attemptWith sets the watch of the next attempt.
func (s *running) attemptWith(w *watch) { s.watch = w }

// watching returns the watch of the attempt about to start: the one the
// step set, else fresh (made by fresh).
func (s *running) watching(fresh func() *watch) *watch {
	if s.watch == nil {
		return fresh()
	}
	return s.watch
}

// shows records the prompt diff of the attempt about to start.
func (s *running) shows(d *promptDiff) { s.diff = d }

// started records what the attempt that started runs with.
func (s *running) started(tool, model, session string) {
	s.last = ran{tool: tool, model: model, session: session}
}

// session records the native session the attempt reported.
func (s *running) session(id string) { s.last.session = id }

// output returns the last output of the watched attempt ("" without one).
func (s *running) output(res agent.Result) string {
	if s.watch == nil {
		return ""
	}
	return s.watch.out.text(res)
}

// listFiles returns the files the step's handoff lists: none for a
// read-only step whose guard found the worktree clean at the base; for any
// other read-only step the list the last step took (list called only when
// there is none yet); for a step that may write, list's answer.
func (s *running) listFiles(readOnly, atBase bool, list func() []string) []string {
	switch {
	case readOnly && atBase:
		s.files = []string{}
	case s.files == nil || !readOnly:
		s.files = append([]string{}, list()...)
	}
	return s.files
}
