package usererr_test

import (
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"testing"

	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

var update = flag.Bool("update", false, "rewrite the golden messages the front end's component tests answer with")

// golden is where the front end's stubs take these messages from
// (frontend/src/lib/backend/goldens.ts); make contract rewrites it and fails
// when it differs from what is committed.
const golden = "../../frontend/src/lib/backend/usererr-golden.json"

// Golden holds the messages of every task status error and a sample of the
// other classes, with the inputs that produce them.
type Golden struct {
	Transitions []GoldenTransition `json:"transitions"`
	Statuses    []GoldenStatus     `json:"statuses"`
	NotFound    []GoldenNotFound   `json:"not_found"`
	Conflicts   []GoldenFiles      `json:"conflicts"`
	Dirty       []GoldenFiles      `json:"dirty"`
	Moved       []GoldenMoved      `json:"moved"`
	UnknownBase []GoldenBase       `json:"unknown_base"`
	Duplicates  []GoldenDuplicate  `json:"duplicates"`
}

type GoldenDuplicate struct {
	Origin  string `json:"origin"`
	TaskID  string `json:"task_id"`
	Message string `json:"message"`
}

type GoldenTransition struct {
	From    task.Status `json:"from"`
	To      task.Status `json:"to"`
	Message string      `json:"message"`
}

type GoldenStatus struct {
	Op      string        `json:"op"`
	Status  task.Status   `json:"status"`
	Allowed []task.Status `json:"allowed"`
	Message string        `json:"message"`
}

type GoldenNotFound struct {
	What    string `json:"what"`
	ID      string `json:"id"`
	Message string `json:"message"`
}

type GoldenFiles struct {
	Dir     string   `json:"dir,omitempty"`
	Files   []string `json:"files"`
	Message string   `json:"message"`
}

type GoldenMoved struct {
	Branch   string `json:"branch"`
	Expected string `json:"expected"`
	Actual   string `json:"actual"`
	Message  string `json:"message"`
}

type GoldenBase struct {
	Base    string `json:"base"`
	Dir     string `json:"dir"`
	Message string `json:"message"`
}

func describe(err error) string { msg, _ := usererr.Describe(err); return msg }

func buildGolden() Golden {
	var g Golden
	for _, from := range task.Statuses {
		for _, to := range task.Statuses {
			if !task.CanTransition(from, to) {
				g.Transitions = append(g.Transitions, GoldenTransition{from, to, describe(&task.TransitionError{From: from, To: to})})
			}
		}
	}
	notOngoing := []task.Status{}
	for _, s := range task.Statuses {
		if s != task.StatusOngoing {
			notOngoing = append(notOngoing, s)
		}
	}
	ops := []struct {
		op      string
		allowed []task.Status
	}{ // as the store and the bound services refuse them
		{"edit", []task.Status{task.StatusDraft, task.StatusPending}},
		{"delete", notOngoing},
		{"retry", []task.Status{task.StatusFailed, task.StatusStopped}},
		{"unarchive", []task.Status{task.StatusArchived}},
		{"answer", []task.Status{task.StatusActions}},
		{"stop", []task.Status{task.StatusOngoing}},
		{"inject into", []task.Status{task.StatusOngoing, task.StatusPending, task.StatusActions}},
		{"attach to", []task.Status{task.StatusDraft, task.StatusPending, task.StatusActions}},
		{"reorder", []task.Status{task.StatusPending}},
		{"reorder", []task.Status{task.StatusPending, task.StatusDraft}},
		{"ask questions on", []task.Status{task.StatusOngoing}},
		{"frob", []task.Status{task.StatusDone}},
	}
	for _, o := range ops {
		for _, s := range task.Statuses {
			if !contains(o.allowed, s) {
				g.Statuses = append(g.Statuses, GoldenStatus{o.op, s, o.allowed,
					describe(&store.StatusError{Op: o.op, TaskID: "t1", Status: s, Allowed: o.allowed})})
			}
		}
	}
	for _, nf := range [][2]string{{store.WhatTask, "0000000000000000"}, {store.WhatTask, "nope"}, {store.WhatCommand, "tests"}, {store.WhatAttachment, `spec "v2".txt`}} {
		g.NotFound = append(g.NotFound, GoldenNotFound{nf[0], nf[1], describe(&store.NotFoundError{What: nf[0], ID: nf[1]})})
	}
	for _, files := range [][]string{{"go.mod"}, {"go.mod", "internal/config/config.go"}, {"a", "b", "c", "d", "e", "f", "g"}} {
		g.Conflicts = append(g.Conflicts, GoldenFiles{Files: files, Message: describe(&review.ConflictError{Files: files})})
		g.Dirty = append(g.Dirty, GoldenFiles{Dir: "/home/me/project-wip", Files: files, Message: describe(&review.DirtyError{Dir: "/home/me/project-wip", Files: files})})
	}
	for _, m := range [][3]string{{"main", "5e4d3c2b1a0f9e8d7c6b5a49382716f5e4d3c2b1", "9b8e7710000000000000000000000000000000aa"}, {"release/1.4", "", "abc"}} {
		g.Moved = append(g.Moved, GoldenMoved{m[0], m[1], m[2], describe(&review.MovedError{Ref: "refs/heads/" + m[0], Expected: m[1], Actual: m[2]})})
	}
	for _, b := range []string{"nope", `it's "quoted"`} {
		g.UnknownBase = append(g.UnknownBase, GoldenBase{b, "/home/dev/project", describe(&worktree.UnknownBaseError{Base: b, Dir: "/home/dev/project"})})
	}
	for _, d := range [][2]string{{"2025-10-03-retry-flaky-upload", "01m8rn58sxfzrasp"}, {`odd "id"`, "t1"}} {
		g.Duplicates = append(g.Duplicates, GoldenDuplicate{d[0], d[1], describe(&store.DuplicateOriginError{OriginID: d[0], TaskID: d[1]})})
	}
	return g
}

func contains(list []task.Status, s task.Status) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestGoldenMessagesAreCurrent: the messages the front end's stubs answer
// with are the ones Describe gives (go test ./backend/usererr -update
// rewrites them).
func TestGoldenMessagesAreCurrent(t *testing.T) {
	want := buildGolden()
	if *update {
		b, err := json.MarshalIndent(want, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	var got Golden
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s is out of date: run go test ./backend/usererr -update", golden)
	}
	for _, m := range want.Transitions {
		checkSentence(t, m.Message)
	}
	for _, m := range want.Statuses {
		checkSentence(t, m.Message)
	}
}
