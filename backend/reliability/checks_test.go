//go:build linux && reliability

package reliability

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/boof-runner/boof-runner/backend/task"
)

// tally counts what a row measures, over its trials; safe for concurrent
// trials.
type tally struct {
	mu     sync.Mutex
	counts map[string]int
	notes  []string
}

func newTally() *tally { return &tally{counts: map[string]int{}} }

// add counts n of kind; a non-zero failure count keeps a note saying where.
func (t *tally) add(kind string, n int, where string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.counts[kind] += n
	if n > 0 && where != "" {
		t.notes = append(t.notes, fmt.Sprintf("%s: %s", kind, where))
	}
}

func (t *tally) get(kind string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.counts[kind]
}

// sum returns the total of kinds.
func (t *tally) sum(kinds ...string) int {
	n := 0
	for _, k := range kinds {
		n += t.get(k)
	}
	return n
}

// figure renders kinds as "kind N, kind N".
func (t *tally) figure(kinds ...string) string {
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s %d", k, t.get(k))
	}
	return strings.Join(parts, ", ")
}

func (t *tally) notesText() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := append([]string(nil), t.notes...)
	sort.Strings(n)
	return strings.Join(n, "; ")
}

// commitsWithSubject lists the commit objects of the repository whose
// subject starts with prefix.
func (e *env) commitsWithSubject(prefix string) []string {
	e.t.Helper()
	out := e.git(e.repo, "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)")
	var commits []string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[1] == "commit" {
			commits = append(commits, f[0])
		}
	}
	if len(commits) == 0 {
		return nil
	}
	subjects := e.git(e.repo, append([]string{"log", "--no-walk=unsorted", "--format=%H %s"}, commits...)...)
	var match []string
	for _, l := range strings.Split(subjects, "\n") {
		sha, subj, _ := strings.Cut(l, " ")
		if strings.HasPrefix(subj, prefix) {
			match = append(match, sha)
		}
	}
	return match
}

// unreachable returns those of commits no ref (nor HEAD) reaches.
func (e *env) unreachable(commits []string) []string {
	e.t.Helper()
	if len(commits) == 0 {
		return nil
	}
	reach := map[string]bool{}
	for _, c := range strings.Fields(e.git(e.repo, "rev-list", "--all")) {
		reach[c] = true
	}
	var out []string
	for _, c := range commits {
		if !reach[c] {
			out = append(out, c)
		}
	}
	return out
}

var extraRun = regexp.MustCompile(`Run ([0-9]+) of ([0-9]+) started`)

// runMismatches lists what disagrees for a task the runner finished: its
// status against its branch, worktree, leftovers and log.
func (e *env) runMismatches(id string) []string {
	e.t.Helper()
	tk := e.task(id)
	var bad []string
	for _, m := range extraRun.FindAllStringSubmatch(e.logText(id), -1) {
		if n, _ := strconv.Atoi(m[1]); n > max(tk.Runs, 1) {
			bad = append(bad, "log says Run "+m[1]+" of "+m[2])
		}
	}
	if _, ok, _ := e.st.DecidedOutcome(context.Background(), id); ok && tk.Status != task.StatusOngoing {
		bad = append(bad, "a decided outcome is left on a "+string(tk.Status)+" task")
	}
	if tk.Status != task.StatusDone {
		return bad
	}
	head, err := e.gitErr(e.repo, "rev-parse", "--verify", "refs/heads/boof-runner/"+id)
	if err != nil {
		return append(bad, "done but the task branch is gone")
	}
	if tk.HeadSHA != head {
		bad = append(bad, fmt.Sprintf("recorded head %s, branch at %s", tk.HeadSHA, head))
	}
	if _, err := os.Stat(filepath.Join(e.repo, ".boof-runner-worktrees", id)); err == nil {
		bad = append(bad, "done (keep-branch) but the worktree directory is still there")
	}
	if left, err := e.gitErr(e.repo, "rev-parse", "--verify", "refs/heads/boof-runner/"+id+"--leftovers"); err == nil {
		if diff := e.git(e.repo, "diff", "--name-status", head, left); regexp.MustCompile(`(?m)^D\t`).MatchString(diff) {
			bad = append(bad, "leftovers record deletions: "+strings.ReplaceAll(diff, "\n", " "))
		}
	}
	return bad
}

// leaks lists what a trial left behind in git or in the app's TMPDIR.
func (e *env) leaks() []string {
	e.t.Helper()
	out := e.leakedTemp()
	for _, l := range strings.Split(e.git(e.repo, "worktree", "list", "--porcelain"), "\n") {
		if strings.HasPrefix(l, "prunable") {
			out = append(out, "a registered worktree whose directory is gone")
		}
	}
	if js, _ := filepath.Glob(filepath.Join(e.data, "journal", "*.json")); len(js) > 0 {
		out = append(out, fmt.Sprintf("%d accept journal entr(ies) left", len(js)))
	}
	if ws, _ := filepath.Glob(filepath.Join(e.data, "journal", "work", "*")); len(ws) > 0 {
		out = append(out, "a temporary accept worktree left")
	}
	return out
}
