package app

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Report is one stored role report.
type Report struct {
	Role      task.Role `json:"role"`
	Round     int       `json:"round"`
	Iteration int       `json:"iteration"`
	Verdict   string    `json:"verdict,omitempty"`
	Body      string    `json:"body"`
	CreatedAt time.Time `json:"created_at"`
}

// Injection is an injected prompt and whether it has been applied.
type Injection struct {
	ID        string    `json:"id"`
	Text      string    `json:"text"`
	Delivery  string    `json:"delivery"`
	Applied   bool      `json:"applied"`
	Step      string    `json:"step,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// TaskEvent is one entry of the structured history, with a readable message.
type TaskEvent struct {
	At      time.Time `json:"at"`
	Kind    string    `json:"kind"`
	Message string    `json:"message"`
}

// TaskDetail is everything the editor shows about a task.
type TaskDetail struct {
	task.Task
	Attachments []store.Attachment `json:"attachments"`
	Answers     string             `json:"answers"`
	Reports     []Report           `json:"reports"`
	Injections  []Injection        `json:"injections"`
	Events      []TaskEvent        `json:"events"`
	Log         string             `json:"log"`
}

// reportKinds maps the report sections to their role.
var reportKinds = map[task.SectionKind]task.Role{
	task.SectionPlannerReport:   task.RolePlanner,
	task.SectionFinalPlan:       task.RoleRefinement,
	task.SectionDeveloperReport: task.RoleDeveloper,
	task.SectionObserverReport:  task.RoleObserver,
	task.SectionReviewerReport:  task.RoleReviewer,
}

// Get returns a task with its reports, injections, history and log.
func (s *TaskService) Get(id string) (TaskDetail, error) {
	ctx := s.ctx()
	t, err := s.store.GetTask(ctx, id)
	if err != nil {
		return TaskDetail{}, userError(err)
	}
	d := TaskDetail{Task: t, Reports: []Report{}, Injections: []Injection{}, Events: []TaskEvent{}}
	if d.Attachments, err = s.attachments(id); err != nil {
		return TaskDetail{}, err
	}
	secs, err := s.store.Sections(ctx, id)
	if err != nil {
		return TaskDetail{}, userError(err)
	}
	var answers []string
	for _, sec := range secs {
		if role, ok := reportKinds[sec.Kind]; ok {
			d.Reports = append(d.Reports, Report{Role: role, Round: max(sec.Round, 1), Iteration: max(sec.Iteration, 1),
				Verdict: sec.Verdict, Body: sec.Body, CreatedAt: sec.CreatedAt})
		}
		if sec.Kind == task.SectionAnswers {
			answers = append(answers, sec.Body)
		}
	}
	d.Answers = strings.Join(answers, "\n\n")
	injs, err := s.store.Injections(ctx, id)
	if err != nil {
		return TaskDetail{}, userError(err)
	}
	for _, in := range injs {
		d.Injections = append(d.Injections, Injection{ID: fmt.Sprint(in.ID), Text: in.Text, Delivery: "next_step",
			Applied: in.AppliedAt != nil, Step: in.Step, CreatedAt: in.CreatedAt})
	}
	evs, err := s.store.Events(ctx, id, time.Time{})
	if err != nil {
		return TaskDetail{}, userError(err)
	}
	for _, e := range evs {
		d.Events = append(d.Events, TaskEvent{At: e.At, Kind: e.Kind, Message: describeEvent(e)})
		if e.Kind == "prompt_injected" {
			markLive(d.Injections, e.Payload)
		}
	}
	lines, err := s.store.Log(ctx, id, 0, 20000)
	if err != nil {
		return TaskDetail{}, userError(err)
	}
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%s %-5s %s\n", l.At.Local().Format("15:04:05"), l.Level, l.Text)
	}
	d.Log = b.String()
	sort.SliceStable(d.Reports, func(i, j int) bool { return d.Reports[i].Iteration < d.Reports[j].Iteration })
	return d, nil
}

// markLive sets delivery "live" on the injection an event says reached the
// running session.
func markLive(injs []Injection, payload json.RawMessage) {
	var p struct {
		ID       json.Number `json:"id"`
		Delivery string      `json:"delivery"`
	}
	if json.Unmarshal(payload, &p) != nil || p.Delivery != "live" {
		return
	}
	for i := range injs {
		if injs[i].ID == p.ID.String() {
			injs[i].Delivery = "live"
		}
	}
}

// describeEvent renders an event as one readable line.
func describeEvent(e store.Event) string {
	var p map[string]any
	_ = json.Unmarshal(e.Payload, &p)
	str := func(k string) string {
		if v, ok := p[k]; ok && v != nil {
			return fmt.Sprint(v)
		}
		return ""
	}
	switch e.Kind {
	case "created":
		return "Task created"
	case "status_changed":
		msg := fmt.Sprintf("Status %s → %s", str("from"), str("to"))
		if r := str("reason"); r != "" {
			msg += ": " + r
		} else if r := str("error"); r != "" {
			msg += ": " + r
		}
		return msg
	case "claimed":
		return "Claimed by the runner"
	case "step_started":
		return strings.TrimSpace(fmt.Sprintf("Step %s started %s", str("role"), roundText(p)))
	case "step_finished":
		return strings.TrimSpace(fmt.Sprintf("Step %s finished (%s)", str("role"), str("outcome")))
	case "verdict":
		return fmt.Sprintf("%s verdict (round %s): %s", capitalize(str("role")), str("round"), str("verdict"))
	case "retry_scheduled":
		return fmt.Sprintf("Retry of %s scheduled", str("step"))
	case "stop_requested":
		return "Stop requested"
	case "prompt_injected":
		return "Prompt injected"
	case "question_asked":
		return "The planner asked questions"
	case "answered":
		return "Questions answered"
	case "exported":
		return "Exported to markdown"
	}
	if len(p) == 0 {
		return strings.ReplaceAll(e.Kind, "_", " ")
	}
	b, _ := json.Marshal(p)
	return strings.ReplaceAll(e.Kind, "_", " ") + " " + string(b)
}

func roundText(p map[string]any) string {
	if r, ok := p["round"]; ok {
		return fmt.Sprintf("(round %v)", r)
	}
	return ""
}
