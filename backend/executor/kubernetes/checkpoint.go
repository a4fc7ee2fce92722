package kubernetes

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/boof-runner/boof-runner/backend/executor/bundle"
	"github.com/boof-runner/boof-runner/backend/executor/wire"
	"github.com/boof-runner/boof-runner/backend/store"
)

// incoming is where a checkpoint's commits wait, under the task's id,
// until its refs move.
func incoming(taskID string) string { return "refs/boof-runner/incoming/" + taskID + "/" }

// checkpoint imports a checkpoint: its bundle's commits into the task's
// repository, its refs moved there in one ref transaction, then its
// reports and refs recorded with its sequence number. A checkpoint that
// does not match the task (refs of another task, a bundle that does not
// hold what it says or does not build on this repository, a branch not on
// the task's base, a branch moved here meanwhile) changes nothing: it is a
// *mismatchError and its bundle is kept under the data root.
func (f *follower) checkpoint(ctx context.Context, seq int64, cp wire.Checkpoint) (err error) {
	if seq <= f.seen {
		return nil // imported before a restart
	}
	next := map[string]string{}
	for name, sha := range cp.Refs {
		if !wire.OwnsRef(f.t.ID, name) {
			return &mismatchError{msg: fmt.Sprintf("its result names %s, which is not one of this task's refs; nothing of it was imported", name)}
		}
		next[name] = sha
	}
	kept := ""
	if len(cp.Bundle) > 0 {
		if kept, err = f.fetchBundle(ctx, seq, cp); err != nil {
			return err
		}
	}
	defer f.dropIncoming(ctx)
	err = f.importRefs(ctx, seq, cp, next)
	var mm *mismatchError
	switch {
	case err == nil && kept != "":
		os.Remove(kept) // imported
	case errors.As(err, &mm) && kept != "":
		mm.msg += " (its bundle is kept at " + kept + ")"
	}
	return err
}

// importRefs checks the fetched commits and moves the refs, then records
// the checkpoint.
func (f *follower) importRefs(ctx context.Context, seq int64, cp wire.Checkpoint, next map[string]string) error {
	g := f.p.o.Git
	for name, sha := range next {
		if sha == "" {
			continue
		}
		if _, err := g.Run(ctx, f.repo, "cat-file", "-e", sha+"^{commit}"); err != nil {
			return &mismatchError{msg: fmt.Sprintf("its result moves %s to %s, a commit it did not hand back; nothing of it was imported", name, short(sha))}
		}
	}
	branch := "refs/heads/boof-runner/" + f.t.ID
	if head := next[branch]; head != "" && f.rr.BaseSHA != "" && !bundle.IsAncestor(ctx, g, f.repo, f.rr.BaseSHA, head) {
		return &mismatchError{msg: fmt.Sprintf("its task branch (%s) does not start from the task's base %s; nothing of it was imported", short(head), short(f.rr.BaseSHA))}
	}
	if cp.Final {
		for name := range f.rr.Refs {
			if _, ok := next[name]; !ok {
				next[name] = "" // the run deleted it (a snapshot no longer needed)
			}
		}
	}
	if err := f.moveRefs(ctx, next); err != nil {
		return err
	}
	_, _, err := f.p.o.Store.ApplyRemote(ctx, f.t.ID, store.RemoteRecord{Seq: seq, Sections: cp.Sections, Refs: next})
	if err != nil {
		return err
	}
	for name, sha := range next {
		if sha == "" {
			delete(f.rr.Refs, name)
		} else {
			f.rr.Refs[name] = sha
		}
	}
	return nil
}

// fetchBundle checks a checkpoint's bundle against what it says and
// fetches its commits under incoming(); it returns the bundle's file. A
// bundle that does not match is kept under the data root.
func (f *follower) fetchBundle(ctx context.Context, seq int64, cp wire.Checkpoint) (string, error) {
	g := f.p.o.Git
	path, err := bundle.WriteTemp(f.p.remoteDir(f.t.ID), fmt.Sprintf("checkpoint-%d-*.bundle", seq), cp.Bundle)
	if err != nil {
		return "", fmt.Errorf("keep the checkpoint's bundle: %w", err)
	}
	keep := func(msg string) error {
		return &mismatchError{msg: msg + "; nothing of it was imported (its bundle is kept at " + path + ")"}
	}
	heads, err := bundle.Heads(ctx, g, f.repo, path)
	if err != nil {
		return "", keep("its result bundle cannot be read")
	}
	for name, sha := range heads {
		if want, ok := cp.Refs[name]; !ok || want != sha {
			return "", keep(fmt.Sprintf("its result bundle holds %s at %s, which the result does not name", name, short(sha)))
		}
	}
	if err := bundle.Verify(ctx, g, f.repo, path); err != nil {
		return "", keep("its result bundle does not build on this repository's commits")
	}
	if err := bundle.Fetch(ctx, g, f.repo, path, incoming(f.t.ID)); err != nil {
		return "", keep("its result bundle could not be fetched: " + oneLine(err.Error()))
	}
	return path, nil
}

// moveRefs moves the task's refs to next in one transaction, each only
// from where the last import left it (or where it is already); a ref moved
// here meanwhile is a mismatch and nothing moves.
func (f *follower) moveRefs(ctx context.Context, next map[string]string) error {
	cur, err := bundle.Refs(ctx, f.p.o.Git, f.repo, wire.TaskRefPatterns(f.t.ID)...)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(next))
	for n := range next {
		names = append(names, n)
	}
	sort.Strings(names)
	move, old := map[string]string{}, map[string]string{}
	for _, n := range names {
		c, want := cur[n], next[n]
		if c == want {
			continue
		}
		if c != f.rr.Refs[n] {
			return &mismatchError{msg: fmt.Sprintf("%s moved here (to %s) while the task ran in the cluster; nothing of its result was imported", strings.TrimPrefix(n, "refs/heads/"), short(c))}
		}
		move[n], old[n] = want, c
	}
	if len(move) == 0 {
		return nil
	}
	return bundle.Update(ctx, f.p.o.Git, f.repo, move, old)
}

// dropIncoming deletes the refs a checkpoint's commits waited under.
func (f *follower) dropIncoming(ctx context.Context) {
	refs, err := bundle.Refs(ctx, f.p.o.Git, f.repo, incoming(f.t.ID))
	if err != nil || len(refs) == 0 {
		return
	}
	del := map[string]string{}
	for n := range refs {
		del[n] = ""
	}
	_ = bundle.Update(context.WithoutCancel(ctx), f.p.o.Git, f.repo, del, nil)
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
