//go:build k8s && linux

package k8stest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

// proc is one process of the control plane, its output in a log file.
type proc struct {
	name string
	args []string
	log  string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// start starts p; it dies with the test process (Pdeathsig) and in a
// process group of its own.
func (p *proc) start() error {
	f, err := os.OpenFile(p.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(p.args[0], p.args[1:]...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		f.Close()
		return fmt.Errorf("start %s: %w", p.name, err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		f.Close()
		close(done)
	}()
	p.mu.Lock()
	p.cmd, p.done = cmd, done
	p.mu.Unlock()
	return nil
}

// stop ends p's process group (SIGTERM, SIGKILL after grace) and waits.
func (p *proc) stop(grace time.Duration) {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(grace):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}

// exited reports whether p ended, and its log's tail.
func (p *proc) exited() (bool, string) {
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	select {
	case <-done:
		return true, tail(p.log, 2000)
	default:
		return false, ""
	}
}

func tail(path string, n int) string {
	b, _ := os.ReadFile(path)
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return strings.TrimSpace(string(b))
}

// waitFor calls ok every 200 ms until it returns true, a process of ps
// exits (its log's tail is the error) or ctx ends.
func waitFor(ctx context.Context, what string, ok func() bool, ps ...*proc) error {
	for {
		if ok() {
			return nil
		}
		for _, p := range ps {
			if gone, log := p.exited(); gone {
				return fmt.Errorf("%s exited while waiting for %s:\n%s", p.name, what, log)
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Versions of the test control plane: scripts/k8s-testbin.sh names its
// cache folder <go>-<k8s>-<kwok> with them.
const (
	k8sVersion  = "v1.34.4"
	kwokVersion = "v0.8.0"
)

// binaries are the test control plane's binaries.
var binaries = []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok"}

// BinEnv names the folder holding the test control plane's binaries.
const BinEnv = "BOOF_K8S_BIN"

// BinDir returns the folder holding the test control plane: $BOOF_K8S_BIN,
// else scripts/k8s-testbin.sh's cache for this Go version. The error says
// what is missing and how to build it.
func BinDir() (string, error) {
	dir := os.Getenv(BinEnv)
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("%s is not set and there is no home folder to find scripts/k8s-testbin.sh's cache in", BinEnv)
		}
		dir = filepath.Join(home, ".cache", "boof-runner", "k8s-testbin", runtime.Version()+"-"+k8sVersion+"-"+kwokVersion)
	}
	for _, name := range binaries {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return "", fmt.Errorf("the test control plane is not built: %s has no %s (scripts/k8s-testbin.sh builds it once, about 20 minutes on 2 idle cores; make test-k8s runs it)", dir, name)
		}
	}
	return dir, nil
}

// bin is a binary of the test control plane.
func bin(name string) (string, error) {
	dir, err := BinDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}
