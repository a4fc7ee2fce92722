// Package clitest holds the test helpers of the adapters of the
// OpenAI-compatible agent CLIs (opencode, Qwen Code): a process runner,
// an event recorder, scripts standing in for a CLI, a git repository, a
// directory's state and the processes left in one. Tests only.
package clitest

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// Runner returns a process runner shut down when the test ends.
func Runner(t testing.TB) *proc.Runner {
	t.Helper()
	r := proc.NewRunner(proc.RunnerOptions{})
	t.Cleanup(func() { r.Shutdown(5 * time.Second) })
	return r
}

// Recorder keeps a step's events and raw output: its Event and Chunk are
// a request's OnEvent and OnOutput.
type Recorder struct {
	mu     sync.Mutex
	Events []agent.Event
	Output []byte
}

// Event keeps one event.
func (r *Recorder) Event(e agent.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Events = append(r.Events, e)
}

// Chunk keeps raw output.
func (r *Recorder) Chunk(b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Output = append(r.Output, b...)
}

// Kinds renders the events kept as Kinds does.
func (r *Recorder) Kinds() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return Kinds(r.Events)
}

// Script writes an executable shell script named name holding body.
func Script(t testing.TB, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// GitRepo makes a git repository with one commit in a temp dir.
func GitRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "init"},
	} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return dir
}

// TreeState describes every entry under dir (path, type, mode, size,
// content hash, link target), to prove a directory untouched; "" when dir
// does not exist.
func TreeState(t testing.TB, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(&b, "%s %v %d %d", rel, st.Mode(), st.Size(), st.ModTime().UnixNano())
		switch {
		case st.Mode()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			fmt.Fprintf(&b, " -> %s", l)
		case st.Mode().IsRegular():
			c, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %x", sha256.Sum256(c))
		}
		b.WriteByte('\n')
		return nil
	})
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// InDir lists the live (non-zombie) processes whose working directory is
// dir or below it, by scanning /proc.
func InDir(dir string) []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		cwd = strings.TrimSuffix(cwd, " (deleted)")
		if err != nil || (cwd != dir && !strings.HasPrefix(cwd, dir+"/")) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i:]), ") Z") {
			continue
		}
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out = append(out, e.Name()+":"+strings.ReplaceAll(string(cmd), "\x00", " "))
	}
	return out
}

// NoEnv is a LookupEnv that finds nothing: the tests' tools see only the
// environment they are given.
func NoEnv(string) (string, bool) { return "", false }

// Kinds renders events as "kind[:tool]" joined by commas.
func Kinds(evs []agent.Event) string {
	var out []string
	for _, e := range evs {
		k := string(e.Kind)
		if e.Tool != "" {
			k += ":" + e.Tool
		}
		out = append(out, k)
	}
	return strings.Join(out, ",")
}

// RunStep starts a step of c and waits for it, failing the test when it cannot start.
func RunStep(t *testing.T, c agent.Tool, req agent.Request) (agent.Result, *Recorder) {
	t.Helper()
	rec := &Recorder{}
	req.OnEvent, req.OnOutput = rec.Event, rec.Chunk
	if req.Dir == "" {
		req.Dir = t.TempDir()
	}
	if req.Prompt == "" {
		req.Prompt = "Do it."
	}
	if req.Grace == 0 {
		req.Grace = time.Second
	}
	run, err := c.Start(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	res, err := run.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return res, rec
}

// ChatRequests returns the chat requests the fake received, parsed.
func ChatRequests(t *testing.T, srv *fakemodel.Server) []fakemodel.ChatRequest {
	t.Helper()
	var out []fakemodel.ChatRequest
	for _, r := range srv.ModelRequests(fakemodel.ChatPath) {
		cr, err := fakemodel.ParseChat(r.Body)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, cr)
	}
	return out
}

// RealBin returns the real CLI named in the variable env. It skips the
// test when env is unset (fails it when CI=true) and fails it when the CLI
// does not print a version of series ("1.18") within timeout.
func RealBin(t testing.TB, env, name, series string, timeout time.Duration) string {
	t.Helper()
	bin := os.Getenv(env)
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set (CI=true: the real %s CLI suite must run)", env, name)
		}
		t.Skipf("%s not set: skipping the real %s CLI suite", env, name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), series+".") {
		t.Fatalf("%s=%s is not a working %s %s: %v %q", env, bin, name, series, err, out)
	}
	return bin
}

// BadCLI is a bad input of a CLI: the script standing in for it (Body),
// the step's request, and how the step must end: failed with Want in its
// error text, with Reason and Transient, and no limit.
type BadCLI struct {
	Name, Body string
	Req        agent.Request
	Reason     proc.Reason
	Transient  bool
	Want       string
}

// hangs is the bad CLI every adapter meets alike: one that hangs before its
// first line is stalled by the idle watchdog, a transient failure.
var hangs = BadCLI{Name: "hangs before its first line", Body: `exec sleep 600`, Req: agent.Request{IdleTimeout: 2 * time.Second},
	Reason: proc.ReasonStalled, Transient: true, Want: "no output"}

// CheckBadCLIs runs each case, then one that hangs before its first line,
// as a subtest on the tool made from its body, in a directory of its own,
// and fails it unless the step ends as the case says, without a hang,
// leaving no process behind.
func CheckBadCLIs(t *testing.T, tool func(t *testing.T, body string) agent.Tool, cases []BadCLI) {
	t.Helper()
	for _, tc := range slices.Concat(cases, []BadCLI{hangs}) {
		t.Run(tc.Name, func(t *testing.T) {
			c := tool(t, tc.Body)
			dir := t.TempDir()
			tc.Req.Dir = dir
			res, rec := RunStep(t, c, tc.Req)
			if !res.Failed() || res.StopReason != tc.Reason || res.Transient != tc.Transient || res.Limit != nil ||
				!strings.Contains(res.ErrorText, tc.Want) {
				t.Fatalf("result %+v\nevents %s", res, rec.Kinds())
			}
			if left := InDir(dir); len(left) != 0 {
				t.Fatalf("processes survived: %v", left)
			}
		})
	}
}
