package pipeline

import "github.com/boof-runner/boof-runner/backend/task"

// injections are the prompts the user injected into the task, in order:
// every step's prompt includes them all.
type injections struct {
	texts []string
}

// load takes the injected prompts stored among secs.
func (in *injections) load(secs []task.Section) {
	for _, s := range secs {
		if s.Kind == task.SectionInjectedPrompt {
			in.add(s.Body)
		}
	}
}

// add takes one more injected prompt.
func (in *injections) add(text string) { in.texts = append(in.texts, text) }

// all returns the injected prompts.
func (in *injections) all() []string { return in.texts }

// settled is what the run settles once for all the steps after: the verify
// command (once the worktree is provisioned) and the final plan (once the
// refinement wrote it, or from the section stored before).
type settled struct {
	verify    VerifyChoice
	finalPlan string
}

// setVerify records the verify command the run uses.
func (s *settled) setVerify(vc VerifyChoice) { s.verify = vc }

// setPlan records the final plan.
func (s *settled) setPlan(plan string) { s.finalPlan = plan }
