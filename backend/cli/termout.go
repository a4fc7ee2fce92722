package cli

import (
	"io"
	"sync"
	"unicode/utf8"

	"golang.org/x/term"
)

// The one output path to a terminal. Run hands every command its stdout
// and stderr through terminalSafe: a stream that is a terminal gets every
// byte escaped as safeText escapes it (escape sequences, other control
// characters, C1 controls, direction overrides and invalid UTF-8 shown as
// \x1b, \u009b, \u202e, \xff; line feeds and tabs kept), whatever the verb
// and whatever printed it: a diff, an export, a command template, a log, a
// verify command's output, an error. JSON stays JSON on a terminal (the
// encoder already escapes what is below U+0020; \u009b and \u202e are JSON
// escapes of the same characters).
//
// A stream that is not a terminal (a pipe, a file) gets the command's own
// bytes: the documents (diff, export, commands show, log, verify run's
// output) keep theirs, so `diff | git apply` and `export > FILE` give back
// exactly what is stored, while one-line fields of reports and messages
// are escaped by safeLine either way, since a line break in them would
// break the line.

// terminalSafe returns stdio with stdout and stderr escaped when they are
// terminals, and the function that writes out what a terminal stream
// still holds (the start of a character cut by the end of a write) when
// the command ends.
func terminalSafe(stdio IO) (IO, func()) {
	var flush []func()
	wrap := func(w io.Writer) io.Writer {
		if !isTerminal(w) {
			return w
		}
		tw := &termWriter{w: w}
		flush = append(flush, tw.flush)
		return tw
	}
	stdio.Stdout, stdio.Stderr = wrap(stdio.Stdout), wrap(stdio.Stderr)
	return stdio, func() {
		for _, f := range flush {
			f()
		}
	}
}

// isTerminal reports whether w is a file open on a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}

// termWriter escapes what is written to a terminal. It is safe for
// concurrent use (the runner's log lines and its logger write at once).
type termWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
	// held is the start of a UTF-8 character whose remaining bytes come
	// with the next write.
	held []byte
}

// Write escapes p and writes it; it reports all of p written unless the
// terminal refused the write.
func (t *termWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	in := append(t.held, p...)
	cut := len(in)
	for k := len(in) - 1; k >= 0 && k >= len(in)-utf8.UTFMax+1; k-- {
		if utf8.RuneStart(in[k]) {
			if !utf8.FullRune(in[k:]) {
				cut = k
			}
			break
		}
	}
	t.buf = appendEscaped(t.buf[:0], in[:cut], true)
	t.held = append([]byte(nil), in[cut:]...)
	if _, err := t.w.Write(t.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// flush writes out a character start that no write completed (escaped:
// it is not UTF-8).
func (t *termWriter) flush() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.held) > 0 {
		_, _ = t.w.Write(appendEscaped(nil, t.held, true))
		t.held = nil
	}
}
