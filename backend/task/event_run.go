package task

// The payloads of the events the pipeline emits while it runs a task. The
// stored ones make up the run's history; each also reaches the live feed.

// StepAttempt names one step attempt in the step events.
type StepAttempt struct {
	// Execution is the id of the step attempt's execution row.
	Execution int64 `json:"execution"`
	// Step is the step's name in logs and injections ("developer",
	// "reviewer-2"); empty in history written before it was recorded.
	Step      string `json:"step,omitempty"`
	Role      Role   `json:"role"`
	Iteration int    `json:"iteration"`
	Round     int    `json:"round"`
	Attempt   int    `json:"attempt"`
}

// StepStarted is the payload of EventStepStarted.
type StepStarted struct {
	StepAttempt
	Tool  string `json:"tool"`
	Model string `json:"model"`
	// ResumedSession is the native session the attempt continues ("" for a
	// fresh session).
	ResumedSession string `json:"resumed_session,omitempty"`
	// HandoffFrom names the tool whose handoff the prompt carries ("" for none).
	HandoffFrom string `json:"handoff_from,omitempty"`
}

// StepFinished is the payload of EventStepFinished.
type StepFinished struct {
	StepAttempt
	Outcome ExecOutcome `json:"outcome"`
	// ExitCode is the tool's exit code, -1 when it was killed or never ran.
	ExitCode int   `json:"exit_code"`
	Usage    Usage `json:"usage"`
	// CostEstimated is true when the cost came from the tool's price table.
	CostEstimated bool `json:"cost_estimated,omitempty"`
}

// VerdictGiven is the payload of EventVerdict.
type VerdictGiven struct {
	// Role is RoleObserver or RoleReviewer.
	Role      Role    `json:"role"`
	Iteration int     `json:"iteration"`
	Round     int     `json:"round"`
	Verdict   Verdict `json:"verdict"`
}

// RetryScheduled is the payload of EventRetryScheduled.
type RetryScheduled struct {
	Step string `json:"step"`
	Role Role   `json:"role,omitempty"`
	// Attempt is the attempt that failed; MaxAttempts the step's budget.
	Attempt     int   `json:"attempt"`
	MaxAttempts int   `json:"max_attempts,omitempty"`
	DelayMs     int64 `json:"delay_ms"`
	// Reason says why the attempt failed ("API Error: 503", "stalled: ...").
	Reason string `json:"reason,omitempty"`
}

// PlannerAsked is the payload of EventPlannerAsked.
type PlannerAsked struct {
	// Role is the role that asked.
	Role      Role     `json:"role"`
	Questions []string `json:"questions"`
}

// PlannerAnswered is the payload of EventPlannerAnswered.
type PlannerAnswered struct {
	// Role is the role whose questions were answered.
	Role Role `json:"role"`
	// Answer is the planner's answer (shortened).
	Answer string `json:"answer,omitempty"`
}

// Delivery says how an injected prompt reached a step.
type Delivery string

const (
	// DeliveryLive is a prompt written into the running session.
	DeliveryLive Delivery = "live"
	// DeliveryNextStep is a prompt added to the prompt of the next step.
	DeliveryNextStep Delivery = "next_step"
)

// InjectionApplied is the payload of EventInjectionApplied. Either way the
// prompt is part of every later step's prompt.
type InjectionApplied struct {
	// Injection is the injected prompt's id.
	Injection int64 `json:"injection"`
	// Step is the step it was applied to.
	Step     string   `json:"step"`
	Delivery Delivery `json:"delivery"`
	// Error says why a live delivery failed (the prompt then waits for the
	// next step).
	Error string `json:"error,omitempty"`
}

// OutcomeDecided is the payload of EventOutcomeDecided: the status the run
// ends in and the worktree clean-up still to do ("" when none).
type OutcomeDecided struct {
	Status  Status `json:"status"`
	Cleanup string `json:"cleanup,omitempty"`
}

// Kind returns EventOutcomeDecided.
func (OutcomeDecided) Kind() EventKind { return EventOutcomeDecided }

// Kind returns EventStepStarted.
func (StepStarted) Kind() EventKind { return EventStepStarted }

// Kind returns EventStepFinished.
func (StepFinished) Kind() EventKind { return EventStepFinished }

// Kind returns EventVerdict.
func (VerdictGiven) Kind() EventKind { return EventVerdict }

// Kind returns EventRetryScheduled.
func (RetryScheduled) Kind() EventKind { return EventRetryScheduled }

// MapText applies f to the failure reason.
func (r RetryScheduled) MapText(f func(string) string) EventData { r.Reason = f(r.Reason); return r }

// Kind returns EventPlannerAsked.
func (PlannerAsked) Kind() EventKind { return EventPlannerAsked }

// MapText applies f to each question.
func (p PlannerAsked) MapText(f func(string) string) EventData {
	qs := make([]string, len(p.Questions))
	for i, q := range p.Questions {
		qs[i] = f(q)
	}
	p.Questions = qs
	return p
}

// Kind returns EventPlannerAnswered.
func (PlannerAnswered) Kind() EventKind { return EventPlannerAnswered }

// MapText applies f to the answer.
func (p PlannerAnswered) MapText(f func(string) string) EventData { p.Answer = f(p.Answer); return p }

// Kind returns EventInjectionApplied.
func (InjectionApplied) Kind() EventKind { return EventInjectionApplied }

// MapText applies f to the delivery error.
func (i InjectionApplied) MapText(f func(string) string) EventData { i.Error = f(i.Error); return i }

// Run kinds of RunStarted.
const (
	// RunPlanned is a run from the planner (one of the task's runs).
	RunPlanned = "run"
	// RunFix is a fix run: from the developer, addressing the user's review.
	RunFix = "fix"
	// RunResumed continues a stopped run at the step that was cut short.
	RunResumed = "resume"
	// RunFromDeveloper restarts a failed run at the developer with the last
	// final plan.
	RunFromDeveloper = "developer"
)

// RunStarted is the payload of EventRunStarted: how a run began.
type RunStarted struct {
	Iteration int `json:"iteration"`
	// Start is RunPlanned, RunFix, RunResumed or RunFromDeveloper.
	Start string `json:"start"`
	// Step is the first step the run takes ("planner", "developer",
	// "reviewer-2").
	Step string `json:"step"`
	// Run and Runs number a planned run (run 2 of 3); Fix numbers a fix
	// run (fix run 1 for the user's review).
	Run  int `json:"run,omitempty"`
	Runs int `json:"runs,omitempty"`
	Fix  int `json:"fix,omitempty"`
	// Interrupted is true when the first step continues an attempt that
	// was interrupted.
	Interrupted bool `json:"interrupted,omitempty"`
}

// HunkDropped is the payload of EventHunkDropped: a hunk the user dropped
// was reverted in the task's worktree and committed on its branch before
// the developer ran.
type HunkDropped struct {
	File   string `json:"file"`
	Index  int    `json:"index"`
	Header string `json:"header"`
	// Commit is the "Drop hunk" commit; empty when the hunk was already
	// reverted (a resumed fix run).
	Commit string `json:"commit,omitempty"`
}

// Kind returns EventRunStarted.
func (RunStarted) Kind() EventKind { return EventRunStarted }

// Kind returns EventHunkDropped.
func (HunkDropped) Kind() EventKind { return EventHunkDropped }
