package pipeline

import (
	"context"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/task"
)

// maxQuestionRounds bounds how often one step may ask the planner before
// its report is taken as it is.
const maxQuestionRounds = 2

// iteration runs planner, refinement, developer and the review gate,
// from where the run starts (begin): a fix run and a restart from the
// developer reuse the last final plan, a resumed run every report its
// cut-short attempt finished.
func (r *run) iteration(ctx context.Context, secs []task.Section) error {
	at, err := r.begin(ctx, secs)
	if err != nil {
		return err
	}
	base := PromptInput{
		Task: r.t.Prompt, Command: commandText(secs), Answers: answers(secs),
		PrevIteration: prevFindings(secs, r.iter-1), HumanReview: r.humanRev,
	}
	plan := at.plan
	if plan == "" && at.finalPlan == "" {
		res, err := r.step(ctx, stepSpec{role: task.RolePlanner, in: base})
		if err != nil {
			return err
		}
		if qs := questionsOf(res); len(qs) > 0 {
			return &parked{questions: qs}
		}
		if err := r.section(ctx, task.SectionPlannerReport, task.RolePlanner, 0, "", res.Report); err != nil {
			return err
		}
		plan = res.Report
	}
	r.settled.setPlan(at.finalPlan)
	if r.settled.finalPlan == "" {
		rin := base
		rin.Plan = plan
		res, err := r.ask(ctx, stepSpec{role: task.RoleRefinement, in: rin})
		if err != nil {
			return err
		}
		r.settled.setPlan(res.Report)
		if err := r.section(ctx, task.SectionFinalPlan, task.RoleRefinement, 0, "", res.Report); err != nil {
			return err
		}
	}
	base.FinalPlan = r.settled.finalPlan
	if err := r.dropHunks(ctx, at.drops); err != nil {
		return err
	}
	if !at.developed {
		if err := r.develop(ctx, base, "", ""); err != nil {
			return err
		}
	}
	if err := r.verifyGate(ctx, &base); err != nil {
		return err
	}
	return r.gate(ctx, base)
}

// gate runs the observer (if configured) and the reviewer with the fix
// loop; the verify gate runs again after every developer fix round.
func (r *run) gate(ctx context.Context, base PromptInput) error {
	_, hasObserver := r.choice(task.RoleObserver)
	enforce := r.set.Review.Gate
	observe := func() error {
		for {
			v, report, err := r.review(ctx, task.RoleObserver, base)
			if err != nil || !enforce {
				return err
			}
			switch v {
			case task.VerdictApprove:
				return nil
			case task.VerdictChangesRequested:
				if !r.rounds.takeObserverFix() {
					return notApproved(task.RoleObserver, v)
				}
				if err := r.develop(ctx, base, report, task.RoleObserver); err != nil {
					return err
				}
				if err := r.verifyGate(ctx, &base); err != nil {
					return err
				}
			default:
				return notApproved(task.RoleObserver, v)
			}
		}
	}
	if hasObserver {
		if err := observe(); err != nil {
			return err
		}
	}
	for {
		v, report, err := r.review(ctx, task.RoleReviewer, base)
		if err != nil || !enforce {
			return err
		}
		switch v {
		case task.VerdictApprove:
			return nil
		case task.VerdictChangesRequested:
			if !r.rounds.takeFix() {
				return notApproved(task.RoleReviewer, v)
			}
			if err := r.develop(ctx, base, report, task.RoleReviewer); err != nil {
				return err
			}
			if err := r.verifyGate(ctx, &base); err != nil {
				return err
			}
			if hasObserver {
				if err := observe(); err != nil {
					return err
				}
			}
		default:
			return notApproved(task.RoleReviewer, v)
		}
	}
}

func notApproved(role task.Role, v task.Verdict) error {
	return &failure{fmt.Sprintf("review not approved: %s %s", role, v)}
}

// develop runs a developer step; findings (with their author) make it a fix round.
func (r *run) develop(ctx context.Context, base PromptInput, findings string, from task.Role) error {
	in := base
	in.Findings, in.FindingsRole = findings, from
	round := r.rounds.dev
	switch {
	case from == task.RoleVerify:
		r.logf(task.LevelInfo, "Verification failed: developer fix round %d", round)
	case findings != "":
		r.logf(task.LevelInfo, "%s requested changes: developer fix round %d", titleCase(string(from)), round)
	}
	res, err := r.ask(ctx, stepSpec{role: task.RoleDeveloper, round: round, in: in, diff: findings != ""})
	if err != nil {
		return err
	}
	r.rounds.dev++
	return r.section(ctx, task.SectionDeveloperReport, task.RoleDeveloper, round, "", res.Report)
}

// review runs an observer or reviewer round and records its verdict.
func (r *run) review(ctx context.Context, role task.Role, base PromptInput) (task.Verdict, string, error) {
	kind := task.SectionReviewerReport
	if role == task.RoleObserver {
		kind = task.SectionObserverReport
	}
	round := r.rounds.nextReview(role)
	res, err := r.ask(ctx, stepSpec{role: role, round: round, in: base, diff: true})
	if err != nil {
		return "", "", err
	}
	v := task.ParseVerdict(res.Report)
	if r.res.replay.wasStored(kind, round) {
		_ = r.section(ctx, kind, role, round, string(v), res.Report)
		return v, res.Report, nil // its verdict was recorded before the usage limit
	}
	if err := r.section(ctx, kind, role, round, string(v), res.Report); err != nil {
		return "", "", err
	}
	r.emit(0, task.VerdictGiven{Role: role, Iteration: r.iter, Round: round, Verdict: v},
		task.LevelInfo, fmt.Sprintf("%s verdict (round %d): %s", titleCase(string(role)), round, v))
	return v, res.Report, nil
}

// ask runs a step and, when it asks questions, lets the planner answer them
// and runs the step again with the answers.
func (r *run) ask(ctx context.Context, s stepSpec) (agentResult, error) {
	for q := 0; ; q++ {
		res, err := r.step(ctx, s)
		if err != nil {
			return res, err
		}
		if kind, ok := sectionOf(s); ok && r.res.replay.wasStored(kind, s.round) {
			return res, nil // done before the usage limit, questions and all
		}
		qs := questionsOf(res)
		if len(qs) == 0 || q >= maxQuestionRounds {
			return res, nil
		}
		r.emit(0, task.PlannerAsked{Role: s.role, Questions: qs},
			task.LevelInfo, fmt.Sprintf("%s asked %d question(s); the planner answers them", titleCase(string(s.role)), len(qs)))
		ain := PromptInput{Task: s.in.Task, Command: s.in.Command, Answers: s.in.Answers, FinalPlan: r.settled.finalPlan,
			Plan: s.in.Plan, PrevIteration: s.in.PrevIteration, HumanReview: s.in.HumanReview, Questions: qs, Asker: s.role}
		ans, err := r.step(ctx, stepSpec{role: task.RolePlannerAnswer, in: ain})
		if err != nil {
			return ans, err
		}
		answer := clip(strings.TrimSpace(ans.Report), 2000)
		r.emit(0, task.PlannerAnswered{Role: s.role, Answer: answer},
			task.LevelInfo, fmt.Sprintf("Planner answered the %s: %s", s.role, answer))
		if s.in.PlannerAnswers != "" {
			s.in.PlannerAnswers += "\n\n"
		}
		s.in.PlannerAnswers += ans.Report
	}
}

type agentResult = agent.Result

func questionsOf(res agent.Result) []string {
	if len(res.Questions) > 0 {
		return res.Questions
	}
	return agent.ExtractQuestions(res.Report)
}

// section stores a report section (scrubbed).
func (r *run) section(ctx context.Context, kind task.SectionKind, role task.Role, round int, verdict, body string) error {
	if r.res.replay.forget(kind, round) {
		return nil // stored by the run before the usage limit
	}
	_, err := r.st.AddSection(ctx, task.Section{TaskID: r.t.ID, Kind: kind, Role: role, Iteration: r.iter,
		Round: round, Verdict: verdict, Body: secrets.Scrub(body)})
	if err != nil {
		return fmt.Errorf("store %s: %w", kind, err)
	}
	return nil
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// commandText returns the command template text stored on the task.
func commandText(secs []task.Section) string {
	for _, s := range secs {
		if s.Kind == task.SectionCommand {
			return s.Body
		}
	}
	return ""
}

// answers pairs the planner's questions with the user's answers.
func answers(secs []task.Section) []string {
	var out []string
	pending := ""
	for _, s := range secs {
		switch s.Kind {
		case task.SectionQuestions:
			pending = strings.TrimSpace(s.Body)
		case task.SectionAnswers:
			text := strings.TrimSpace(s.Body)
			if pending != "" {
				text = "You asked:\n" + pending + "\n\nThe user answered:\n" + text
				pending = ""
			}
			out = append(out, text)
		}
	}
	return out
}

// prevFindings returns the final observer and reviewer reports of an iteration.
func prevFindings(secs []task.Section, iter int) string {
	if iter < 1 {
		return ""
	}
	var obs, rev *task.Section
	for i := range secs {
		s := &secs[i]
		if s.Iteration != iter {
			continue
		}
		switch s.Kind {
		case task.SectionObserverReport:
			obs = s
		case task.SectionReviewerReport:
			rev = s
		}
	}
	var b strings.Builder
	for _, s := range []*task.Section{obs, rev} {
		if s == nil {
			continue
		}
		fmt.Fprintf(&b, "### %s report (run %d, round %d)\n\n%s\n\n", titleCase(string(s.Role)), iter, s.Round, strings.TrimSpace(s.Body))
	}
	return b.String()
}
