package review

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

type rejectRecorder struct {
	got  []RejectRecord
	fail error
}

func (r *rejectRecorder) RecordReject(_ context.Context, _ string, rec RejectRecord) error {
	if r.fail != nil {
		return r.fail
	}
	r.got = append(r.got, rec)
	return nil
}

// rejectFixture has a task branch with two commits of its own and a
// leftovers branch with one more, the task worktree directory removed.
func rejectFixture(t *testing.T) fixture {
	f := newFixture(t, false)
	sh(t, f.wt, "switch", "-q", "-c", LeftoversBranch("T1"))
	write(t, filepath.Join(f.wt, "scratch.txt"), "x\n")
	commitAll(t, f.wt, "leftovers")
	return f
}

func TestRejectKeepsBranches(t *testing.T) {
	t.Parallel()
	f := rejectFixture(t)
	before := snap(t, f.repo)
	rec := &rejectRecorder{}
	out, err := newService(t).Reject(ctx(t), RejectRequest{Repo: f.repo, TaskID: "T1", Status: task.StatusDone}, rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Deleted) != 0 || len(rec.got) != 1 {
		t.Fatalf("out = %+v, recorded %d", out, len(rec.got))
	}
	before.same(t, f.repo)
}

func TestRejectDeletesConfirmedBranches(t *testing.T) {
	t.Parallel()
	f := rejectFixture(t)
	s := newService(t)
	list, err := s.TaskBranches(ctx(t), f.repo, "T1")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Name != TaskBranch("T1") || list[0].Unique != 2 ||
		list[1].Name != LeftoversBranch("T1") || list[1].Unique != 3 || list[1].Worktree != f.wt {
		t.Fatalf("branches = %+v", list)
	}
	r := RejectRequest{Repo: f.repo, TaskID: "T1", Status: task.StatusDone, DeleteBranches: true, Confirm: list}
	before := snap(t, f.repo)
	if _, err := s.Reject(ctx(t), r, nil); !errors.Is(err, ErrCheckedOut) || !strings.Contains(err.Error(), f.wt) {
		t.Fatalf("checked-out err = %v", err)
	}
	before.same(t, f.repo)

	if err := os.RemoveAll(f.wt); err != nil {
		t.Fatal(err)
	}
	list, err = s.TaskBranches(ctx(t), f.repo, "T1")
	if err != nil || list[1].Worktree != "" {
		t.Fatalf("after removing the dir: %+v, %v", list, err)
	}
	r.Confirm = list[:1]
	if _, err := s.Reject(ctx(t), r, nil); !errors.Is(err, ErrNotConfirmed) || !strings.Contains(err.Error(), LeftoversBranch("T1")) {
		t.Fatalf("partial confirm err = %v", err)
	}
	r.Confirm = list
	rec := &rejectRecorder{fail: errStore}
	if _, err := s.Reject(ctx(t), r, rec); !errors.Is(err, errStore) {
		t.Fatalf("recorder err = %v", err)
	}
	if _, err := shErr(f.repo, "rev-parse", "--verify", LeftoversBranch("T1")); err != nil {
		t.Fatal("branches not restored after the recorder failed")
	}
	rec.fail = nil
	out, err := s.Reject(ctx(t), r, rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Deleted) != 2 || len(rec.got) != 1 {
		t.Fatalf("out = %+v", out)
	}
	if refs := sh(t, f.repo, "for-each-ref", "refs/heads/boof-runner/"); refs != "" {
		t.Fatalf("branches left: %s", refs)
	}
}

func TestRejectRefusesMovedBranchAndBadStatus(t *testing.T) {
	t.Parallel()
	f := rejectFixture(t)
	s := newService(t)
	list, err := s.TaskBranches(ctx(t), f.repo, "T1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reject(ctx(t), RejectRequest{Repo: f.repo, TaskID: "T1", Status: task.StatusOngoing}, nil); !errors.Is(err, task.ErrIllegalTransition) {
		t.Fatalf("status err = %v", err)
	}
	sh(t, f.repo, "branch", "-f", TaskBranch("T1"), "main")
	before := snap(t, f.repo)
	r := RejectRequest{Repo: f.repo, TaskID: "T1", DeleteBranches: true, Confirm: list}
	if _, err := s.Reject(ctx(t), r, nil); !errors.Is(err, ErrNotConfirmed) {
		t.Fatalf("moved err = %v", err)
	}
	before.same(t, f.repo)
}

func TestDeleteBranchesNeedsTheCurrentList(t *testing.T) {
	t.Parallel()
	f := rejectFixture(t)
	s := newService(t)
	if err := os.RemoveAll(f.wt); err != nil {
		t.Fatal(err)
	}
	bs, err := s.TaskBranches(ctx(t), f.repo, "T1")
	if err != nil || len(bs) != 2 {
		t.Fatalf("branches %v %v", bs, err)
	}
	before := snap(t, f.repo)
	if _, err := s.DeleteBranches(ctx(t), f.repo, "T1", bs[:1]); !errors.Is(err, ErrNotConfirmed) {
		t.Fatalf("half-confirmed delete: %v", err)
	}
	before.same(t, f.repo)
	deleted, err := s.DeleteBranches(ctx(t), f.repo, "T1", bs)
	if err != nil || len(deleted) != 2 {
		t.Fatalf("delete: %v %v", deleted, err)
	}
	if after, _ := s.TaskBranches(ctx(t), f.repo, "T1"); len(after) != 0 {
		t.Fatalf("left %v", after)
	}
}
