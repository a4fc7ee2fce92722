package task

// RunStart says where a task's next run begins. The zero value is a run
// from the planner. It is set when a finished task is queued again: by a
// request for changes (a fix run that starts at the developer with the
// user's review) and by a retry (a stopped run resumes at the step that was
// cut short; a failed one restarts at the planner, or at the developer when
// the user asks). A run that completes clears it.
type RunStart struct {
	// From is the role the run starts at: "" (the planner) or
	// RoleDeveloper, which skips planning and reuses the last final plan.
	From Role `json:"from,omitempty"`
	// Resume continues the interrupted run at the step that was cut short:
	// the plan and the reports before that step are reused. From is then
	// ignored.
	Resume bool `json:"resume,omitempty"`
	// Review is the id of the change request the run addresses (0 = none);
	// Fix is its ordinal among the task's change requests (1 = the first).
	Review int64 `json:"review,omitempty"`
	Fix    int   `json:"fix,omitempty"`
}

// IsFix reports whether the run addresses a review of the user's.
func (s RunStart) IsFix() bool { return s.Review != 0 }

// NextIteration is the iteration (1-based pass through the pipeline) the
// task's next run records its steps and reports under: every completed run
// and every completed fix run took one.
func (t Task) NextIteration() int { return t.CompletedRuns + t.FixRuns + 1 }

// HunkDrop is a hunk of a task's diff the user asked to drop, resolved
// against the diff when the request was made: the pipeline reverse-applies
// Patch (the file's header and this one hunk) in the task's worktree before
// the developer runs.
type HunkDrop struct {
	// File is the path in the diff; Index the hunk's 1-based position among
	// that file's hunks; Header its "@@" line.
	File   string `json:"file"`
	Index  int    `json:"index"`
	Header string `json:"header"`
	// Patch is a patch of the one hunk, applicable with git apply.
	Patch string `json:"patch"`
}
