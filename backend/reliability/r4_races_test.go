//go:build linux && reliability

package reliability

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// R4 races writers on one data root: claimers in several processes for the
// same queue (as several runners on a shared data root would, were the
// lock bypassed), and, while a real runner runs tasks, the CLI's writers
// (add, settings set, inject, stop) and the window's settings saves. It
// counts double claims, lost writes and lock errors surfaced to a caller.

// claimHelperEnv makes the test binary a claimer (TestR4ClaimHelper).
const claimHelperEnv = "BOOF_R4_CLAIM_DB"

// TestR4ClaimHelper is not a test: run by TestR4Races as a helper process,
// it claims tasks from the database named by BOOF_R4_CLAIM_DB with 4
// goroutines until the queue is empty, printing "claimed <id>" for each
// claim won and "error <text>" for any error but a lost claim.
func TestR4ClaimHelper(t *testing.T) {
	path := os.Getenv(claimHelperEnv)
	if path == "" {
		t.Skip("helper process only")
	}
	st, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		fmt.Printf("error %v\n", err)
		return
	}
	defer st.Close()
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			for {
				tk, err := st.NextPending(ctx)
				if errors.Is(err, store.ErrNotFound) {
					return
				}
				line := ""
				if err != nil {
					line = "error " + err.Error()
				} else if _, err := st.Claim(ctx, tk.ID, store.ClaimInfo{Runner: fmt.Sprint(os.Getpid()), Role: task.RolePlanner, Iteration: 1, Attempt: 1}); err == nil {
					line = "claimed " + tk.ID
				} else if !errors.Is(err, store.ErrClaimConflict) {
					line = "error " + err.Error()
				}
				if line != "" {
					mu.Lock()
					fmt.Fprintln(out, line)
					mu.Unlock()
				}
				if strings.HasPrefix(line, "error") {
					return
				}
			}
		}()
	}
	wg.Wait()
}

// biClaimRace creates n pending tasks and races procs claimer processes (4
// goroutines each) for them. It returns the double claims, the tasks never
// claimed, and the errors the claimers saw.
func biClaimRace(t *testing.T, n, procs int) (doubles, unclaimed, lockErrs int, notes []string) {
	dir := t.TempDir()
	path := filepath.Join(dir, "boof-runner.db")
	st, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := range n {
		if _, err := st.CreateTask(context.Background(), task.NewTask{Prompt: fmt.Sprintf("task %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	outs := make([][]byte, procs)
	var wg sync.WaitGroup
	for i := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestR4ClaimHelper$", "-test.count=1")
			cmd.Env = append(os.Environ(), claimHelperEnv+"="+path, "BOOF_RELIABILITY_OUT=", "BOOF_RELIABILITY_TABLE=")
			outs[i], _ = cmd.Output()
		}()
	}
	wg.Wait()
	won := map[string]int{}
	for _, out := range outs {
		for _, line := range strings.Split(string(out), "\n") {
			switch {
			case strings.HasPrefix(line, "claimed "):
				won[strings.TrimPrefix(line, "claimed ")]++
			case strings.HasPrefix(line, "error "):
				lockErrs++
				notes = append(notes, line)
			}
		}
	}
	all, err := st.ListTasks(context.Background(), store.Filter{Limit: n + 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range all {
		ex, _ := st.Executions(context.Background(), tk.ID)
		switch {
		case won[tk.ID] > 1 || len(ex) > 1:
			doubles++
			notes = append(notes, fmt.Sprintf("task %s claimed %d times, %d executions", tk.ID, won[tk.ID], len(ex)))
		case won[tk.ID] == 0 || tk.Status != task.StatusOngoing || len(ex) != 1:
			unclaimed++
			notes = append(notes, fmt.Sprintf("task %s: claimed %d times, status %s, %d executions", tk.ID, won[tk.ID], tk.Status, len(ex)))
		}
	}
	return doubles, unclaimed, lockErrs, notes
}

// biWritersDuringRun runs a headless runner on a repository with a slow task
// and, meanwhile, adds adds, 12 settings sets of different keys, saves
// settings as the window does, injects injects prompts and stops the slow
// task. It returns the lost writes and the lock errors surfaced.
func biWritersDuringRun(t *testing.T, bin string, adds, injects int) (lost, lockErrs, failed int, notes []string) {
	e := biNewEnv(t, bin)
	e.withRepo(map[string]any{"runner": map[string]any{"concurrency": 2}})
	slow := biExec(t, bin, biCall{args: []string{"add", "Slow work.\n[[mock-delay planner=300 refinement=300 developer=300 reviewer=300]]", "--data-dir", e.dir}})
	slowID := strings.TrimSpace(slow.stdout)
	runner := exec.Command(bin, "runner", "--data-dir", e.dir)
	runner.Env = append(os.Environ(), "BOOF_RUNNER_HOME=")
	var runOut bytes.Buffer
	runner.Stdout, runner.Stderr = &runOut, &runOut
	if err := runner.Start(); err != nil {
		t.Fatal(err)
	}
	runDone := make(chan struct{})
	go func() { runner.Wait(); close(runDone) }()
	defer func() {
		runner.Process.Signal(syscall.SIGTERM)
		select {
		case <-runDone:
		case <-time.After(60 * time.Second):
			runner.Process.Kill()
			<-runDone
		}
	}()
	if !biWaitFor(60*time.Second, func() bool { st, _ := e.taskRow(slowID); return st == "ongoing" }) {
		t.Fatalf("the slow task never started:\n%s", runOut.String())
	}
	keys := [][2]string{
		{"ui.notifications", "false"}, {"ui.closeToTray", "false"}, {"review.maxInlineDiffBytes", "5000"},
		{"retries.transient", "3"}, {"stop.graceMs", "700"}, {"worktree.onFailure", "delete"},
		{"tools.codex.path", "/opt/codex"}, {"tools.claude-code.path", "/opt/claude"}, {"roles.reviewer.model", "m1"},
		{"roles.planner.model", "m2"}, {"tools.codex.env", `{"A":"1"}`}, {"tools.claude-code.env", `{"B":"2"}`},
	}
	type job struct {
		what string
		args []string
	}
	var jobs []job
	for i := range adds {
		args := []string{"add", fmt.Sprintf("race add %d", i), "--data-dir", e.dir}
		if i%2 == 0 {
			args = append(args, "--draft")
		}
		jobs = append(jobs, job{"add", args})
	}
	for _, kv := range keys {
		jobs = append(jobs, job{"settings set " + kv[0], []string{"settings", "set", kv[0], kv[1], "--data-dir", e.dir}})
	}
	for i := range injects {
		jobs = append(jobs, job{"inject", []string{"inject", slowID, fmt.Sprintf("race injection %d", i), "--data-dir", e.dir}})
	}
	results := make([]biResult, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = biExec(t, bin, biCall{args: j.args, limit: 60 * time.Second})
		}()
	}
	// The window saves a change of its own meanwhile, as its Settings screen does.
	wg.Add(1)
	go func() {
		defer wg.Done()
		f := settings.NewFile(dataroot.Paths{Root: e.dir}.Settings(), settings.Catalog{Names: []string{"claude-code", "codex", "mock"}, Configurable: []string{"claude-code", "codex"}})
		for i := range 5 {
			shown, err := f.Load()
			if err != nil {
				notes = append(notes, "window load: "+err.Error())
				return
			}
			next := shown
			next.Review.MaxFixRounds = 3 + i
			if err := f.SaveChanges(shown, next); err != nil {
				lockErrs++
				notes = append(notes, "window save: "+err.Error())
			}
		}
	}()
	wg.Wait()
	for i, r := range results {
		if r.code != 0 || r.hung {
			failed++
			notes = append(notes, fmt.Sprintf("%s: exit %d %s", jobs[i].what, r.code, strings.TrimSpace(r.stderr)))
		}
		if low := strings.ToLower(r.stderr); strings.Contains(low, "locked") || strings.Contains(low, "busy") {
			lockErrs++
		}
	}
	stop := biExec(t, bin, biCall{args: []string{"stop", slowID, "--data-dir", e.dir}})
	if stop.code != 0 {
		failed++
		notes = append(notes, "stop: "+stop.stderr)
	}
	if !biWaitFor(60*time.Second, func() bool { st, _ := e.taskRow(slowID); return st == "stopped" }) {
		st, _ := e.taskRow(slowID)
		lost++
		notes = append(notes, "stop lost: the slow task is "+st)
	}
	// What every writer was told it wrote must be there.
	st := e.store()
	defer st.Close()
	ctx := context.Background()
	for i := range adds {
		got, _ := st.ListTasks(ctx, store.Filter{Search: fmt.Sprintf("race add %d", i)})
		n := 0
		for _, tk := range got {
			if tk.Prompt == fmt.Sprintf("race add %d", i) {
				n++
			}
		}
		if n != 1 {
			lost++
			notes = append(notes, fmt.Sprintf("add %d: %d rows", i, n))
		}
	}
	f := settings.NewFile(dataroot.Paths{Root: e.dir}.Settings(), settings.Catalog{Names: []string{"claude-code", "codex", "mock"}, Configurable: []string{"claude-code", "codex"}})
	for _, kv := range keys {
		got, err := f.Get(kv[0])
		if err != nil || strings.Join(strings.Fields(string(got)), "") != strings.Join(strings.Fields(biJSON(kv[1])), "") {
			lost++
			notes = append(notes, fmt.Sprintf("settings %s = %s (%v), want %s", kv[0], got, err, kv[1]))
		}
	}
	if got, _ := f.Get("review.maxFixRounds"); strings.TrimSpace(string(got)) != "7" {
		lost++
		notes = append(notes, "window save lost: review.maxFixRounds = "+string(got))
	}
	injs, _ := st.Injections(ctx, slowID)
	if len(injs) != injects {
		lost += injects - len(injs)
		notes = append(notes, fmt.Sprintf("%d of %d injections stored", len(injs), injects))
	}
	if low := strings.ToLower(runOut.String()); strings.Contains(low, "database is locked") || strings.Contains(low, "busy") {
		lockErrs++
		notes = append(notes, "the runner logged a lock error")
	}
	return lost, lockErrs, failed, notes
}

// biJSON is a settings set VALUE as the JSON get prints.
func biJSON(v string) string {
	if strings.HasPrefix(v, "{") || v == "true" || v == "false" || strings.Trim(v, "0123456789") == "" {
		return v
	}
	return `"` + v + `"`
}

func biWaitFor(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return cond()
}

// TestR4Races is row R4.
func TestR4Races(t *testing.T) {
	bin := biBuild(t)
	n, procs, adds, injects := 100, 2, 8, 6
	if Full() {
		n, procs, adds, injects = 1000, 4, 40, 20
	}
	doubles, unclaimed, claimErrs, notes := biClaimRace(t, n, procs)
	lost, lockErrs, failed, wnotes := biWritersDuringRun(t, bin, adds, injects)
	notes = append(notes, wnotes...)
	lockErrs += claimErrs
	figure := fmt.Sprintf("%d claims raced by %d processes × 4: double claims %d, unclaimed %d; during a run %d adds, 12 settings sets, 5 window saves, %d injects, 1 stop: lost writes %d, lock errors surfaced %d, failed writers %d",
		n, procs, doubles, unclaimed, adds, injects, lost, lockErrs, failed)
	holds := doubles+unclaimed+lost+lockErrs+failed == 0
	row := Row{ID: "R4", Test: "racing claims from several processes; CLI writers (add, settings set, inject, stop) and window settings saves while a runner runs", Figure: figure,
		Goal: "double claims, lost writes, lock errors surfaced 0", Holds: holds}
	if err := Record(row); err != nil {
		t.Fatal(err)
	}
	t.Log("R4: " + figure)
	for _, note := range notes {
		t.Log(note)
	}
	if !holds {
		t.Errorf("R4 fails: %s", figure)
	}
}
