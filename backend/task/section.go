package task

import "time"

// SectionKind is the type of a task body section.
type SectionKind string

const (
	// SectionPrompt is the original prompt as the user wrote it.
	SectionPrompt SectionKind = "prompt"
	// SectionCommand is the command template text injected into the prompt.
	SectionCommand SectionKind = "command"
	// SectionQuestions holds the planner's open questions to the user.
	SectionQuestions SectionKind = "questions"
	// SectionAnswers holds the user's answers to the planner's questions.
	SectionAnswers SectionKind = "answers"
	// SectionPlannerReport is the planner's first plan.
	SectionPlannerReport SectionKind = "planner_report"
	// SectionFinalPlan is the refinement step's final plan.
	SectionFinalPlan SectionKind = "final_plan"
	// SectionDeveloperReport is the developer's report.
	SectionDeveloperReport SectionKind = "developer_report"
	// SectionVerification is one run of the verify command: the command,
	// its exit status, duration and output tail (Role RoleVerify, Verdict
	// the task.VerifyOutcome, Step the step name).
	SectionVerification SectionKind = "verification"
	// SectionObserverReport is one observer report (one per round, with its verdict).
	SectionObserverReport SectionKind = "observer_report"
	// SectionReviewerReport is one reviewer report (one per round, with its verdict).
	SectionReviewerReport SectionKind = "reviewer_report"
	// SectionInjectedPrompt is a prompt the user injected, with the step it was applied to.
	SectionInjectedPrompt SectionKind = "injected_prompt"
	// SectionHumanReview is the user's review of the finished work.
	SectionHumanReview SectionKind = "human_review"
)

// SectionKinds lists every section kind in document order.
var SectionKinds = []SectionKind{
	SectionPrompt, SectionCommand, SectionQuestions, SectionAnswers,
	SectionPlannerReport, SectionFinalPlan, SectionDeveloperReport, SectionVerification,
	SectionObserverReport, SectionReviewerReport, SectionInjectedPrompt, SectionHumanReview,
}

// ParseSectionKind returns the kind named s, or an error wrapping ErrInvalid.
func ParseSectionKind(s string) (SectionKind, error) {
	for _, k := range SectionKinds {
		if string(k) == s {
			return k, nil
		}
	}
	return "", invalid("unknown section kind %q", s)
}

// Section is one typed part of a task's body. Role, Iteration and Round are
// set where they apply (zero otherwise); Verdict is set on observer and
// reviewer reports; Step names the step an injected prompt was applied to.
type Section struct {
	ID        int64       `json:"id"`
	TaskID    string      `json:"task_id"`
	Kind      SectionKind `json:"kind"`
	Role      Role        `json:"role,omitempty"`
	Iteration int         `json:"iteration"`
	Round     int         `json:"round"`
	Verdict   string      `json:"verdict,omitempty"`
	Step      string      `json:"step,omitempty"`
	Body      string      `json:"body"`
	CreatedAt time.Time   `json:"created_at"`
}

// Validate checks a section's fields (not its body, which may be anything,
// including empty). It returns an error wrapping ErrInvalid.
func (s Section) Validate() error {
	if _, err := ParseSectionKind(string(s.Kind)); err != nil {
		return err
	}
	if s.Role != "" {
		if _, err := ParseStepRole(string(s.Role)); err != nil {
			return err
		}
	}
	if s.Iteration < 0 || s.Iteration > 1_000_000 || s.Round < 0 || s.Round > 1_000_000 {
		return invalid("section iteration/round out of range")
	}
	if !isToken(s.Verdict, 32) || !isToken(s.Step, 64) {
		return invalid("section verdict or step contains spaces or control characters")
	}
	return nil
}
