package exectask_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/cli"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/executor/bundle"
	"github.com/boof-runner/boof-runner/backend/executor/exectask"
	"github.com/boof-runner/boof-runner/backend/executor/kubernetes"
	"github.com/boof-runner/boof-runner/backend/executor/wire"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// TestMain makes this test binary the mock agent when run with
// mock.AgentCommand, as the app binary is.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == mock.AgentCommand {
		os.Exit(mock.Main(os.Args[2:], os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func newRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	git(t, repo, "config", "user.name", "T")
	git(t, repo, "config", "user.email", "t@example.com")
	if err := os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-qm", "first")
	return repo
}

// dataRoot makes a data root whose settings run every role on the mock in
// repo, and opens its store.
func dataRoot(t *testing.T, repo string) (dataroot.Paths, *store.Store) {
	t.Helper()
	paths := dataroot.Paths{Root: t.TempDir()}
	if err := dataroot.Ensure(paths.Root); err != nil {
		t.Fatal(err)
	}
	mockRole := map[string]any{"tool": "mock"}
	set := map[string]any{"workingDirectory": repo,
		"roles": map[string]any{"planner": mockRole, "refinement": mockRole, "developer": mockRole, "reviewer": mockRole}}
	b, _ := json.Marshal(set)
	if err := os.WriteFile(paths.Settings(), b, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), paths.Database(), store.Options{AttachmentsDir: paths.Attachments()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return paths, st
}

// outcome is what a run left, with the task's id replaced by ID: the
// status, the sections after the prompt, the stored events the pipeline
// emitted, and the task branch's commit subjects and diff and its
// leftovers.
type outcome struct {
	Status    task.Status
	Sections  []string
	Events    []task.EventKind
	Subjects  string
	Diff      string
	Leftovers string
}

// storeWritten are the stored kinds a store call writes itself (the claim,
// the status changes, the decision), which each side writes in its own.
var storeWritten = []task.EventKind{task.EventCreated, task.EventStatusChanged, task.EventClaimed, task.EventOutcomeDecided}

func sectionLine(id string, s task.Section) string {
	return strings.ReplaceAll(strings.Join([]string{string(s.Kind), string(s.Role), s.Step, s.Verdict,
		string(rune('0' + s.Iteration)), string(rune('0' + s.Round)), s.Body}, "|"), id, "ID")
}

func gitOutcome(t *testing.T, repo, id, branch, leftovers, base string) (string, string, string) {
	t.Helper()
	norm := func(s string) string { return strings.ReplaceAll(s, id, "ID") }
	subjects := norm(git(t, repo, "log", "--format=%s", base+".."+branch))
	diff := norm(git(t, repo, "diff", base, branch))
	left := ""
	if leftovers != "" {
		left = norm(git(t, repo, "diff", branch, leftovers))
	}
	return subjects, diff, left
}

// exec-task runs a task as the local runner does: the same status, the
// same reports, the same pipeline events in the same order, and the same
// commits and leftovers on the branch it hands back as the branch a local
// run leaves, for the same task on the mock tool.
func TestExecTaskRunsTheTaskAsALocalRunDoes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	repo := newRepo(t)
	base := git(t, repo, "rev-parse", "HEAD")
	newTask := task.NewTask{Title: "Compare", Prompt: "Write the feature, then leave a note.", Base: "main"}

	// The local run.
	lp, lst := dataRoot(t, repo)
	lt, err := lst.CreateTask(ctx, newTask)
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.Open(ctx, host.Options{Paths: lp, Store: lst, Exe: os.Args[0]})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Run(ctx, runner.UntilIdle); err != nil {
		t.Fatal(err)
	}
	h.Close()
	local := localOutcome(ctx, t, lst, repo, lt.ID, base)

	// The same task through exec-task, from the shipment the executor makes.
	rp, rst := dataRoot(t, repo)
	rt, err := rst.CreateTask(ctx, newTask)
	if err != nil {
		t.Fatal(err)
	}
	in := t.TempDir()
	sh, err := kubernetes.Ship(ctx, gitx.New(), rst, rp.Settings(), rt, repo, in)
	if err != nil {
		t.Fatal(err)
	}
	writeInput(t, in, sh.Input)
	var stdout, stderr bytes.Buffer
	code := cli.Run(ctx, []string{"exec-task", "--in", in, "--work", t.TempDir()},
		cli.IO{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}, cli.Env{Getenv: os.Getenv})
	if code != 0 {
		t.Fatalf("exec-task exited %d: %s", code, stderr.String())
	}
	remote := remoteOutcome(ctx, t, rst, repo, rt.ID, base, stdout.Bytes())

	if local.Status != task.StatusDone {
		t.Fatalf("the local run ended %s", local.Status)
	}
	for _, c := range []struct {
		what       string
		got, local any
	}{
		{"status", remote.Status, local.Status}, {"sections", remote.Sections, local.Sections},
		{"events", remote.Events, local.Events}, {"commit subjects", remote.Subjects, local.Subjects},
		{"diff", remote.Diff, local.Diff}, {"leftovers", remote.Leftovers, local.Leftovers},
	} {
		g, _ := json.MarshalIndent(c.got, "", " ")
		l, _ := json.MarshalIndent(c.local, "", " ")
		if !bytes.Equal(g, l) {
			t.Errorf("%s differ:\nexec-task: %s\nlocal:     %s", c.what, g, l)
		}
	}
	t.Logf("compared: %d sections, events %v, subjects %q, diff %d bytes, leftovers %d bytes", len(local.Sections), local.Events, local.Subjects, len(local.Diff), len(local.Leftovers))
	if local.Diff == "" || local.Leftovers == "" {
		t.Fatalf("the mock left no commit or no leftovers to compare: %+v", local)
	}
}

func localOutcome(ctx context.Context, t *testing.T, st *store.Store, repo, id, base string) outcome {
	t.Helper()
	tk, err := st.GetTask(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	o := outcome{Status: tk.Status}
	secs, _ := st.Sections(ctx, id)
	for _, s := range secs[1:] {
		o.Sections = append(o.Sections, sectionLine(id, s))
	}
	evs, _ := st.Events(ctx, id, time.Time{})
	for _, e := range evs {
		if !slices.Contains(storeWritten, e.Kind()) {
			o.Events = append(o.Events, e.Kind())
		}
	}
	o.Subjects, o.Diff, o.Leftovers = gitOutcome(t, repo, id, "boof-runner/"+id, "boof-runner/"+id+"--leftovers", base)
	return o
}

// remoteOutcome reads exec-task's records: the final checkpoint's bundle
// is fetched into repo under refs/test/<id>/.
func remoteOutcome(ctx context.Context, t *testing.T, st *store.Store, repo, id, base string, out []byte) outcome {
	t.Helper()
	o := outcome{}
	secs, _ := st.Sections(ctx, id)
	for _, s := range secs[1:] {
		o.Sections = append(o.Sections, sectionLine(id, s))
	}
	g := gitx.New()
	sc := wire.NewScanner(bytes.NewReader(out))
	var last int64
	var refs map[string]string
	for sc.Scan() {
		r, err := wire.Parse(sc.Bytes())
		if err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if r.Seq != last+1 {
			t.Fatalf("record %d follows %d", r.Seq, last)
		}
		last = r.Seq
		switch r.Kind {
		case wire.KindEvent:
			if k := r.Event.Kind; k.Stored() && !slices.Contains(storeWritten, k) {
				o.Events = append(o.Events, k)
			}
		case wire.KindCheckpoint:
			for _, s := range r.Checkpoint.Sections {
				o.Sections = append(o.Sections, sectionLine(id, s))
			}
			if len(r.Checkpoint.Bundle) > 0 {
				path, err := bundle.WriteTemp(t.TempDir(), "cp-*.bundle", r.Checkpoint.Bundle)
				if err != nil {
					t.Fatal(err)
				}
				if err := bundle.Fetch(ctx, g, repo, path, "refs/test/"+id+"/"); err != nil {
					t.Fatal(err)
				}
			}
			refs = r.Checkpoint.Refs
		case wire.KindFinal:
			o.Status = r.Final.Status
		case wire.KindFail:
			t.Fatalf("exec-task failed: %s", r.Text)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	branch, left := refs["refs/heads/boof-runner/"+id], refs["refs/heads/boof-runner/"+id+"--leftovers"]
	if branch == "" {
		t.Fatalf("the last checkpoint names no task branch: %v", refs)
	}
	o.Subjects, o.Diff, o.Leftovers = gitOutcome(t, repo, id, branch, left, base)
	return o
}

func writeInput(t *testing.T, dir string, in wire.Input) {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, exectask.TaskFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
}
