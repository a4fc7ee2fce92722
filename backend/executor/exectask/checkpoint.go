package exectask

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/executor/bundle"
	"github.com/boof-runner/boof-runner/backend/executor/wire"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/userfile"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// checkpointer hands the task's work back: its refs as a bundle of what
// the desktop lacks, and the sections stored since the last checkpoint.
type checkpointer struct {
	g      *gitx.Git
	p      *prepared
	taskID string
	w      *wire.Writer
	// sent are the refs as last handed back (the shipped ones at first);
	// have the commits the desktop has.
	sent map[string]string
	have []string
}

func newCheckpointer(g *gitx.Git, p *prepared, in wire.Input, w *wire.Writer) *checkpointer {
	c := &checkpointer{g: g, p: p, taskID: in.TaskID, w: w, sent: map[string]string{}, have: []string{in.Base}}
	for name, sha := range in.Refs {
		if wire.OwnsRef(in.TaskID, name) {
			c.sent[name] = sha
		}
		c.have = append(c.have, sha)
	}
	return c
}

// take prints a checkpoint; final is the run's last. A checkpoint that
// cannot be made is logged on the pod's stderr and the next one carries
// its work.
func (c *checkpointer) take(ctx context.Context, final bool) {
	if err := c.checkpoint(ctx, final); err != nil {
		_ = c.w.Write(wire.Record{Kind: wire.KindLog, Level: task.LevelWarn,
			Text: "The cluster run could not hand its work back at this point: " + err.Error()})
	}
}

func (c *checkpointer) checkpoint(ctx context.Context, final bool) error {
	if !final {
		if err := c.snapshot(ctx); err != nil {
			return err
		}
	} else if _, err := c.g.Run(ctx, c.p.repo, "update-ref", "-d", wire.WipRef(c.taskID)); err != nil {
		return fmt.Errorf("drop the snapshot: %w", err)
	}
	refs, err := bundle.Refs(ctx, c.g, c.p.repo, wire.TaskRefPatterns(c.taskID)...)
	if err != nil {
		return err
	}
	cp := &wire.Checkpoint{Refs: map[string]string{}, Final: final}
	var moved []string
	for name, sha := range refs {
		if !wire.OwnsRef(c.taskID, name) {
			continue
		}
		cp.Refs[name] = sha
		if c.sent[name] != sha {
			moved = append(moved, name)
		}
	}
	for name := range c.sent {
		if _, ok := refs[name]; !ok {
			cp.Refs[name] = "" // deleted here (a snapshot no longer needed)
		}
	}
	if len(moved) > 0 {
		path := filepath.Join(c.p.paths.Root, "checkpoint.bundle")
		defer os.Remove(path)
		made, err := bundle.Create(ctx, c.g, c.p.repo, path, moved, c.have)
		if err != nil {
			return err
		}
		if made {
			if cp.Bundle, err = userfile.ReadKept(path); err != nil {
				return fmt.Errorf("read the bundle: %w", err)
			}
		}
	}
	secs, err := c.p.st.Sections(ctx, c.taskID)
	if err != nil {
		return err
	}
	last := c.p.lastSection
	for _, s := range secs {
		if s.ID > c.p.lastSection {
			last = max(last, s.ID)
			// The desktop stores its own injected prompts (with the
			// injection) and questions (with the outcome).
			if s.Kind != task.SectionInjectedPrompt && s.Kind != task.SectionQuestions {
				cp.Sections = append(cp.Sections, s)
			}
		}
	}
	if len(moved) == 0 && len(cp.Sections) == 0 && !final && len(cp.Refs) == len(c.sent) {
		return nil
	}
	if err := c.w.Write(wire.Record{Kind: wire.KindCheckpoint, Checkpoint: cp}); err != nil {
		return err
	}
	c.p.lastSection = last
	c.sent = map[string]string{}
	for name, sha := range cp.Refs {
		if sha != "" {
			c.sent[name] = sha
			c.have = append(c.have, sha)
		}
	}
	return nil
}

// snapshot points wire.WipRef at a commit of the worktree's uncommitted
// work (tracked changes and untracked files, ignored ones excepted) on its
// HEAD, made with an index of its own (the worktree, its index and its
// branch stay as they are); without uncommitted work it deletes the ref.
func (c *checkpointer) snapshot(ctx context.Context) error {
	dir := filepath.Join(c.p.repo, worktree.DefaultRootName, c.taskID)
	if _, err := os.Stat(dir); err != nil {
		return nil // no worktree yet
	}
	index := filepath.Join(c.p.paths.Root, "snapshot.index")
	os.Remove(index)
	defer os.Remove(index)
	env := []string{"GIT_INDEX_FILE=" + index, "GIT_AUTHOR_NAME=Boof Runner", "GIT_AUTHOR_EMAIL=boof-runner@localhost",
		"GIT_COMMITTER_NAME=Boof Runner", "GIT_COMMITTER_EMAIL=boof-runner@localhost"}
	run := func(args ...string) (string, error) {
		out, err := c.g.RunEnv(ctx, dir, env, args...)
		return strings.TrimSpace(string(out)), err
	}
	head, err := run("rev-parse", "HEAD")
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	if _, err := run("read-tree", "HEAD"); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	if _, err := run("add", "-A"); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	tree, err := run("write-tree")
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	headTree, err := run("rev-parse", "HEAD^{tree}")
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	if tree == headTree {
		_, err = run("update-ref", "-d", wire.WipRef(c.taskID))
		return err
	}
	commit, err := run("commit-tree", tree, "-p", head, "-m",
		"Boof Runner: uncommitted work of task "+c.taskID+" at "+time.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	_, err = run("update-ref", wire.WipRef(c.taskID), commit)
	return err
}

// saveLeftovers saves the uncommitted work of a worktree the run kept (a
// stopped or failed task) on the task's leftovers branch, as the desktop
// would find it in the worktree: the pod and its folder go away.
func (p *prepared) saveLeftovers(ctx context.Context, g *gitx.Git, w *wire.Writer, d store.Decided, decided bool) {
	var wt worktree.Worktree
	if !decided || len(d.Worktree) == 0 || json.Unmarshal(d.Worktree, &wt) != nil || wt.Dir == "" || !wt.Isolated {
		return
	}
	if _, err := os.Stat(wt.Dir); err != nil {
		return
	}
	m := worktree.NewManager(g, time.Now)
	log := func(level task.LogLevel, format string, args ...any) {
		_ = w.Write(wire.Record{Kind: wire.KindLog, Level: level, Text: fmt.Sprintf(format, args...)})
	}
	if _, err := m.SaveLeftovers(ctx, wt, log); err != nil {
		log(task.LevelWarn, "The uncommitted work in the pod could not be saved: %v", err)
	}
}
