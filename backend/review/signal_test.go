package review

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// A context that ends (a signal) once the intent of a move is journaled
// does not stop the move half way: the ref, its checkout and the record
// are all finished, and the journal is left empty.
func TestCancelAfterTheIntentFinishesTheMove(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true)
	s := newService(t)
	rec := &recorder{}
	c, cancel := context.WithCancel(ctx(t))
	s.beforeSwap = cancel // the intent is durable, the ref not yet moved
	a, err := s.Accept(c, req(f, StrategyMerge), rec)
	if err != nil {
		t.Fatalf("accept cancelled after its intent: %v", err)
	}
	if got := rev(t, f.repo, "main"); got != a.NewSHA || len(rec.accepts) != 1 {
		t.Fatalf("main = %s, accept %s, recorded %d", got, a.NewSHA, len(rec.accepts))
	}
	if st := sh(t, f.repo, "status", "--porcelain=v1", "--untracked-files=no"); st != "" || read(t, filepath.Join(f.repo, "c.txt")) != "sea\n" {
		t.Fatalf("the checkout did not follow: %q", st)
	}
	journalEmpty(t, s)

	c, cancel = context.WithCancel(ctx(t))
	s.beforeSwap = cancel
	if err := s.Undo(c, UndoRequest{Repo: f.repo, TaskID: "T1", Record: a}, rec); err != nil {
		t.Fatalf("undo cancelled after its intent: %v", err)
	}
	if got := rev(t, f.repo, "main"); got != f.mainHead || len(rec.undos) != 1 {
		t.Fatalf("main = %s, want %s; undos recorded %d", got, f.mainHead, len(rec.undos))
	}
	if st := sh(t, f.repo, "status", "--porcelain=v1", "--untracked-files=all"); st != "" {
		t.Fatalf("the checkout did not follow the undo: %q", st)
	}
	journalEmpty(t, s)
}

// The notice hears of the signal once, naming the task and the move.
func TestNoticeSaysTheMoveIsFinishedFirst(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	var mu sync.Mutex
	var heard []string
	s := New(gitx.New(), nil, WithJournal(NewJournal(t.TempDir(), "")), WithNotice(func(id, text string) {
		mu.Lock()
		defer mu.Unlock()
		heard = append(heard, id+": "+text)
	}))
	c, cancel := context.WithCancel(ctx(t))
	s.beforeSwap = cancel
	if _, err := s.Accept(c, req(f, StrategySquash), nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(heard) != 1 || !strings.HasPrefix(heard[0], "T1: interrupted while main moves for the accept: that is finished first") {
		t.Fatalf("heard %q", heard)
	}
}

// A context that ended before the intent stops the accept with nothing
// changed and nothing journaled.
func TestCancelBeforeTheIntentChangesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	s := newService(t)
	before := snap(t, f.repo)
	c, cancel := context.WithCancel(ctx(t))
	cancel()
	if _, err := s.Accept(c, req(f, StrategyMerge), &recorder{}); err == nil {
		t.Fatal("an accept cancelled before it began was made")
	}
	before.same(t, f.repo)
	journalEmpty(t, s)
}

func journalEmpty(t *testing.T, s *Service) {
	t.Helper()
	if p, err := s.journal.Pending(); err != nil || len(p) != 0 {
		t.Fatalf("journal holds %+v (%v)", p, err)
	}
	if ents, _ := os.ReadDir(s.journal.workDir()); len(ents) != 0 {
		t.Fatalf("work left: %d", len(ents))
	}
}
