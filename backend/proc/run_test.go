//go:build linux

package proc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestRawOutputAndExit(t *testing.T) {
	cases := []struct {
		name   string
		script string
		out    string
		code   int
		signal string
	}{
		{"newlines-untranslated", `printf 'a\nb\n'`, "a\nb\n", 0, ""},
		{"stderr-on-pty", `echo err >&2; exit 3`, "err\n", 3, ""},
		{"killed-by-signal", `echo x; kill -9 $$`, "x\n", -1, "killed"},
		{"window-size-and-ctty", `stty size </dev/tty`, "50 200\n", 0, ""},
		{"stdin-is-null", `cat; echo done`, "done\n", 0, ""},
		{"no-echo-no-canon", `stty -a </dev/tty | grep -o -- '-icanon' ; stty -a </dev/tty | grep -o -- '-echo ' ; stty -a </dev/tty | grep -o -- '-opost'`, "-icanon\n-echo \n-opost\n", 0, ""},
	}
	r := newRunner(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x := start(t, r, shSpec(t, newMark(t), tc.script))
			res := wait(t, x.h)
			if got := x.output(); got != tc.out {
				t.Errorf("output %q, want %q", got, tc.out)
			}
			if res.ExitCode != tc.code || res.Signal != tc.signal || res.Reason != ReasonNone {
				t.Errorf("result %+v", res)
			}
			if res.Bytes != int64(len(tc.out)) {
				t.Errorf("bytes %d, want %d", res.Bytes, len(tc.out))
			}
			var ee *ExitError
			switch {
			case tc.code == 0 && tc.signal == "":
				if res.Err() != nil {
					t.Errorf("err %v", res.Err())
				}
			case !errors.As(res.Err(), &ee) || ee.Code != tc.code || ee.Signal != tc.signal:
				t.Errorf("err %v", res.Err())
			}
		})
	}
}

func TestEnvironmentIsExplicit(t *testing.T) {
	t.Setenv("BOOF_SHOULD_NOT_LEAK", "1")
	r := NewRunner(RunnerOptions{BaseEnv: []string{"PATH=/usr/bin:/bin", "HOME=/nonexistent", "TERM=xterm-256color", "LANG=C.UTF-8"}})
	defer r.Shutdown(time.Second)
	mark := newMark(t)
	s := helperSpec(t, mark, "env")
	s.Env = append(s.Env, "HOME=/custom", "FOO=bar", TagEnv+"=forged")
	x := start(t, r, s)
	if res := wait(t, x.h); res.Err() != nil {
		t.Fatalf("err %v, output %q", res.Err(), x.output())
	}
	want := []string{
		helperEnv + "=env", "FOO=bar", "HOME=/custom", "LANG=C.UTF-8", mark,
		"PATH=/usr/bin:/bin", TagEnv + "=" + x.h.Tag(), "TERM=xterm-256color",
	}
	got := strings.Split(strings.TrimSpace(x.output()), "\n")
	if strings.Join(got, " ") != strings.Join(sortedCopy(want), " ") {
		t.Fatalf("env\n got %q\nwant %q", got, sortedCopy(want))
	}
}

func TestPathLookupUsesChildPath(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "my-tool")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho tool-ran\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := newRunner(t)
	s := Spec{Path: "my-tool", Dir: t.TempDir(), Env: []string{"PATH=" + dir + ":/usr/bin:/bin"}}
	x := start(t, r, s)
	if res := wait(t, x.h); res.Err() != nil || x.output() != "tool-ran\n" {
		t.Fatalf("result %+v output %q", res, x.output())
	}
}

func TestBadSpecChangesNothing(t *testing.T) {
	r := newRunner(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		spec Spec
		want error
	}{
		{"empty-path", Spec{Dir: dir}, ErrInvalidSpec},
		{"empty-dir", Spec{Path: "/bin/true"}, ErrInvalidSpec},
		{"dir-is-file", Spec{Path: "/bin/true", Dir: file}, ErrInvalidSpec},
		{"missing-dir", Spec{Path: "/bin/true", Dir: filepath.Join(dir, "nope")}, os.ErrNotExist},
		{"bad-stdin", Spec{Path: "/bin/true", Dir: dir, Stdin: 7}, ErrInvalidSpec},
		{"negative-limit", Spec{Path: "/bin/true", Dir: dir, OutputLimit: -1}, ErrInvalidSpec},
		{"bad-env", Spec{Path: "/bin/true", Dir: dir, Env: []string{"NOEQUALS"}}, ErrInvalidSpec},
		{"not-found", Spec{Path: "no-such-tool-xyz", Dir: dir}, nil},
		{"not-executable", Spec{Path: file, Dir: dir}, os.ErrPermission},
		{"transcript-unwritable", Spec{Path: "/bin/true", Dir: dir, TranscriptPath: filepath.Join(file, "t.log")}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := os.ReadDir(dir)
			h, err := r.Start(context.Background(), tc.spec)
			if err == nil {
				h.Stop(ReasonStopped)
				h.Wait()
				t.Fatal("Start succeeded")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
			after, _ := os.ReadDir(dir)
			if len(before) != len(after) {
				t.Fatalf("directory changed: %v -> %v", before, after)
			}
			if r.Live() != 0 {
				t.Fatal("handle registered")
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Start(ctx, Spec{Path: "/bin/true", Dir: dir}); !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled ctx: %v", err)
	}
}

func TestOutputByteExact(t *testing.T) {
	cases := []struct {
		name, role string
		args       []string
		lines      []string
	}{
		{"10MB-single-line", "bigline", []string{"10485760"}, []string{strings.Repeat("a", 10<<20), `{"ok":true}`}},
	}
	// The backlog holds the whole output: this test is about the bytes,
	// not about how fast this consumer keeps up (a slow one drops for
	// itself only, TestSlowConsumerNeverBlocksChild), which on a loaded machine under
	// -race it may not.
	r := NewRunner(RunnerOptions{MaxBacklog: 32 << 20})
	t.Cleanup(func() { r.Shutdown(time.Second) })
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.log")
			s := helperSpec(t, newMark(t), tc.role, tc.args...)
			s.TranscriptPath = path
			var lines []string
			sp := NewLineSplitter(func(l []byte) { lines = append(lines, string(l)) })
			s.OnChunk = func(b []byte) { _, _ = sp.Write(b) }
			h, err := r.Start(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			res := wait(t, h)
			sp.Flush()
			if res.Err() != nil || res.Dropped != 0 {
				t.Fatalf("result %+v", res)
			}
			if len(lines) != len(tc.lines) {
				t.Fatalf("%d lines, want %d", len(lines), len(tc.lines))
			}
			for i := range lines {
				if lines[i] != tc.lines[i] {
					t.Fatalf("line %d differs (len %d vs %d)", i, len(lines[i]), len(tc.lines[i]))
				}
			}
			b, _ := os.ReadFile(path)
			if want := strings.Join(tc.lines, "\n") + "\n"; string(b) != want {
				t.Fatalf("transcript len %d, want %d", len(b), len(want))
			}
		})
	}
}

func TestInvalidUTF8KeptRaw(t *testing.T) {
	r := newRunner(t)
	path := filepath.Join(t.TempDir(), "t.log")
	s := shSpec(t, newMark(t), `printf 'ok \377\376 abc \303\n{"a":1}\n'`)
	s.TranscriptPath = path
	x := start(t, r, s)
	wait(t, x.h)
	want := "ok \xff\xfe abc \xc3\n{\"a\":1}\n"
	if b, _ := os.ReadFile(path); string(b) != want {
		t.Fatalf("transcript %q", b)
	}
	var lines [][]byte
	sp := NewLineSplitter(func(l []byte) { lines = append(lines, bytes.Clone(l)) })
	_, _ = sp.Write([]byte(x.output()))
	if len(lines) != 2 || string(lines[0]) != "ok \xff\xfe abc \xc3" {
		t.Fatalf("lines %q", lines)
	}
	if got := ForDisplay(lines[0]); got != "ok \uFFFD abc \uFFFD" {
		t.Fatalf("display %q", got)
	}
}

func TestSlowConsumerNeverBlocksChild(t *testing.T) {
	r := NewRunner(RunnerOptions{MaxBacklog: 64 << 10})
	defer r.Shutdown(time.Second)
	path := filepath.Join(t.TempDir(), "t.log")
	s := helperSpec(t, newMark(t), "flood", "4000000")
	s.TranscriptPath = path
	release := make(chan struct{})
	var mu sync.Mutex
	got := 0
	s.OnChunk = func(b []byte) {
		<-release // the consumer is stuck until the child is done
		mu.Lock()
		got += len(b)
		mu.Unlock()
	}
	h, err := r.Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	// The child finishes although the consumer has not returned once.
	exited := make(chan struct{})
	go func() {
		for {
			if p, ok := readStat(h.Pid()); !ok || p.zombie {
				close(exited)
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	select {
	case <-exited:
	case <-time.After(safety):
		t.Fatal("child blocked by slow consumer")
	}
	close(release)
	res := wait(t, h)
	st, _ := os.Stat(path)
	if res.Bytes != 4000000 || st.Size() != 4000000 {
		t.Fatalf("bytes %d transcript %d", res.Bytes, st.Size())
	}
	mu.Lock()
	defer mu.Unlock()
	if res.Dropped == 0 || int64(got)+res.Dropped != res.Bytes {
		t.Fatalf("consumer got %d, dropped %d, of %d", got, res.Dropped, res.Bytes)
	}
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if c[j] < c[i] {
				c[i], c[j] = c[j], c[i]
			}
		}
	}
	return c
}
