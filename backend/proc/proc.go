// Package proc runs agent commands inside pseudo-terminals and guarantees
// that everything they start is torn down again.
//
// A Runner owns every live Handle. Each child gets a fresh PTY in raw mode,
// its own session and process group, an explicit environment and working
// directory. Output is copied to an append-only transcript file and handed,
// coalesced, to a consumer callback. Stopping a handle (by request, by a
// watchdog, by context cancellation or by Runner.Shutdown) terminates the
// whole process tree, including processes that left the group with setsid,
// cleared their environment, moved elsewhere or double-forked.
//
// How a tree is known (Runner.Mechanism says which one a Runner uses):
//
//   - cgroup v2, where this process may create cgroups below its own (root,
//     or a systemd-delegated subtree): each child is started inside a cgroup
//     of its own (clone3 with CLONE_INTO_CGROUP, so not even its first fork
//     happens outside), under <own cgroup>/boof-runner-<scope>/<pid>.<start>.<id>/.
//     Nothing a descendant does takes it out. A stop signals the members,
//     then writes cgroup.kill after the grace, and removes the cgroup;
//     nothing scans /proc. The cgroups outlive a crash of the app, and
//     KillStaleCgroups, at the next start's recovery, ends what is in them.
//   - Otherwise (NoCgroup, NoCgroupEnv=1, no writable cgroup v2 tree, a
//     kernel before 5.14): the Runner is a child subreaper, so every process
//     a tree starts stays a descendant of the app and an orphan comes to it,
//     and a tree is found by scanning /proc: the child's descendants, its
//     session and group, snapshots of earlier members, orphans carrying the
//     child's TagEnv, and escapees (see escapees.go): an untagged orphan in
//     a session of its own counts in a tree when only one live child could
//     have started it; with several it waits for the last of them, and
//     Shutdown ends whatever is left. A crash of the app hands the orphans
//     to init: a later recovery finds them by the step tag in their
//     environment and by the pids last recorded, so one that dropped its tags
//     and left its tree since the last record is not found.
package proc

import "time"

// StdinMode says what the child's standard input is.
type StdinMode int

const (
	// StdinNull makes stdin read EOF at once (/dev/null); stdout and stderr are the PTY.
	StdinNull StdinMode = iota
	// StdinPipe makes stdin a pipe: Handle.Write writes to it, Handle.CloseInput sends EOF.
	StdinPipe
	// StdinPTY makes stdin the PTY itself (raw mode): Handle.Write writes to the PTY master.
	StdinPTY
)

// String names the mode.
func (m StdinMode) String() string {
	switch m {
	case StdinNull:
		return "null"
	case StdinPipe:
		return "pipe"
	case StdinPTY:
		return "pty"
	}
	return "invalid"
}

// Defaults applied by Runner.Start to zero fields of a Spec.
const (
	DefaultCols  = 200
	DefaultRows  = 50
	DefaultGrace = 5 * time.Second
)

// TagEnv is the environment variable Start adds to every child. Its value is
// unique per handle; descendants inherit it, which lets the Runner attribute
// re-parented orphans (double-forked daemons) to the handle that spawned them.
const TagEnv = "BOOF_PROC_TAG"

// Spec describes one command to run.
type Spec struct {
	// Path is the executable: absolute, relative to Dir when it contains a
	// slash, or looked up in the PATH of the effective environment.
	Path string
	// Args are the arguments, not including Path.
	Args []string
	// Dir is the working directory. It is required.
	Dir string
	// Env is the explicit environment as "K=V". Start adds only a minimal
	// base (PATH, HOME, TERM=xterm-256color, LANG=C.UTF-8) for keys not set,
	// plus TagEnv; nothing else is inherited from the app.
	Env []string
	// Cols and Rows give the window size; zero means 200x50.
	Cols, Rows uint16
	// Stdin says what the child's standard input is.
	Stdin StdinMode
	// TranscriptPath receives the raw output bytes, appended (file mode
	// 0600). Missing directories are created with mode 0700. Bytes reach
	// the file at most 50 ms after they were read, so a crash of the app
	// loses at most that much; with RunnerOptions.Filter, an incomplete
	// last line may wait up to 500 ms more. Empty means no transcript.
	TranscriptPath string
	// IdleTimeout stops the child with ReasonStalled when it produces no
	// output for this long. Zero disables the watchdog.
	IdleTimeout time.Duration
	// MaxRuntime stops the child with ReasonTimeout after this long. Zero
	// disables the deadline.
	MaxRuntime time.Duration
	// OutputLimit stops the child with ReasonOutputLimit once it has written
	// more than this many bytes; the transcript then holds exactly the first
	// OutputLimit bytes followed by a marker line. Zero means no limit.
	OutputLimit int64
	// Grace is the time between SIGTERM and SIGKILL; zero means 5 s.
	Grace time.Duration
	// OnChunk receives coalesced raw output, from a single goroutine, in
	// order. It must not retain the slice. A slow OnChunk never blocks the
	// child or the transcript: bytes pile up in a bounded backlog and, when
	// that is full, are dropped for the consumer only (see Result.Dropped).
	// Handle.Wait returns only after the last OnChunk call has returned, so
	// OnChunk must not call Wait itself.
	OnChunk func(chunk []byte)
}

// Reason says why the runner stopped a child.
type Reason int

const (
	// ReasonNone means the child ended on its own.
	ReasonNone Reason = iota
	// ReasonStopped means Handle.Stop was called.
	ReasonStopped
	// ReasonStalled means the idle watchdog fired.
	ReasonStalled
	// ReasonTimeout means MaxRuntime elapsed.
	ReasonTimeout
	// ReasonOutputLimit means the child wrote more than OutputLimit bytes.
	ReasonOutputLimit
	// ReasonShutdown means Runner.Shutdown stopped it.
	ReasonShutdown
	// ReasonCanceled means the context passed to Start was canceled.
	ReasonCanceled
	// ReasonTranscript means the transcript could not be written, so the
	// child was stopped rather than lose its output.
	ReasonTranscript
)

// String names the reason.
func (r Reason) String() string {
	switch r {
	case ReasonNone:
		return "none"
	case ReasonStopped:
		return "stopped"
	case ReasonStalled:
		return "stalled"
	case ReasonTimeout:
		return "timeout"
	case ReasonOutputLimit:
		return "output-limit"
	case ReasonShutdown:
		return "shutdown"
	case ReasonCanceled:
		return "canceled"
	case ReasonTranscript:
		return "transcript"
	}
	return "invalid"
}

// NoCgroupEnv, set to 1 in the app's environment, makes every Runner track
// process trees without cgroups (the subreaper and /proc scans) even where
// a cgroup v2 tree is writable: a way out on a system where they
// misbehave, and how a test forces the fallback through the runner process.
const NoCgroupEnv = "BOOF_PROC_NO_CGROUP"

// killPhaseLimit bounds how long we keep sending SIGKILL to a tree that
// does not go away (processes stuck in uninterruptible sleep).
const killPhaseLimit = 5 * time.Second

// maxPoll is the longest pause between two scans while a tree is dying.
const maxPoll = 20 * time.Millisecond
