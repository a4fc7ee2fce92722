package review

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/tmpdir"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// ErrSubsetStrategy: a hunk-level accept is one squash commit; merge and
// rebase take whole commits and are refused with a subset.
var ErrSubsetStrategy = errors.New("a hunk-level accept is a squash: merge and rebase take the whole branch")

// Selection is one file of a hunk-level accept: its path in the task's
// diff against its base and the 1-based hunks to take (none = the whole
// file, binary files included).
type Selection struct {
	File  string `json:"file"`
	Hunks []int  `json:"hunks,omitempty"`
}

// FailHunksIndex is the failpoint (see backend/failpoint) of a hunk-level
// accept whose temporary index is read, in its temporary folder.
const FailHunksIndex = "accept:hunks-index"

// subsetTree builds the tree of a hunk-level accept: the target's tree
// plus only the chosen hunks, applied in a temporary index with git apply
// --cached (no working tree is touched). Every selection is checked
// against the task's diff from base to head first (*StaleHunkError names
// a file or hunk it does not have); a file whose hunks do not apply to the
// target gives *ConflictError naming it. It returns the files taken, for
// the accept's record. Its index commands run in the common git
// directory (they need no working tree, and its path is known already).
func (s *Service) subsetTree(ctx context.Context, r Request, common string, p *Plan) ([]task.AcceptedFile, error) {
	// The target's tree is read into the temporary index while the diff
	// runs (neither needs the other; the machine has more than one core).
	tmp, err := tmpdir.Make("boof-hunks-")
	if err != nil {
		return nil, fmt.Errorf("hunk accept: %w", err)
	}
	defer os.RemoveAll(tmp)
	top := common
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}
	read := make(chan error, 1)
	go func() {
		_, err := s.git.RunEnv(ctx, top, env, "read-tree", p.TargetSHA)
		read <- err
	}()
	indexRead := read
	readErr := func() error {
		if ch := indexRead; ch != nil {
			indexRead = nil
			return <-ch
		}
		return nil
	}
	defer readErr() // never leave it running over the removal of tmp
	picks, err := s.pickHunks(ctx, r, p)
	if err != nil {
		return nil, err
	}
	if err := readErr(); err != nil {
		return nil, fmt.Errorf("hunk accept: %w", err)
	}
	failpoint.Hit(FailHunksIndex)
	if conflicts, err := s.applyPicks(ctx, top, env, picks, p); err != nil || conflicts {
		return nil, err
	}
	if p.Tree, err = s.git.WriteTree(ctx, top, env); err != nil {
		return nil, fmt.Errorf("hunk accept: %w", err)
	}
	return takenFiles(picks), nil
}

// hunkPick is one file of a hunk-level accept and the hunks taken of it
// (nil: the whole file).
type hunkPick struct {
	f     FileHunks
	hunks []int
}

// pickHunks reads the task's diff of the selected files (from r.Base, else
// from the merge base with the target) and checks every selection against
// it: *StaleHunkError for a file or hunk the diff does not have, a file
// chosen twice is ErrBadReview.
func (s *Service) pickHunks(ctx context.Context, r Request, p *Plan) ([]hunkPick, error) {
	paths := make([]string, 0, len(r.Only))
	for _, sel := range r.Only {
		paths = append(paths, sel.File)
	}
	m := worktree.NewManager(s.git, s.now)
	var fps []worktree.FilePatch
	var err error
	if r.Base != "" {
		fps, err = m.Patches(ctx, r.Repo, r.Base, p.TaskHead, true, uniq(paths)...)
	} else {
		// The diff from the merge base, found by the same git diff.
		fps, err = m.PatchesSince(ctx, r.Repo, p.TargetSHA, p.TaskHead, true, uniq(paths)...)
	}
	if err != nil {
		return nil, fmt.Errorf("hunk accept: %w", err)
	}
	files := make([]FileHunks, 0, len(fps))
	for _, fp := range fps {
		files = append(files, splitFile(fp))
	}
	var picks []hunkPick
	seen := map[string]bool{}
	for _, sel := range r.Only {
		f, ok := fileOf(files, sel.File)
		if !ok {
			return nil, &StaleHunkError{File: sel.File, NotChanged: true}
		}
		if seen[f.Path] {
			return nil, fmt.Errorf("%w: %q is chosen twice", ErrBadReview, sel.File)
		}
		seen[f.Path] = true
		hs := append([]int(nil), sel.Hunks...)
		sort.Ints(hs)
		for i, h := range hs {
			if h < 1 || h > len(f.Hunks) || (i > 0 && hs[i-1] == h) {
				return nil, &StaleHunkError{File: sel.File, Index: h, Count: len(f.Hunks)}
			}
		}
		if len(hs) == len(f.Hunks) {
			hs = nil // every hunk: the whole file, mode and rename included
		}
		picks = append(picks, hunkPick{f, hs})
	}
	return picks, nil
}

// applyPicks applies the picks to the temporary index env names, in top.
// One git apply takes every chosen file (it is all or nothing); only when
// it fails is each file tried alone, to name those that conflict in
// p.Conflicts (conflicts true then); an error when none does alone.
func (s *Service) applyPicks(ctx context.Context, top string, env []string, picks []hunkPick, p *Plan) (conflicts bool, err error) {
	patches := make([]string, len(picks))
	for i, pk := range picks {
		patches[i] = pk.f.patchOf(pk.hunks)
		if len(pk.hunks) > 0 {
			patches[i] = pk.f.partPatch(pk.hunks)
		}
	}
	apply := func(patch string) error {
		_, err := s.git.Exec(ctx, gitx.Cmd{Dir: top, Env: env, Args: []string{"apply", "--cached", "--binary"}, Input: []byte(patch)})
		return err
	}
	err = apply(strings.Join(patches, ""))
	if err == nil {
		return false, nil
	}
	for i, pk := range picks {
		if apply(patches[i]) != nil {
			p.Conflicts = append(p.Conflicts, pk.f.Path)
		}
	}
	if len(p.Conflicts) == 0 {
		return false, fmt.Errorf("hunk accept: %w", err)
	}
	return true, nil
}

// takenFiles is the accept's record of the picks: each file with the
// hunks taken and their headers.
func takenFiles(picks []hunkPick) []task.AcceptedFile {
	taken := make([]task.AcceptedFile, 0, len(picks))
	for _, pk := range picks {
		af := task.AcceptedFile{File: pk.f.Path}
		for _, h := range pk.hunks {
			af.Hunks = append(af.Hunks, h)
			af.Headers = append(af.Headers, pk.f.Hunks[h-1].Header)
		}
		taken = append(taken, af)
	}
	return taken
}

// partPatch is a patch of some of a modified file's hunks: like dropPatch,
// its header names the new path only, so a rename or mode change is not
// taken with a part of the file. An added file's header stays (its
// hunks are taken whole, as it has one).
func (f FileHunks) partPatch(hunks []int) string {
	head := f.Head
	switch f.Status {
	case worktree.Added, worktree.Deleted:
	default:
		head = plainHead(f.Head)
	}
	out := head
	for _, i := range hunks {
		out += f.Hunks[i-1].Text
	}
	return out
}
