package kube

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/executor/wire"
)

// ExecRemote is `boof-runner-kube exec-remote`: it reads a wire.Spec from
// in's first line, creates the task's Job (or, with Spec.Attach, finds it
// by the task's label), follows its pod and prints wire.Status lines on
// out until the run ends; then it waits for "cleanup" (deletes the Job,
// whose outcome the desktop recorded) or for in to close. Later lines of
// in are wire.Commands: "stop" deletes the Job (foreground) and goes on
// following the pod as it hands its work back; "inject" hands a prompt to
// the pod. in closing before the end (the desktop gone) ends it and leaves
// the Job. It returns the process's exit code.
func ExecRemote(ctx context.Context, in io.Reader, out io.Writer) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	em := &emitter{w: out}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	if !sc.Scan() {
		return 2
	}
	var spec wire.Spec
	if err := json.Unmarshal(sc.Bytes(), &spec); err != nil || spec.TaskID == "" || spec.Job == "" {
		em.emit(wire.Status{Kind: wire.StatusError, Class: wire.ErrorOther, Message: "exec-remote: a spec without a task or a Job"})
		return 2
	}
	c, err := Connect(spec.Kubeconfig, spec.Context, spec.Namespace)
	if err != nil {
		em.fail(c, err, "")
		return 1
	}
	r := &run{c: c, spec: spec, em: em}
	cmds := make(chan wire.Command)
	go func() {
		defer close(cmds)
		for sc.Scan() {
			var cmd wire.Command
			if json.Unmarshal(sc.Bytes(), &cmd) == nil {
				cmds <- cmd
			}
		}
	}()
	done := make(chan bool, 1)
	go func() { done <- r.start(ctx) }()
	ended := false
	for !ended {
		select {
		case cmd, ok := <-cmds:
			if !ok {
				return 0 // the desktop is gone: the Job goes on
			}
			r.command(ctx, cmd)
		case ok := <-done:
			if !ok {
				return 1
			}
			ended = true
		}
	}
	for cmd := range cmds {
		if cmd.Op == "cleanup" {
			_ = c.deleteJob(context.WithoutCancel(ctx), spec.Job, false)
			return 0
		}
	}
	return 0
}

// emitter prints statuses, one JSON line each.
type emitter struct {
	mu sync.Mutex
	w  io.Writer
}

func (e *emitter) emit(s wire.Status) {
	b, _ := json.Marshal(s)
	e.mu.Lock()
	defer e.mu.Unlock()
	_, _ = e.w.Write(append(b, '\n'))
}

// fail prints err as a StatusError (what names the request, for an error
// that is not an *Error yet).
func (e *emitter) fail(c *Client, err error, what string) {
	ke, ok := err.(*Error)
	if !ok && c != nil {
		ke = c.classify(err, what)
	} else if !ok {
		ke = &Error{Class: wire.ErrorOther, Msg: err.Error()}
	}
	e.emit(wire.Status{Kind: wire.StatusError, Class: ke.Class, Message: ke.Msg})
}

// run is one task's run in the cluster.
type run struct {
	c    *Client
	spec wire.Spec
	em   *emitter

	mu       sync.Mutex
	pod      string
	stopping bool
}

// start creates or finds the Job, then follows it; it returns false when
// it printed an error.
func (r *run) start(ctx context.Context) bool {
	if r.spec.Attach {
		job, err := r.c.findJob(ctx, r.spec)
		if err != nil {
			r.em.fail(r.c, err, "finding the task's Job")
			return false
		}
		if job == nil {
			r.em.emit(wire.Status{Kind: wire.StatusEnd, Phase: "Gone",
				Message: fmt.Sprintf("no Job %s labelled %s=%s in namespace %s", r.spec.Job, wire.LabelTask, r.spec.TaskID, r.spec.Namespace)})
			return true
		}
	} else if _, err := r.c.submit(ctx, r.spec); err != nil {
		r.em.fail(r.c, err, "creating the task's Job")
		return false
	}
	return r.follow(ctx)
}

// command carries out a command of the desktop's.
func (r *run) command(ctx context.Context, cmd wire.Command) {
	switch cmd.Op {
	case "stop":
		r.mu.Lock()
		r.stopping = true
		r.mu.Unlock()
		if err := r.c.deleteJob(ctx, r.spec.Job, true); err != nil {
			r.em.emit(wire.Status{Kind: wire.StatusPhase, Phase: "Stopping", Message: err.Error()})
		}
	case "inject":
		if cmd.Inject == nil {
			return
		}
		r.mu.Lock()
		pod := r.pod
		r.mu.Unlock()
		s := wire.Status{Kind: wire.StatusInjected, ID: cmd.Inject.ID}
		if pod == "" {
			s.Message = "the pod is not running yet"
		} else {
			body, _ := json.Marshal(cmd.Inject)
			ictx, cancel := context.WithTimeout(ctx, 30*time.Second)
			if err := r.c.inject(ictx, pod, body); err != nil {
				s.Message = err.Error()
			}
			cancel()
		}
		r.em.emit(s)
	}
}
