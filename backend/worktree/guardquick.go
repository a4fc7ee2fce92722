package worktree

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// One `git status` tells the guard most of what it needs: HEAD, its
// branch, and every path whose index or file differs from HEAD or is
// untracked (ignored files aside), with the index's object for each. A
// path it does not list matches HEAD's tree in the index and on disk (git
// checks content where stat data is not enough). So:
//   - a clean worktree's trees are HEAD's tree: its snapshot needs no other
//     git call, and it is unchanged after the step when the step's status is
//     still clean on the same HEAD;
//   - a worktree with changes is unchanged when the status lists the same
//     records and each listed file has the same stat data (inode, size,
//     mode, modification and change times). The change time is set by the
//     kernel on every write, so this holds when the snapshot's change times
//     are older than the snapshot by more than the clock's tick (otherwise,
//     or on a filesystem with whole-second times, the full record decides).
// Only when the step did change something is the full record (the trees
// of the index and of the files through a temporary index) made.

// fresh is how recent a listed file's change time may be for its stat
// data to prove it unchanged later (well above the kernel's clock tick).
const fresh = 50 * time.Millisecond

// probe is one `git status` of a worktree.
type probe struct {
	head, headRef string
	// ok is false when HEAD is not a commit (an unborn branch).
	ok bool
	// clean: no path differs from HEAD and nothing is untracked; staged:
	// some path's index entry differs from HEAD (or is unmerged).
	clean, staged bool
	// nested are untracked directories holding a repository of their own.
	nested []string
	// digest identifies the records and the listed files' stat data; ""
	// when the stat data cannot prove a file unchanged (see fresh).
	digest string
	// recs are the records listing paths (all but the headers); dir is
	// the worktree's top.
	recs []string
	dir  string
}

// probe runs git status in dir (the worktree's top).
func (m *Manager) probe(ctx context.Context, dir string) (probe, error) {
	t0 := time.Now()
	out, err := m.git.Run(ctx, dir, "status", "--porcelain=v2", "-z", "--branch", "--no-renames",
		"--untracked-files=all", "--ignore-submodules=none")
	if err != nil {
		return probe{}, err
	}
	p := probe{clean: true, dir: dir}
	h := sha256.New()
	trusted := true
	for _, rec := range gitx.SplitNUL(out) {
		switch {
		case strings.HasPrefix(rec, "# branch.oid "):
			p.head = strings.TrimPrefix(rec, "# branch.oid ")
			continue
		case strings.HasPrefix(rec, "# branch.head "):
			if b := strings.TrimPrefix(rec, "# branch.head "); b != "(detached)" {
				p.headRef = "refs/heads/" + b
			}
			continue
		case strings.HasPrefix(rec, "# "):
			continue
		}
		p.clean = false
		p.recs = append(p.recs, rec)
		p.staged = p.staged || rec[0] == 'u' || (rec[0] == '1' && len(rec) > 2 && rec[2] != '.')
		fmt.Fprintf(h, "%s\x00", rec)
		path := recordPath(rec)
		if path == "" {
			trusted = false
			continue
		}
		if strings.HasSuffix(path, "/") {
			p.nested = append(p.nested, strings.TrimSuffix(path, "/"))
			continue
		}
		if f := strings.Fields(rec); rec[0] != '?' && len(f) > 2 && f[2][0] == 'S' {
			trusted = false // a submodule: a commit inside it changes no stat data here
		}
		stamp, ok := statStamp(filepath.Join(dir, filepath.FromSlash(path)), t0)
		trusted = trusted && ok
		fmt.Fprintf(h, "%s\x00", stamp)
	}
	p.ok = gitx.CheckRev(p.head) == nil
	if !p.clean && trusted {
		p.digest = hex.EncodeToString(h.Sum(nil))
	}
	return p, nil
}

// recordPath returns the path of a porcelain v2 record ("" for a record
// it does not know): the last of its fields, which are 9 for an ordinary
// entry, 11 for an unmerged one and 2 for an untracked one.
func recordPath(rec string) string {
	if rec == "" {
		return ""
	}
	var n int
	switch rec[0] {
	case '1':
		n = 9
	case 'u':
		n = 11
	case '?':
		n = 2
	default:
		return ""
	}
	f := strings.SplitN(rec, " ", n)
	if len(f) != n {
		return ""
	}
	return f[n-1]
}

// unchanged reports whether now shows the worktree as snap recorded it.
func (snap Snapshot) unchanged(now probe) bool {
	if !now.ok || now.head != snap.Head || now.headRef != snap.HeadRef {
		return false
	}
	if snap.Clean {
		return now.clean
	}
	if snap.Probe != "" && now.digest == snap.Probe {
		return true
	}
	return snap.kept != nil && snap.kept.same(now.dir, now)
}

// headTree returns the tree of commit head (from the object files when
// they can be read, gitx.TreeOf).
func (m *Manager) headTree(ctx context.Context, dir, head string) (string, error) {
	common, err := m.git.CommonDir(ctx, dir)
	if err != nil {
		return "", err
	}
	return m.git.TreeOf(ctx, dir, common, head)
}

// indexPath returns the index file of the worktree whose top is dir (in
// its git directory, gitDirOf; git is asked when that cannot be read).
func (m *Manager) indexPath(ctx context.Context, dir string) (string, error) {
	if gd, err := gitDirOf(dir); err == nil {
		return filepath.Join(gd, "index"), nil
	}
	out, err := m.git.Run(ctx, dir, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}
