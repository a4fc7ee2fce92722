package verify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// where is what a snapshot needs to know about a directory: the top of
// its worktree, the worktree's real index and the temporary index's path,
// and the tree of the base commit asked for.
type where struct {
	top, index, tmp, baseTree string
}

// places remembers locate's answers for the process (every gate run of a
// task asks about the same directory and base). An answer holds while
// the directory and the worktree's git directory are the same files (by
// device and inode) as when git answered, so a worktree removed and made
// again is asked about again. A base tree is remembered only for a base
// named by its full commit id (a branch name moves).
var places = struct {
	sync.Mutex
	m map[[2]string]placeEntry
}{}

type placeEntry struct {
	w          where
	dir, gitdr os.FileInfo
}

// maxPlaces bounds the cache; it is emptied when full.
const maxPlaces = 256

// locate answers where for dir and base (the base tree only when base is
// not ""), asking git once (rev-parse) unless places has the answer.
func locate(ctx context.Context, g *gitx.Git, dir, base string) (where, error) {
	key := [2]string{dir, ""}
	if fullID(base) {
		key[1] = base
	}
	if w, ok := cached(key, base); ok {
		return w, nil
	}
	args := []string{"rev-parse", "--path-format=absolute", "--show-toplevel",
		"--git-path", "index", "--git-path", snapshotSuffix + ".index"}
	want := 3
	if base != "" {
		args = append(args, "--verify", "--end-of-options", base+"^{tree}")
		want = 4
	}
	out, err := g.Run(ctx, dir, args...)
	if err != nil {
		if base != "" {
			return where{}, fmt.Errorf("snapshot (base %s): %w", base, err)
		}
		return where{}, fmt.Errorf("snapshot: %w", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != want {
		return where{}, fmt.Errorf("snapshot: unexpected rev-parse output %q", out)
	}
	w := where{top: lines[0], index: lines[1], tmp: lines[2]}
	if base != "" {
		w.baseTree = lines[3]
	}
	remember(key, base, w)
	return w, nil
}

func cached(key [2]string, base string) (where, bool) {
	if base != "" && key[1] == "" {
		return where{}, false // a branch or short name: ask git
	}
	places.Lock()
	e, ok := places.m[key]
	places.Unlock()
	if !ok {
		return where{}, false
	}
	d, err := os.Stat(key[0])
	if err != nil || !os.SameFile(d, e.dir) {
		return where{}, false
	}
	gd, err := os.Stat(filepath.Dir(e.w.tmp))
	if err != nil || !os.SameFile(gd, e.gitdr) {
		return where{}, false
	}
	return e.w, true
}

func remember(key [2]string, base string, w where) {
	if base != "" && key[1] == "" {
		return
	}
	d, err := os.Stat(key[0])
	if err != nil {
		return
	}
	gd, err := os.Stat(filepath.Dir(w.tmp))
	if err != nil {
		return
	}
	places.Lock()
	defer places.Unlock()
	if places.m == nil || len(places.m) >= maxPlaces {
		places.m = map[[2]string]placeEntry{}
	}
	places.m[key] = placeEntry{w: w, dir: d, gitdr: gd}
}

// fullID reports whether s is a full hexadecimal object id.
func fullID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return false
		}
	}
	return true
}
