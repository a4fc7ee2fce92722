package app

import (
	"fmt"
	"sort"
	"strconv"
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

// TaskEvent is one entry of the task's history: a stored event, its kind
// and payload as declared in backend/task (a kind this version does not
// know keeps its stored payload). The front end renders it from these.
type TaskEvent struct {
	At   time.Time      `json:"at"`
	Kind task.EventKind `json:"kind"`
	Data task.EventData `json:"data"`
}

// TaskDetail is everything the editor shows about a task.
type TaskDetail struct {
	task.Task
	// CommandText is the task's copy of its command template's text, as the
	// agents get it ("" when none).
	CommandText string             `json:"command_text"`
	Attachments []store.Attachment `json:"attachments"`
	// UsageByRole is the task's usage per role (key: the role), in pipeline order.
	UsageByRole []store.UsageRow `json:"usage_by_role"`
	Answers     string           `json:"answers"`
	Reports     []Report         `json:"reports"`
	Injections  []Injection      `json:"injections"`
	Events      []TaskEvent      `json:"events"`
	Log         string           `json:"log"`
}

// reportKinds maps the report sections to their role.
var reportKinds = map[task.SectionKind]task.Role{
	task.SectionPlannerReport:   task.RolePlanner,
	task.SectionFinalPlan:       task.RoleRefinement,
	task.SectionDeveloperReport: task.RoleDeveloper,
	task.SectionVerification:    task.RoleVerify,
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
		if sec.Kind == task.SectionCommand && d.CommandText == "" {
			d.CommandText = sec.Body
		}
	}
	d.Answers = strings.Join(answers, "\n\n")
	if d.UsageByRole, err = s.store.TaskUsageByRole(ctx, id); err != nil {
		return TaskDetail{}, userError(err)
	}
	injs, err := s.store.Injections(ctx, id)
	if err != nil {
		return TaskDetail{}, userError(err)
	}
	for _, in := range injs {
		d.Injections = append(d.Injections, Injection{ID: strconv.FormatInt(in.ID, 10), Text: in.Text, Delivery: string(task.DeliveryNextStep),
			Applied: in.AppliedAt != nil, Step: in.Step, CreatedAt: in.CreatedAt})
	}
	evs, err := s.store.Events(ctx, id, time.Time{})
	if err != nil {
		return TaskDetail{}, userError(err)
	}
	for _, e := range evs {
		d.Events = append(d.Events, TaskEvent{At: e.At, Kind: e.Kind(), Data: e.Data})
		if a, ok := e.Data.(task.InjectionApplied); ok && a.Delivery == task.DeliveryLive {
			markLive(d.Injections, a.Injection)
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

// markLive sets delivery "live" on the injection that reached a running
// session.
func markLive(injs []Injection, id int64) {
	for i := range injs {
		if injs[i].ID == strconv.FormatInt(id, 10) {
			injs[i].Delivery = string(task.DeliveryLive)
		}
	}
}
