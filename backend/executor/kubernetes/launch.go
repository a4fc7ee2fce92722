package kubernetes

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/boof-runner/boof-runner/backend/executor/wire"
)

// remoteProc is one exec-remote process: the cluster side of one task's
// run. Its stdin takes the spec and the commands, its stdout gives the
// statuses; closing its stdin (or ctx ending) ends it and leaves the Job.
type remoteProc struct {
	cmd      *exec.Cmd
	mu       sync.Mutex
	stdin    io.WriteCloser
	statuses chan wire.Status
	stderr   *tailBuffer
	waited   sync.Once
	waitErr  error
}

// ErrNoKubeBin is returned when the exec-remote binary cannot be found.
var ErrNoKubeBin = errors.New(KubeBinName + " not found")

// kubeBin finds the exec-remote binary.
func (p *Pipeline) kubeBin() (string, error) {
	if p.o.KubeBin != "" {
		return p.o.KubeBin, nil
	}
	if b := os.Getenv(KubeBinEnv); b != "" {
		return b, nil
	}
	if exe, err := os.Executable(); err == nil {
		b := filepath.Join(filepath.Dir(exe), KubeBinName)
		if _, err := os.Stat(b); err == nil {
			return b, nil
		}
	}
	if b, err := exec.LookPath(KubeBinName); err == nil {
		return b, nil
	}
	return "", fmt.Errorf("%w beside %s or on PATH", ErrNoKubeBin, os.Args[0])
}

// launch starts exec-remote for spec.
func (p *Pipeline) launch(ctx context.Context, spec wire.Spec) (*remoteProc, error) {
	bin, err := p.kubeBin()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, "exec-remote")
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	rp := &remoteProc{cmd: cmd, stdin: stdin, statuses: make(chan wire.Status, 64), stderr: &tailBuffer{max: 4096}}
	cmd.Stderr = rp.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	go rp.read(stdout)
	if err := rp.send(spec); err != nil {
		_ = stdin.Close()
		_ = cmd.Wait()
		return nil, err
	}
	return rp, nil
}

// read turns stdout's lines into statuses; it closes statuses at EOF.
func (rp *remoteProc) read(r io.Reader) {
	defer close(rp.statuses)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 2*wire.MaxLine)
	for sc.Scan() {
		var s wire.Status
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			s = wire.Status{Kind: wire.StatusError, Class: wire.ErrorOther, Message: "exec-remote printed a line that is not a status: " + clip(sc.Text(), 200)}
		}
		rp.statuses <- s
	}
	if err := sc.Err(); err != nil {
		rp.statuses <- wire.Status{Kind: wire.StatusError, Class: wire.ErrorOther, Message: "reading exec-remote: " + err.Error()}
	}
}

// send writes one JSON line to exec-remote's stdin.
func (rp *remoteProc) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if _, err := rp.stdin.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write to exec-remote: %w", err)
	}
	return nil
}

// wait closes stdin (exec-remote then ends, leaving the Job) and waits;
// calling it again returns the same.
func (rp *remoteProc) wait() error {
	rp.waited.Do(func() {
		rp.mu.Lock()
		_ = rp.stdin.Close()
		rp.mu.Unlock()
		for range rp.statuses {
		}
		rp.waitErr = rp.cmd.Wait()
	})
	return rp.waitErr
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.b))
}

// clip shortens s to about n bytes without splitting a character.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
