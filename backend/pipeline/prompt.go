package pipeline

import (
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Prompt headings the pipeline writes (tests and tools may look for them).
const (
	HeadingTask          = "## Task"
	HeadingCommand       = "## Command"
	HeadingAttachments   = "## Attachments"
	HeadingAnswers       = "## Answers from the user"
	HeadingPlan          = "## Plan"
	HeadingFinalPlan     = "## Final plan"
	HeadingFindings      = "## Findings to address"
	HeadingPrevIteration = "## Findings from the previous iteration"
	HeadingInjected      = "## Injected prompts"
	HeadingInterrupted   = "## Previous attempt interrupted"
	HeadingDiff          = "## Diff against the base"
	HeadingQuestions     = "## Questions to answer"
	HeadingPlannerAnswer = "## Answers from the planner"
	HeadingIteration     = "## Iteration"
	HeadingVerification  = "## Verification"
	HeadingFixRun        = "## Fix run"
	HeadingHumanReview   = "## Human review"
	HeadingResumed       = "## Previous attempt stopped"
)

// Attachment is a file the user attached to the task, as a prompt lists it.
type Attachment struct {
	// Name is the file's name as the user gave it.
	Name string
	// Path is the absolute path of the task's copy (outside the worktree).
	Path string
	// Size is its size in bytes.
	Size int64
}

// PromptInput is everything a role prompt may carry.
type PromptInput struct {
	Role task.Role
	// Task is the user's prompt.
	Task string
	// Command is the command template text, "" when none.
	Command string
	// Attachments are the files the user attached to the task.
	Attachments []Attachment
	// Answers are the user's answers to the planner's questions.
	Answers []string
	// Plan is the first plan (for refinement).
	Plan string
	// FinalPlan is the refined plan (developer, observer, reviewer, answers).
	FinalPlan string
	// Findings is the report a developer fix round addresses; FindingsRole
	// names who wrote it.
	Findings     string
	FindingsRole task.Role
	// PrevIteration holds the final observer and reviewer reports of the
	// previous iteration (runs > 1).
	PrevIteration string
	// Iteration and Runs frame later runs as a critical review: this is
	// planned run Iteration of Runs.
	Iteration, Runs int
	// Fix numbers a fix run (1 = the first fix run for the user's review);
	// HumanReview is its "## Human review" section, which every role of
	// the run reads verbatim.
	Fix         int
	HumanReview string
	// Resumed is set on the first step of a resumed run: its previous
	// attempt was cut short (stopped or interrupted) and the task retried.
	Resumed bool
	// Injected are the user's injected prompts, oldest first.
	Injected []string
	// Interrupted is set when this is a retry of a step that failed transiently.
	Interrupted bool
	// Diff is the prompt diff (inline or stat summary), "" to leave it out.
	Diff string
	// Questions and Asker are the questions a planner-answer step answers.
	Questions []string
	Asker     task.Role
	// PlannerAnswers is the planner's answer to this step's own questions.
	PlannerAnswers string
	// Verification is the last verify run's result (observer, reviewer).
	Verification string
	// Handoff is the note of a step that goes on in a fresh session (on
	// another tool after a usage limit, or after a rotation), "" when none.
	Handoff string
}

func section(b *strings.Builder, heading, body string) {
	body = strings.TrimSpace(body)
	if body == "" {
		return
	}
	b.WriteString(heading)
	b.WriteString("\n\n")
	b.WriteString(body)
	b.WriteString("\n\n")
}

func bullets(items []string) string {
	var b strings.Builder
	for _, s := range items {
		fmt.Fprintf(&b, "- %s\n", strings.TrimSpace(s))
	}
	return b.String()
}

// attachmentList tells the agent where the task's files are: one line per
// file with its name, absolute path and size. The files stay files (an
// image is opened as an image), outside the working directory, so they are
// never committed.
func attachmentList(atts []Attachment) string {
	if len(atts) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("The user attached these files to the task. They are outside the working directory: read them " +
		"from their paths (open images as images), and do not copy them into the repository unless the task asks for it.\n\n")
	for _, a := range atts {
		fmt.Fprintf(&b, "- %s: %s (%s)\n", a.Name, a.Path, humanSize(a.Size))
	}
	return b.String()
}

// humanSize is a byte count for people: "512 bytes", "1.5 KiB", "3.2 MiB".
func humanSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d bytes", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
}

// BuildPrompt assembles the user prompt of one step.
func BuildPrompt(in PromptInput) string {
	var b strings.Builder
	if in.Fix > 0 {
		section(&b, HeadingFixRun, fmt.Sprintf(
			"Fix run %d for your review: the user reviewed this task's finished work and asked for the changes under %q below. "+
				"The work is already in the working directory (and the hunks the user dropped were already reverted): "+
				"make what the review asks, keep the rest as it is, and do not start over.", in.Fix, HeadingHumanReview))
	} else if in.Iteration > 1 {
		section(&b, HeadingIteration, fmt.Sprintf(
			"This is run %d of %d of this task. The previous run's work is already in the working directory. "+
				"Review it critically and improve it: fix what is wrong or missing rather than starting over.", in.Iteration, in.Runs))
	}
	section(&b, HeadingTask, in.Task)
	section(&b, HeadingCommand, in.Command)
	section(&b, HeadingAttachments, attachmentList(in.Attachments))
	if len(in.Answers) > 0 {
		section(&b, HeadingAnswers, strings.Join(in.Answers, "\n\n"))
	}
	switch in.Role {
	case task.RoleRefinement:
		section(&b, HeadingPlan, in.Plan)
	case task.RoleDeveloper, task.RoleObserver, task.RoleReviewer, task.RolePlannerAnswer:
		section(&b, HeadingFinalPlan, in.FinalPlan)
	}
	section(&b, HeadingPrevIteration, in.PrevIteration)
	if in.HumanReview != "" {
		section(&b, HeadingHumanReview, strings.TrimPrefix(strings.TrimSpace(in.HumanReview), HeadingHumanReview))
	}
	switch {
	case in.Findings != "" && in.FindingsRole == task.RoleVerify:
		section(&b, HeadingFindings, strings.TrimSpace(in.Findings)+"\n\n"+
			"Make the verify command pass: fix the cause in the code or its tests (never weaken or skip the check). "+
			"Keep working in this directory.")
	case in.Findings != "":
		section(&b, HeadingFindings, fmt.Sprintf("The %s asked for changes. Its report:\n\n%s\n\n"+
			"Fix each real finding, with a test that fails without the fix, or rebut it with evidence "+
			"(a command and its output, or a file and line) in your report. Keep working in this directory.",
			in.FindingsRole, strings.TrimSpace(in.Findings)))
	}
	if in.Role == task.RoleObserver || in.Role == task.RoleReviewer {
		section(&b, HeadingVerification, in.Verification)
	}
	if in.Role == task.RolePlannerAnswer {
		section(&b, HeadingQuestions, fmt.Sprintf("The %s asks:\n\n%s", in.Asker, bullets(in.Questions)))
	}
	section(&b, HeadingPlannerAnswer, in.PlannerAnswers)
	section(&b, HeadingDiff, in.Diff)
	if len(in.Injected) > 0 {
		section(&b, HeadingInjected, "The user added these instructions while the task ran; follow them:\n\n"+bullets(in.Injected))
	}
	if in.Resumed {
		section(&b, HeadingResumed, "The previous attempt at this task was interrupted at this step (it was stopped, or the app exited) and the user retried it. "+
			"The plan and the reports of the steps before this one are kept. The working directory may hold partial changes from the cut-short attempt: "+
			"inspect `git status` and `git diff` first, and continue from there rather than restart.")
	}
	if in.Handoff != "" {
		section(&b, HeadingHandoff, "This step was started by another session, which could not go on. "+
			"Its handoff follows: continue from it.\n\n"+in.Handoff)
	} else if in.Interrupted {
		section(&b, HeadingInterrupted, "Your previous attempt at this step was interrupted by a transient failure. "+
			"The working directory may hold partial changes from it: inspect `git status` and `git diff` first, "+
			"and continue from there rather than restart.")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}
