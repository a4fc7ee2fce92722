//go:build linux

package proc

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

const benchFlood = 200 << 20

// rawPTYRead is the baseline: the same child writing into a raw PTY whose
// master is read straight into io.Discard (rawRead).
func rawPTYRead(b *testing.B, n int) time.Duration {
	return rawRead(b, n, "flood", strconv.Itoa(n))
}

// rawSessionRead is rawPTYRead with the child in its own session and the
// PTY its controlling terminal, as the runner starts it. Where the kernel
// groups each session's processes for scheduling (autogroup, on here and
// by default on desktop kernels), that alone moves the rate: with
// autogroup on, K3 read 0.70-0.76 in two runs, with it off 0.86 (the raw
// read lost 10 % and the runner nothing).
func rawSessionRead(b *testing.B, n int) time.Duration {
	return rawReadAttr(b, n, &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1}, "flood", strconv.Itoa(n))
}

// runnerRead sends the same bytes through Runner, transcript file and
// LineSplitter.
func runnerRead(b *testing.B, r *Runner, dir string, n int) time.Duration {
	s := helperSpec(b, newMark(b), "flood", strconv.Itoa(n))
	s.Dir = dir
	s.TranscriptPath = filepath.Join(dir, "t.log")
	defer os.Remove(s.TranscriptPath)
	lines := 0
	sp := NewLineSplitter(func([]byte) { lines++ })
	s.OnChunk = func(p []byte) { _, _ = sp.Write(p) }
	t0 := time.Now()
	h, err := r.Start(context.Background(), s)
	if err != nil {
		b.Fatal(err)
	}
	res := h.Wait()
	d := time.Since(t0)
	if res.Err() != nil || res.Bytes != int64(n) || res.Dropped != 0 {
		b.Fatalf("result %+v", res)
	}
	return d
}

// BenchmarkThroughput moves 200 MB through a raw PTY read, through a raw
// read of a child in its own session and through the runner in each
// iteration (the order rotating) and reports the rates, the median of the
// iterations' ratios to each raw read (the three ran back to back, so a
// slow moment of the machine moves all of them), the ratio of the totals
// and the peak RSS growth of this process during the runner part.
func BenchmarkThroughput(b *testing.B) {
	r := newRunner(b)
	dir := b.TempDir()
	var raw, session, run time.Duration
	var peakGrowth int64
	ratios := make([]float64, 0, b.N)
	sessionRatios := make([]float64, 0, b.N)
	for i := 0; i < b.N; i++ {
		var rawi, sessioni, runi time.Duration
		parts := []func(){
			func() { rawi = rawPTYRead(b, benchFlood) },
			func() { sessioni = rawSessionRead(b, benchFlood) },
			func() {
				base := vmRSS(b)
				stop := make(chan struct{})
				peak := make(chan int64)
				go func() {
					m := base
					for {
						select {
						case <-stop:
							peak <- m
							return
						case <-time.After(10 * time.Millisecond):
							if rss, err := readRSS(); err == nil { // b.Fatal belongs to the benchmark's goroutine
								m = max(m, rss)
							}
						}
					}
				}()
				runi = runnerRead(b, r, dir, benchFlood)
				close(stop)
				peakGrowth = max(peakGrowth, <-peak-base)
			},
		}
		for j := range parts {
			parts[(i+j)%len(parts)]()
		}
		raw, session, run = raw+rawi, session+sessioni, run+runi
		ratios = append(ratios, rawi.Seconds()/runi.Seconds())
		sessionRatios = append(sessionRatios, sessioni.Seconds()/runi.Seconds())
	}
	mb := float64(benchFlood) * float64(b.N) / 1e6
	b.ReportMetric(mb/raw.Seconds(), "raw-MB/s")
	b.ReportMetric(mb/session.Seconds(), "raw-session-MB/s")
	b.ReportMetric(mb/run.Seconds(), "runner-MB/s")
	b.ReportMetric(median(ratios), "ratio")
	b.ReportMetric(raw.Seconds()/run.Seconds(), "ratio-of-totals")
	b.ReportMetric(median(sessionRatios), "ratio-to-session")
	b.ReportMetric(float64(peakGrowth)/(1<<20), "peak-RSS-growth-MB")
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}

// BenchmarkStopLatency measures Stop-to-Wait for a cooperative tree (a
// shell with two children that all exit on SIGTERM) and a hostile one (a
// SIGTERM-ignoring child plus a setsid escapee) with a 1 s grace.
func BenchmarkStopLatency(b *testing.B) {
	cases := []struct {
		name  string
		spec  func(b *testing.B, mark string) Spec
		ready []string
	}{
		{"cooperative", func(b *testing.B, m string) Spec {
			s := shSpec(b, m, `sleep 1000 & sleep 1000 & echo ready; wait`)
			return s
		}, []string{"ready"}},
		{"hostile-grace-1s", func(b *testing.B, m string) Spec {
			return helperSpec(b, m, "escapee")
		}, []string{"ready", "escapee-ready"}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			r := newRunner(b)
			var total time.Duration
			for i := 0; i < b.N; i++ {
				mark := newMark(b)
				s := tc.spec(b, mark)
				s.Grace = time.Second
				x := start(b, r, s)
				x.waitFor(b, tc.ready...)
				t0 := time.Now()
				x.h.Stop(ReasonStopped)
				x.h.Wait()
				total += time.Since(t0)
				if m := marked(mark); len(m) > 0 {
					b.Fatalf("survivors %v", m)
				}
			}
			b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/stop")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkSpawnToFirstByte compares a PTY spawn through the runner with
// os/exec and a pipe, for a child that writes one byte and exits.
func BenchmarkSpawnToFirstByte(b *testing.B) {
	exe := testExe(b)
	b.Run("runner-pty", func(b *testing.B) {
		r := newRunner(b)
		dir := b.TempDir()
		var total time.Duration
		for i := 0; i < b.N; i++ {
			first := make(chan time.Time, 1)
			s := Spec{Path: exe, Dir: dir, Env: []string{helperEnv + "=first-byte"}}
			s.OnChunk = func([]byte) {
				select {
				case first <- time.Now():
				default:
				}
			}
			t0 := time.Now()
			h, err := r.Start(context.Background(), s)
			if err != nil {
				b.Fatal(err)
			}
			h.Wait()
			total += (<-first).Sub(t0)
		}
		b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/first-byte")
	})
	b.Run("os-exec-pipe", func(b *testing.B) {
		var total time.Duration
		for i := 0; i < b.N; i++ {
			c := exec.Command(exe)
			c.Env = []string{helperEnv + "=first-byte"}
			out, err := c.StdoutPipe()
			if err != nil {
				b.Fatal(err)
			}
			t0 := time.Now()
			if err := c.Start(); err != nil {
				b.Fatal(err)
			}
			var one [1]byte
			if _, err := io.ReadFull(out, one[:]); err != nil {
				b.Fatal(err)
			}
			total += time.Since(t0)
			_ = c.Wait()
		}
		b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/first-byte")
	})
}

// vmRSS reads the resident set size of this process; call it from the test's
// own goroutine (it may Fatal), else use readRSS.
func vmRSS(b testing.TB) int64 {
	rss, err := readRSS()
	if err != nil {
		b.Fatal(err)
	}
	return rss
}

// readRSS reads the resident set size of this process from /proc/self/statm.
func readRSS() (int64, error) {
	st, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, err
	}
	fields := splitFieldsB(st)
	if len(fields) < 2 {
		return 0, fmt.Errorf("statm %q: too few fields", st)
	}
	rss, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("statm rss: %w", err)
	}
	return rss * int64(os.Getpagesize()), nil
}

func splitFieldsB(b []byte) []string {
	var out []string
	start := -1
	for i, c := range b {
		if c == ' ' || c == '\n' {
			if start >= 0 {
				out = append(out, string(b[start:i]))
			}
			start = -1
		} else if start < 0 {
			start = i
		}
	}
	return out
}

// BenchmarkStepCost runs a child that exits at once (/bin/true) through a
// Runner with cgroups and one without, alternated, and reports each
// one's start-to-Wait time: the fixed cost a step pays for its tree to be
// known and torn down (with cgroups: a mkdir, clone3 into it, two reads
// of cgroup.events and an rmdir; without: a scan of every process of the
// machine at the teardown, whose count is reported too). The process is
// a subreaper only during the fallback's runs, as it would be in the app.
func BenchmarkStepCost(b *testing.B) {
	cg := NewRunner(RunnerOptions{})
	defer cg.Shutdown(time.Second)
	if !strings.HasPrefix(cg.Mechanism(), "cgroup") {
		b.Skipf("no usable cgroup v2 here: %s", cg.Mechanism())
	}
	fb := NewRunner(RunnerOptions{NoCgroup: true})
	defer fb.Shutdown(time.Second)
	b.Logf("%s against %s", cg.Mechanism(), fb.Mechanism())
	dir := b.TempDir()
	step := func(r *Runner) time.Duration {
		t0 := time.Now()
		h, err := r.Start(context.Background(), Spec{Path: "/bin/true", Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		if res := h.Wait(); res.Err() != nil {
			b.Fatalf("result %+v", res)
		}
		return time.Since(t0)
	}
	setSubreaper := func(on bool) {
		v := 0
		if on {
			v = 1
		}
		if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, uintptr(v), 0, 0, 0); err != nil {
			b.Fatal(err)
		}
	}
	var withCg, without time.Duration
	procs := 0
	for i := 0; i < b.N; i++ {
		setSubreaper(false)
		withCg += step(cg)
		setSubreaper(true)
		without += step(fb)
		names, _ := os.ReadDir("/proc")
		procs += len(names)
	}
	b.ReportMetric(float64(withCg.Microseconds())/float64(b.N)/1000, "ms/step-cgroup")
	b.ReportMetric(float64(without.Microseconds())/float64(b.N)/1000, "ms/step-scans")
	b.ReportMetric(float64(withCg)/float64(without), "ratio")
	b.ReportMetric(float64(procs)/float64(b.N), "proc-entries")
}
