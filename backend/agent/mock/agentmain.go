package mock

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/task"
)

// AgentCommand is the app's hidden subcommand that runs the mock agent
// program (Main): the mock tool runs `<app binary> __mock-agent ...`.
const AgentCommand = "__mock-agent"

// Version is what `<app binary> __mock-agent --version` prints.
const Version = "mock-agent 1.0"

// stallFor bounds a stalled run in case nobody stops it.
const stallFor = time.Hour

// TransientError is the error text of a scripted transient failure.
const TransientError = "API Error: 503 Service Unavailable (mock)"

// What each retry of a [[mock-apiretry role=N]] marker reports: the tool
// retrying an API error by itself, attempt i of APIRetryMax.
const (
	APIRetryError   = "API Error: 529 Overloaded (mock)"
	APIRetryStatus  = 529
	APIRetryMax     = 10
	APIRetryDelayMs = 500
)

// What a run of a [[mock-limit role=N]] marker reports: a usage limit
// that resets LimitReset after the run.
const (
	LimitError = "You've hit your usage limit (mock)."
	LimitReset = time.Hour
	// LimitPartial is the line the developer writes before its limit.
	LimitPartial = "Partial work before the usage limit"
)

// What runs of the [[mock-turns]] and [[mock-context]] markers do.
const (
	TurnsError    = "Reached the maximum number of turns (mock)."
	TurnsCalls    = 3
	ContextTokens = 190_000
	ContextHold   = 20 * time.Second
)

// Main is the mock agent program, run as a real subprocess (the app's
// hidden `__mock-agent` subcommand). It reads the role prompt from
// --prompt-file, follows the markers in it, prints JSON lines to stdout
// and returns the exit code: 0 on success, 1 for a scripted or git failure,
// 2 for bad arguments or bad markers.
func Main(args []string, stdin io.Reader, stdout io.Writer) int {
	fs := flag.NewFlagSet(AgentCommand, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o runOpts
	role := fs.String("role", "", "pipeline role")
	fs.StringVar(&o.dir, "dir", "", "working directory")
	fs.StringVar(&o.state, "state", "", "state directory for run counters")
	promptFile := fs.String("prompt-file", "", "file holding the prompt")
	fs.StringVar(&o.model, "model", "", "model")
	fs.StringVar(&o.resume, "resume", "", "session to resume")
	fs.BoolVar(&o.input, "input", false, "read mid-run input from stdin")
	fs.BoolVar(&o.readOnly, "read-only", false, "the role may not change the worktree")
	version := fs.Bool("version", false, "print the version")
	w := &lineWriter{w: stdout}
	if err := fs.Parse(args); err != nil {
		return w.fail(2, "mock: "+err.Error())
	}
	if *version {
		fmt.Fprintln(stdout, Version)
		return 0
	}
	o.role = task.Role(*role)
	if !knownRoles[o.role] || o.dir == "" || o.state == "" || *promptFile == "" {
		return w.fail(2, "mock: need --role (a pipeline role), --dir, --state and --prompt-file")
	}
	b, err := os.ReadFile(*promptFile)
	if err != nil {
		return w.fail(2, "mock: read prompt: "+err.Error())
	}
	o.prompt = string(b)
	if err := record(o.state, Received{At: time.Now().UTC(), Role: o.role, Dir: o.dir, Model: o.model, Prompt: o.prompt}); err != nil {
		return w.fail(1, "mock: "+err.Error())
	}
	o.script, err = ParseScript(o.prompt)
	if err != nil {
		return w.fail(2, "mock: "+err.Error())
	}
	return run(o, stdin, w)
}

type runOpts struct {
	role                      task.Role
	dir, state, model, resume string
	prompt                    string
	input, readOnly           bool
	script                    Script
}

// lineWriter prints JSON lines; the input echo runs concurrently.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) print(v any) {
	b, _ := json.Marshal(v)
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.w.Write(append(b, '\n'))
}

func (l *lineWriter) event(e agent.Event) { l.print(e) }

func (l *lineWriter) fail(code int, msg string) int {
	l.print(resultLine{Kind: kindResult, IsError: true, Error: msg, Report: msg})
	return code
}

// run plays one role.
func run(o runOpts, stdin io.Reader, w *lineWriter) int {
	c := counters{dir: o.state}
	runs, err := c.next("runs-" + string(o.role))
	if err != nil {
		return w.fail(1, "mock: "+err.Error())
	}
	session := o.resume
	if session == "" {
		session = fmt.Sprintf("mock-%s-%d", o.role, runs)
	}
	delay := time.Duration(o.script.DelayMs[o.role]) * time.Millisecond
	step := func(e agent.Event) {
		w.event(e)
		time.Sleep(delay)
	}
	step(agent.Event{Kind: agent.EventSession, Text: session})
	step(agent.Event{Kind: agent.EventText, Text: fmt.Sprintf("Mock %s starting (run %d, model %q).", o.role, runs, o.model)})
	for i := 1; i <= o.script.APIRetry[o.role]; i++ {
		step(agent.Event{Kind: agent.EventRetry, Attempt: i, MaxAttempts: APIRetryMax, RetryDelayMs: APIRetryDelayMs,
			ErrorStatus: APIRetryStatus, Text: APIRetryError})
	}
	if code, done := scriptedFailure(o, c, session, runs, step, w); done {
		return code
	}
	if toks := o.script.Hostile[o.role]; len(toks) > 0 {
		return hostile(o, toks, w)
	}

	in := newInbox()
	if o.input {
		go in.read(stdin, w)
	}
	spend(o, step)
	body, err := work(o, runs, step)
	if err != nil {
		return w.fail(1, "mock: "+err.Error())
	}
	extra, leaked, err := misbehave(o, &c, step)
	if err != nil {
		return w.fail(1, "mock: "+err.Error())
	}
	body += extra
	if want := o.script.AwaitInput[o.role]; want > 0 && o.input {
		w.event(agent.Event{Kind: agent.EventText, Text: fmt.Sprintf("Waiting for %d message(s).", want)})
		in.await(want)
	}
	step(agent.Event{Kind: agent.EventText, Text: "Mock " + string(o.role) + " finished."})

	if received := in.messages(); len(received) > 0 {
		body = "## Steering received\n- " + strings.Join(received, "\n- ") + "\n\n" + body
	}
	report, err := reportTail(o, c, body, leaked, w)
	if err != nil {
		return w.fail(1, "mock: "+err.Error())
	}
	usage := agent.Usage{InputTokens: int64(len(o.prompt)/4 + 1), OutputTokens: int64(len(report)/4 + 1)}
	if o.script.NoUsage[o.role] > 0 {
		usage = agent.Usage{}
	}
	w.print(resultLine{Kind: kindResult, Session: session, Report: report, Usage: usage})
	return 0
}

// scriptedFailure plays the failure the script asks of this run, if any:
// a transient error, a used-up limit, running out of turns, a stall (the
// context filling up goes on to work). done reports that the run ended,
// with code.
func scriptedFailure(o runOpts, c counters, session string, runs int, step func(agent.Event), w *lineWriter) (code int, done bool) {
	if n, err := c.next("transient-" + string(o.role)); err != nil {
		return w.fail(1, "mock: "+err.Error()), true
	} else if n <= o.script.Transient[o.role] {
		w.print(resultLine{Kind: kindResult, Session: session, IsError: true, Error: TransientError, Report: TransientError})
		return 1, true
	}
	if n, err := c.next("limit-" + string(o.role)); err != nil {
		return w.fail(1, "mock: "+err.Error()), true
	} else if n <= o.script.Limit[o.role] {
		if o.role == task.RoleDeveloper {
			step(agent.Event{Kind: agent.EventToolCall, Tool: "write", CallID: "call-0", Text: FileName(o.dir)})
			if err := appendFile(filepath.Join(o.dir, FileName(o.dir)), fmt.Sprintf("%s (run %d).\n", LimitPartial, runs)); err != nil {
				return w.fail(1, "mock: "+err.Error()), true
			}
		}
		at := time.Now().Add(LimitReset)
		msg := fmt.Sprintf("%s It resets at %s.", LimitError, at.UTC().Format(time.RFC3339))
		w.print(resultLine{Kind: kindResult, Session: session, IsError: true, Error: msg, Report: msg, LimitResetsAt: at.Unix()})
		return 1, true
	}
	if n, err := c.next("turns-" + string(o.role)); err != nil {
		return w.fail(1, "mock: "+err.Error()), true
	} else if n <= o.script.Turns[o.role] {
		for i := 1; i <= TurnsCalls; i++ {
			step(agent.Event{Kind: agent.EventToolCall, Tool: "read", CallID: fmt.Sprintf("turn-%d", i), Text: FileName(o.dir)})
			step(agent.Event{Kind: agent.EventToolResult, CallID: fmt.Sprintf("turn-%d", i), Text: "read"})
		}
		step(agent.Event{Kind: agent.EventText, Text: fmt.Sprintf("Mock %s worked %d turns before running out.", o.role, TurnsCalls)})
		w.print(resultLine{Kind: kindResult, Session: session, IsError: true, Error: TurnsError, Report: TurnsError, Exhausted: agent.ExhaustedTurns})
		return 1, true
	}
	if n, err := c.next("context-" + string(o.role)); err != nil {
		return w.fail(1, "mock: "+err.Error()), true
	} else if n <= o.script.Context[o.role] {
		step(agent.Event{Kind: agent.EventUsage, Usage: &agent.Usage{InputTokens: ContextTokens, OutputTokens: 10}})
		step(agent.Event{Kind: agent.EventText, Text: "Mock context filling up."})
		time.Sleep(ContextHold)
	}
	if n, err := c.next("stall-" + string(o.role)); err != nil {
		return w.fail(1, "mock: "+err.Error()), true
	} else if n <= o.script.Stall[o.role] {
		w.event(agent.Event{Kind: agent.EventText, Text: "Thinking..."})
		time.Sleep(stallFor)
		return w.fail(1, "mock: stall was not stopped"), true
	}
	return 0, false
}

// reportTail ends the report: the questions the script asks for (and any
// leaked configuration), or else a reviewer's or observer's round and
// verdict.
func reportTail(o runOpts, c counters, body string, leaked []string, w *lineWriter) (string, error) {
	report := body
	if n, err := c.next("questions-" + string(o.role)); err != nil {
		return "", err
	} else if n <= o.script.Questions[o.role] {
		report += "\n\n" + agent.QuestionsHeading + "\n- Which name should the mock file have?\n- Should the leftovers be kept?\n"
		if len(leaked) > 0 {
			report += "- Is this configuration still valid?\n  " + strings.Join(leaked, "\n  ") + "\n"
		}
		for _, q := range agent.ExtractQuestions(report) {
			w.event(agent.Event{Kind: agent.EventQuestion, Text: q})
		}
	} else if o.role == task.RoleObserver || o.role == task.RoleReviewer {
		round, err := c.next("round-" + string(o.role))
		if err != nil {
			return "", err
		}
		report += fmt.Sprintf("\n\nRound %d.\n\n", round) + verdictTail(o.script.Verdict(o.role, round))
	}
	return report, nil
}

// inbox holds the messages received on stdin while the role runs.
type inbox struct {
	mu       sync.Mutex
	received []string
	got      chan struct{}
	closed   chan struct{}
}

func newInbox() *inbox {
	return &inbox{got: make(chan struct{}, 1), closed: make(chan struct{})}
}

// read takes input lines (JSON or plain text) until stdin closes, echoing
// each as an event.
func (in *inbox) read(stdin io.Reader, w *lineWriter) {
	defer close(in.closed)
	sc := bufio.NewScanner(stdin)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var l inputLine
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			l.Text = sc.Text()
		}
		// The event is written before the message counts as received,
		// so the result line can never come before it.
		w.event(agent.Event{Kind: agent.EventText, Text: "received: " + l.Text})
		in.mu.Lock()
		in.received = append(in.received, l.Text)
		in.mu.Unlock()
		select {
		case in.got <- struct{}{}:
		default:
		}
	}
}

// messages returns the messages received so far.
func (in *inbox) messages() []string {
	in.mu.Lock()
	defer in.mu.Unlock()
	return slices.Clone(in.received)
}

// await waits until want messages were received, the input is closed, or
// stallFor passed.
func (in *inbox) await(want int) {
	deadline := time.NewTimer(stallFor)
	defer deadline.Stop()
	for len(in.messages()) < want {
		select {
		case <-in.got:
		case <-in.closed:
			return
		case <-deadline.C:
			return
		}
	}
}
