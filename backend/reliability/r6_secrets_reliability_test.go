//go:build linux && reliability

package reliability

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/secrets/secretstest"
	"github.com/boof-runner/boof-runner/backend/task"
)

// R6 kinds.
const (
	kOnDisk    = "secret values on disk"
	kNotLeaked = "runs that printed nothing"
)

// onDisk counts the samples' secret values found in any file under root
// (the database, its WAL, transcripts, exports), grep -r style, and names
// the first file holding each.
func onDisk(t *testing.T, root string, samples []secretstest.Sample) (int, []string) {
	t.Helper()
	var all [][]byte
	var names []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, rerr := os.ReadFile(p); rerr == nil {
				all, names = append(all, b), append(names, p)
			}
		}
		return nil
	})
	n := 0
	var where []string
	for _, s := range samples {
		for _, sec := range s.Secrets {
			for i, b := range all {
				if bytes.Contains(b, []byte(sec)) {
					n++
					where = append(where, fmt.Sprintf("%s in %s", s.Name, filepath.Base(names[i])))
					break
				}
			}
		}
	}
	return n, where
}

// TestR6SecretsOnDisk is row R6: agents of every role print a corpus of
// credential formats (tool results, text, reports, the planner's
// questions) through real runs of the real binary; the task is exported
// into the data root; then every file under the data root is searched for
// every secret value. A second kind of trial is a data root written
// before scrubbing existed (rows and a transcript holding the corpus),
// opened by the new binary. A third (r6_shapes_test.go) has a claude and a
// codex developer print every format the rule set knows in every shape of
// their output, through their real adapters.
func TestR6SecretsOnDisk(t *testing.T) {
	tl := newTally()
	trials := 2
	if Full() {
		trials = 6
	}
	formats := len(secretstest.Corpus())
	t.Run("runs", func(t *testing.T) {
		for i := 0; i < trials; i++ {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				tl.add(kTrials, 1, "")
				e := newEnv(t, envOpts{observer: i%2 == 1})
				e.write(mock.LeakFile, secretstest.Text())
				e.git(e.repo, "add", "-A")
				e.git(e.repo, "commit", "-q", "-m", "config")
				id := e.add("Check the config.\n[[mock-leak planner=1 refinement=1 developer=1 observer=1 reviewer=1]]\n[[mock-questions planner=1]]")
				if r := e.run(nil, "runner", "--until-idle"); r.code != 0 || e.task(id).Status != task.StatusActions {
					t.Fatalf("first run: %d %s %q", r.code, e.task(id).Status, e.task(id).Error)
				}
				if r := e.run(nil, "answer", id, "Use the defaults."); r.code != 0 {
					t.Fatalf("answer: %s", r.stderr)
				}
				if r := e.run(nil, "runner", "--until-idle"); r.code != 0 || e.task(id).Status != task.StatusDone {
					t.Fatalf("second run: %d %s %q\n%s", r.code, e.task(id).Status, e.task(id).Error, e.logText(id))
				}
				if r := e.run(nil, "export", id, "-o", filepath.Join(e.data, "export.md")); r.code != 0 {
					t.Fatalf("export: %s", r.stderr)
				}
				if !strings.Contains(e.logText(id), "The config holds") {
					tl.add(kNotLeaked, 1, "trial "+fmt.Sprint(i))
				}
				n, where := onDisk(t, e.data, secretstest.Corpus())
				tl.add(kOnDisk, n, strings.Join(where, "; "))
			})
		}
	})
	t.Run("upgrade", func(t *testing.T) {
		tl.add(kTrials, 1, "")
		e := newEnv(t, envOpts{})
		ctx := context.Background()
		id := e.add("An old task.")
		leak := secretstest.Text()
		if _, err := e.st.AddSection(ctx, task.Section{TaskID: id, Kind: task.SectionDeveloperReport, Role: task.RoleDeveloper, Iteration: 1, Body: leak}); err != nil {
			t.Fatal(err)
		}
		if err := e.st.AppendLog(ctx, id, 0, task.LevelInfo, leak); err != nil {
			t.Fatal(err)
		}
		tr := filepath.Join(dataroot.Paths{Root: e.data}.Transcripts(), id, "i1-developer-a1.log")
		if err := os.MkdirAll(filepath.Dir(tr), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(tr, []byte(leak), 0o600); err != nil {
			t.Fatal(err)
		}
		// The new binary opens the data root (and runs the old task).
		if r := e.run(nil, "runner", "--until-idle"); r.code != 0 {
			t.Fatalf("runner: %s", r.stderr)
		}
		n, where := onDisk(t, e.data, secretstest.Corpus())
		tl.add(kOnDisk, n, "upgrade: "+strings.Join(where, "; "))
	})
	samples := everyFormat(t)
	t.Run("shapes", func(t *testing.T) {
		for _, cli := range []string{"claude", "codex"} {
			t.Run(cli, func(t *testing.T) { shapesTrial(t, tl, cli, samples) })
		}
	})
	fig := fmt.Sprintf("%d trials (%d formats printed by every role through real runs + export; a data root written before scrubbing, opened by the new binary; "+
		"%d formats, the corpus and an example of every regex rule, printed by a claude and a codex developer in every shape of their output: printed, "+
		"JSON-escaped, in a tool result holding a JSON document, claude's numbered Read view, and the report): %s",
		tl.get(kTrials), formats, len(samples), tl.figure(kOnDisk, kNotLeaked))
	if notes := tl.notesText(); notes != "" {
		fig += " — " + notes
	}
	row := Row{ID: "R6", Test: "secrets on disk: every file under the data root (database and WAL, transcripts, an export) searched for every secret value the agents printed",
		Figure: fig, Goal: "0 secret values on disk", Holds: tl.get(kTrials) > trials+2 && tl.sum(kOnDisk, kNotLeaked) == 0}
	if err := Record(row); err != nil {
		t.Fatal(err)
	}
	if !row.Holds {
		t.Errorf("R6 fails: %s", fig)
	}
}
