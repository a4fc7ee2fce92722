// Package verify runs a project's verify command (its build and tests) as a
// deterministic gate: in a PTY, under the same process-tree runner as the
// agents (stop, deadline, output cap, transcript), with the worktree's
// tracked and untracked files put back afterwards, and it suggests a
// command from a repository's files.
package verify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Shell runs the verify command line.
const Shell = "/bin/sh"

// restoreTimeout bounds the git work that puts the worktree back after a
// run, even when the run's context ended.
const restoreTimeout = 2 * time.Minute

// Runner starts verify commands. It is safe for concurrent use.
type Runner struct {
	Procs *proc.Runner
	Git   *gitx.Git
	// Environ is the environment the command inherits (default os.Environ);
	// variables starting with BOOF_ or GIT_ are never passed on.
	Environ func() []string
}

// Spec is one verify run.
type Spec struct {
	// Dir is where the command runs: the task's working directory inside
	// its worktree, or a temporary worktree.
	Dir string
	// Command is the shell command line (run as /bin/sh -c Command).
	Command string
	// Env adds KEY=VALUE pairs (the step tag).
	Env []string
	// Timeout stops the command and its whole tree; zero means none.
	Timeout time.Duration
	// MaxOutput stops the command once it printed more than this; zero
	// means no cap.
	MaxOutput int64
	// Grace is the SIGTERM→SIGKILL grace of a stop.
	Grace time.Duration
	// TranscriptPath receives the raw output ("" = none).
	TranscriptPath string
	// OnOutput receives the raw output as it comes (may be nil).
	OnOutput func([]byte)
	// Base, when set, is the commit the work started from: a worktree
	// whose files equal its tree has nothing to verify, and the run is
	// skipped (task.VerifySkipped) without starting the command.
	Base string
	// Keep leaves what the command changed in the worktree (a temporary
	// worktree thrown away afterwards); by default tracked and untracked
	// files are put back to their state before the run.
	Keep bool
}

// Run is a verify command running (or a run that never started: skipped,
// or failed to start). Its methods are safe for concurrent use.
type Run struct {
	spec  Spec
	ctx   context.Context
	h     *proc.Handle
	snap  *snapshot
	tail  tail
	res   task.VerifyRun
	start time.Time
}

// Start snapshots the worktree (unless Keep and no Base), then starts the
// command in a PTY with stdin at end of file. A command that cannot start
// (no shell, the folder gone) is not an error: Wait reports it as
// task.VerifyNotStarted. The error is for a worktree that cannot be read
// (snapshot) or a bad spec.
func (r *Runner) Start(ctx context.Context, s Spec) (*Run, error) {
	cmd, err := task.CheckVerifyCommand(s.Command)
	if err != nil {
		return nil, err
	}
	run := &Run{spec: s, ctx: ctx, start: time.Now()}
	run.res = task.VerifyRun{Command: cmd, ExitCode: -1}
	if !s.Keep || s.Base != "" {
		if run.snap, err = takeSnapshot(ctx, r.Git, s.Dir, s.Base); err != nil {
			return nil, err
		}
		if s.Keep {
			run.snap.remove()
		}
	}
	if s.Base != "" {
		if run.snap.baseTree == run.snap.tree {
			run.cleanup()
			run.snap = nil
			run.res.Outcome, run.res.ExitCode = task.VerifySkipped, 0
			return run, nil
		}
	}
	spec := proc.Spec{
		Path: Shell, Args: []string{"-c", cmd}, Dir: s.Dir, Env: r.environ(s.Env), Stdin: proc.StdinNull,
		TranscriptPath: s.TranscriptPath, MaxRuntime: s.Timeout, OutputLimit: s.MaxOutput, Grace: s.Grace,
		OnChunk: func(b []byte) {
			run.tail.write(b)
			if s.OnOutput != nil {
				s.OnOutput(b)
			}
		},
	}
	run.start = time.Now()
	h, err := r.Procs.Start(ctx, spec)
	if err != nil {
		run.res.Outcome, run.res.Error = task.VerifyNotStarted, startProblem(err)
		return run, nil
	}
	run.h = h
	return run, nil
}

// startProblem says in words why the command could not start.
func startProblem(err error) string {
	switch {
	case errors.Is(err, proc.ErrRunnerClosed):
		return "the app is shutting down"
	case errors.Is(err, os.ErrNotExist):
		return "its folder or the shell " + Shell + " does not exist"
	}
	return err.Error()
}

// environ is the command's environment: the app's, without BOOF_* and
// GIT_* variables (ours, and git's that would point it elsewhere), plus extra.
func (r *Runner) environ(extra []string) []string {
	src := r.Environ
	if src == nil {
		src = os.Environ
	}
	var out []string
	for _, kv := range src() {
		if strings.HasPrefix(kv, "BOOF_") || strings.HasPrefix(kv, "GIT_") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, extra...)
}

// Pid is the command's shell, 0 when it did not start.
func (r *Run) Pid() int {
	if r.h == nil {
		return 0
	}
	return r.h.Pid()
}

// Pgid is the command's process group, 0 when it did not start.
func (r *Run) Pgid() int {
	if r.h == nil {
		return 0
	}
	return r.h.Pgid()
}

// Pids lists the live processes of the command's tree.
func (r *Run) Pids() []int {
	if r.h == nil {
		return nil
	}
	return r.h.Pids()
}

// Started reports whether a command runs (false for a skipped run or one
// that could not start).
func (r *Run) Started() bool { return r.h != nil }

// Stop ends the command's whole tree for reason (SIGTERM, grace, SIGKILL);
// it is idempotent.
func (r *Run) Stop(reason proc.Reason) {
	if r.h != nil {
		r.h.Stop(reason)
	}
}

// Wait waits for the command and its tree to end, puts the worktree back
// (unless Keep) and returns the run. The error is for a worktree that
// could not be put back; the run is returned with it.
func (r *Run) Wait() (task.VerifyRun, error) {
	res := r.res
	if r.h != nil {
		pr := r.h.Wait()
		res.DurationMs = pr.Duration.Milliseconds()
		res.ExitCode, res.Signal, res.Bytes = pr.ExitCode, pr.Signal, pr.Bytes
		res.Tail = r.tail.lines(TailLines)
		switch pr.Reason {
		case proc.ReasonNone:
			res.Outcome = task.VerifyPassed
			if pr.ExitCode != 0 || pr.Signal != "" {
				res.Outcome = task.VerifyFailed
			}
			if pr.ExitCode == 127 {
				res.Error = "the shell could not find the command (exit 127)"
			}
		case proc.ReasonTimeout:
			res.Outcome, res.Error = task.VerifyTimedOut, fmt.Sprintf("it ran longer than %s", pr.MaxRuntime)
		case proc.ReasonOutputLimit:
			res.Outcome, res.Error = task.VerifyOutputLimit, fmt.Sprintf("it printed more than %s (verify.maxOutputBytes)", sizeText(pr.OutputLimit))
		case proc.ReasonTranscript:
			res.Outcome, res.Error = task.VerifyFailed, "its output could not be written to the transcript"
		default:
			res.Outcome = task.VerifyStopped
		}
	} else if res.Outcome == task.VerifyNotStarted {
		res.DurationMs = time.Since(r.start).Milliseconds()
	}
	if r.snap == nil || r.spec.Keep {
		return res, nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.ctx), restoreTimeout)
	defer cancel()
	defer r.cleanup()
	changed, err := r.snap.restore(ctx)
	res.Restored = len(changed)
	if err != nil {
		return res, fmt.Errorf("the verify command changed the worktree and it could not be put back: %w", err)
	}
	return res, nil
}

func (r *Run) cleanup() {
	if r.snap != nil {
		r.snap.remove()
	}
}

// sizeText shows a byte count in KiB, MiB or GiB.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
