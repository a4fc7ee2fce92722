package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"syscall"
	"time"

	"github.com/boof-runner/boof-runner/backend/proc"
)

// LineRunConfig configures a LineRun: one tool process under the PTY runner
// whose output is a line protocol (JSON lines) parsed by its adapter.
type LineRunConfig struct {
	// Runner starts the process.
	Runner *proc.Runner
	// Spec is the process to run; its OnChunk is set by StartLineRun.
	Spec proc.Spec
	// OnOutput receives the raw chunks first (terminal view); may be nil.
	OnOutput func([]byte)
	// OnLine receives every complete output line, in order, never
	// concurrently; it must not retain the slice.
	OnLine func(line []byte)
	// Encode turns Send's text into bytes for the child's stdin. Nil means
	// the tool takes no mid-run input (Send returns ErrNoMidRunInput).
	Encode func(text string) ([]byte, error)
	// Finish builds the Result once the process tree is gone and every line
	// has been passed to OnLine.
	Finish func(pr proc.Result) Result
	// Cleanup runs after Finish (temp files); may be nil.
	Cleanup func()
}

// LineRun is a Run backed by a proc.Handle. Adapters build their Run on it.
type LineRun struct {
	cfg   LineRunConfig
	h     *proc.Handle
	split *proc.LineSplitter

	mu         sync.Mutex
	inputDone  bool // CloseInput was asked for
	inputReady bool // h is set
	once       sync.Once
	res        Result
}

var _ Run = (*LineRun)(nil)

// NewLineRun prepares a run of cfg; call Start to start it. Adapters keep
// the pointer so their line parser can call CloseInput.
func NewLineRun(cfg LineRunConfig) *LineRun {
	return &LineRun{cfg: cfg}
}

// SetOnLine replaces cfg.OnLine; call it before Start. It lets the line
// handler refer to the run itself.
func (r *LineRun) SetOnLine(f func(line []byte)) { r.cfg.OnLine = f }

// Start starts the process. It returns an error wrapping
// proc.ErrInvalidSpec, a spawn error, or proc.ErrRunnerClosed when the
// process cannot start; the process is then not running and Cleanup has run.
func (r *LineRun) Start(ctx context.Context) error {
	cfg := r.cfg
	if cfg.Runner == nil {
		if cfg.Cleanup != nil {
			cfg.Cleanup()
		}
		return errors.New("start tool: no process runner")
	}
	onLine := cfg.OnLine
	if onLine == nil {
		onLine = func([]byte) {}
	}
	r.split = proc.NewLineSplitter(onLine)
	spec := cfg.Spec
	spec.OnChunk = func(b []byte) {
		if cfg.OnOutput != nil {
			cfg.OnOutput(b)
		}
		_, _ = r.split.Write(b)
	}
	h, err := cfg.Runner.Start(ctx, spec)
	if err != nil {
		if cfg.Cleanup != nil {
			cfg.Cleanup()
		}
		return fmt.Errorf("start %s: %w", spec.Path, err)
	}
	r.mu.Lock()
	r.h, r.inputReady = h, true
	closeNow := r.inputDone
	r.mu.Unlock()
	if closeNow {
		_ = h.CloseInput()
	}
	return nil
}

// Pid is the pid of the tool's main process.
func (r *LineRun) Pid() int { return r.h.Pid() }

// Pgid is the tool's process group.
func (r *LineRun) Pgid() int { return r.h.Pgid() }

// Pids lists the known processes of the step's tree.
func (r *LineRun) Pids() []int { return r.h.Pids() }

// Stop ends the process tree for reason; it is idempotent.
func (r *LineRun) Stop(reason proc.Reason) { r.h.Stop(reason) }

// Send writes text to the tool's stdin, encoded by the adapter. It returns
// ErrNoMidRunInput when the tool takes no input and ErrRunDone once the
// input was closed (the turn is over) or the process has ended.
func (r *LineRun) Send(text string) error {
	if r.cfg.Encode == nil {
		return ErrNoMidRunInput
	}
	b, err := r.cfg.Encode(text)
	if err != nil {
		return fmt.Errorf("encode input: %w", err)
	}
	select {
	case <-r.h.Done():
		return ErrRunDone
	default:
	}
	return r.WriteInput(b)
}

// WriteInput writes raw bytes to the tool's stdin (for example the prompt
// of a stdin protocol). It returns ErrRunDone once the input is closed.
func (r *LineRun) WriteInput(b []byte) error {
	r.mu.Lock()
	done := r.inputDone
	r.mu.Unlock()
	if done {
		return ErrRunDone
	}
	if _, err := r.h.Write(b); err != nil {
		if errors.Is(err, proc.ErrInputClosed) || errors.Is(err, syscall.EPIPE) {
			return ErrRunDone
		}
		return fmt.Errorf("write input: %w", err)
	}
	return nil
}

// CloseInput closes the tool's stdin (once its turn is over) so that it
// exits; later Sends return ErrRunDone. It is safe to call from OnLine,
// even before Start has returned.
func (r *LineRun) CloseInput() {
	r.mu.Lock()
	if r.inputDone {
		r.mu.Unlock()
		return
	}
	r.inputDone = true
	ready := r.inputReady
	r.mu.Unlock()
	if ready && r.cfg.Spec.Stdin == proc.StdinPipe {
		_ = r.h.CloseInput()
	}
}

// Wait waits for the process tree to end and returns the adapter's Result.
// It is safe to call more than once; the error is always nil because tool
// failures are in the Result.
func (r *LineRun) Wait() (Result, error) {
	r.once.Do(func() {
		pr := r.h.Wait()
		r.split.Flush()
		r.res = r.cfg.Finish(pr)
		if r.cfg.Cleanup != nil {
			r.cfg.Cleanup()
		}
	})
	return r.res, nil
}

// StopFlags maps a stop reason to the flags of IsTransientToolError:
// a stall, a deadline, or any other stop by us (request, shutdown,
// cancellation, output cap, transcript failure).
func StopFlags(reason proc.Reason) (stopped, timedOut, stalled bool) {
	switch reason {
	case proc.ReasonNone:
		return false, false, false
	case proc.ReasonStalled:
		return false, false, true
	case proc.ReasonTimeout:
		return false, true, false
	default:
		return true, false, false
	}
}

// ProcResult builds the Result fields every adapter shares from the
// process outcome and the tool's own error text ("" when it reported none).
// ErrorText falls back to the process error (exit status, stall, stop) when
// the step failed without tool text; Transient follows IsTransientToolError,
// except for a usage limit in the tool's text (DetectLimitText), which sets
// Limit and is never transient.
func ProcResult(pr proc.Result, toolError string) Result {
	res := Result{ExitCode: pr.ExitCode, Signal: pr.Signal, StopReason: pr.Reason, ErrorText: toolError}
	if err := pr.Err(); err != nil && res.ErrorText == "" {
		res.ErrorText = err.Error()
	}
	if res.Failed() {
		stopped, timedOut, stalled := StopFlags(pr.Reason)
		res.Transient = IsTransientToolError(toolError, stopped, timedOut, stalled)
		if !stopped && !timedOut && !stalled {
			if l, ok := DetectLimitText(toolError, time.Now(), time.Local); ok {
				res.Limit, res.Transient = &l, false
			}
		}
	}
	return res
}
