package gitx

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/boof-runner/boof-runner/backend/userfile"
)

// readCommitTree returns the tree of the commit sha, read from the object
// files (readCommit).
func readCommitTree(common, sha string) (string, bool) {
	c, ok := readCommit(common, sha)
	return c.tree, ok
}

// commitHead is the start of a commit object: its tree and parents.
type commitHead struct {
	tree    string
	parents []string
}

// readCommit returns the tree and parents of the commit sha, read from the
// object files under common/objects the way git stores them
// (gitformat-pack(5)): a loose object, or a whole (not deltified) object in
// a pack found through its version 2 index. ok is false whenever git should
// answer instead: another object format, an object stored as a delta, one
// kept in an alternate object store, or anything unexpected.
func readCommit(common, sha string) (commitHead, bool) {
	if len(sha) != 40 || !isHex(sha) || !plainObjects(common) {
		return commitHead{}, false
	}
	objects := filepath.Join(common, "objects")
	if f, err := userfile.OpenKept(filepath.Join(objects, sha[:2], sha[2:])); err == nil {
		defer f.Close()
		zr, err := zlib.NewReader(f)
		if err != nil {
			return commitHead{}, false
		}
		defer zr.Close()
		return commitOf(zr, true)
	}
	id, err := hex.DecodeString(sha)
	if err != nil {
		return commitHead{}, false
	}
	idxs, _ := filepath.Glob(filepath.Join(objects, "pack", "pack-*.idx"))
	for _, idx := range idxs {
		off, found, ok := packOffset(idx, id)
		if !ok {
			return commitHead{}, false
		}
		if found {
			return packedCommit(strings.TrimSuffix(idx, ".idx")+".pack", off)
		}
	}
	return commitHead{}, false
}

// plainObjects reports whether the repository stores its objects as SHA-1
// files of its own (no alternates, no other object format).
func plainObjects(common string) bool {
	if _, err := os.Stat(filepath.Join(common, "objects", "info", "alternates")); err == nil {
		return false
	}
	return configAllows(common, "objectformat")
}

// commitOf reads a commit's "tree" and "parent" lines; header says r
// starts with the loose object's "commit <size>\0" header. ok is false
// when they cannot all be read from the object's first 1 KiB.
func commitOf(r io.Reader, header bool) (commitHead, bool) {
	var buf [1024]byte
	n, _ := io.ReadFull(r, buf[:])
	b := buf[:n]
	if header {
		h, rest, found := bytes.Cut(b, []byte{0})
		if !found || !bytes.HasPrefix(h, []byte("commit ")) {
			return commitHead{}, false
		}
		b = rest
	}
	if len(b) < 46 || !bytes.HasPrefix(b, []byte("tree ")) || b[45] != '\n' {
		return commitHead{}, false
	}
	c := commitHead{tree: string(b[5:45])}
	if !isHex(c.tree) {
		return commitHead{}, false
	}
	for b = b[46:]; bytes.HasPrefix(b, []byte("parent ")); b = b[48:] {
		if len(b) < 48 || b[47] != '\n' || !isHex(string(b[7:47])) {
			return commitHead{}, false
		}
		c.parents = append(c.parents, string(b[7:47]))
	}
	if len(b) < 7 { // the parents may go on past what was read
		return commitHead{}, false
	}
	return c, true
}

// packOffset finds id in a version 2 pack index: found with its offset in
// the pack, or not found; ok is false when the index cannot be read.
func packOffset(idx string, id []byte) (off int64, found, ok bool) {
	f, err := userfile.OpenKept(idx)
	if err != nil {
		return 0, false, false
	}
	defer f.Close()
	var head [8 + 256*4]byte
	if _, err := f.ReadAt(head[:], 0); err != nil || !bytes.Equal(head[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return 0, false, false
	}
	fan := func(i int) int { return int(binary.BigEndian.Uint32(head[8+4*i:])) }
	total := fan(255)
	lo, hi := 0, fan(int(id[0]))
	if id[0] > 0 {
		lo = fan(int(id[0]) - 1)
	}
	const shas = 8 + 256*4
	var name [20]byte
	var readErr error
	i := lo + sort.Search(hi-lo, func(k int) bool {
		if _, err := f.ReadAt(name[:], int64(shas+20*(lo+k))); err != nil {
			readErr = err
			return true
		}
		return bytes.Compare(name[:], id) >= 0
	})
	if readErr != nil {
		return 0, false, false
	}
	if i >= hi {
		return 0, false, true
	}
	if _, err := f.ReadAt(name[:], int64(shas+20*i)); err != nil {
		return 0, false, false
	}
	if !bytes.Equal(name[:], id) {
		return 0, false, true
	}
	offsets := int64(shas + 20*total + 4*total)
	var o [8]byte
	if _, err := f.ReadAt(o[:4], offsets+int64(4*i)); err != nil {
		return 0, false, false
	}
	v := binary.BigEndian.Uint32(o[:4])
	if v&0x80000000 == 0 {
		return int64(v), true, true
	}
	if _, err := f.ReadAt(o[:], offsets+int64(4*total)+int64(8*(v&0x7fffffff))); err != nil {
		return 0, false, false
	}
	return int64(binary.BigEndian.Uint64(o[:])), true, true
}

// packedCommit reads the commit at off in pack; only a whole commit
// object is read (a delta is left to git).
func packedCommit(pack string, off int64) (commitHead, bool) {
	f, err := userfile.OpenKept(pack)
	if err != nil {
		return commitHead{}, false
	}
	defer f.Close()
	var hdr [16]byte
	n, err := f.ReadAt(hdr[:], off)
	if n == 0 || (err != nil && err != io.EOF) {
		return commitHead{}, false
	}
	if (hdr[0]>>4)&7 != 1 { // OBJ_COMMIT; deltas and other types go to git
		return commitHead{}, false
	}
	i := 0
	for hdr[i]&0x80 != 0 {
		if i++; i >= n {
			return commitHead{}, false
		}
	}
	zr, err := zlib.NewReader(io.NewSectionReader(f, off+int64(i)+1, 1<<20))
	if err != nil {
		return commitHead{}, false
	}
	defer zr.Close()
	return commitOf(zr, false)
}

// TreeOf returns the tree of commit, read from the object files when it
// can be (readCommitTree), else by git.
func (g *Git) TreeOf(ctx context.Context, dir, common, commit string) (string, error) {
	if tree, ok := readCommitTree(common, commit); ok {
		return tree, nil
	}
	out, err := g.Run(ctx, dir, "rev-parse", "--verify", "--end-of-options", commit+"^{tree}")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// CommitHead returns the tree and parents of commit, read from the object
// files when it can be (readCommit), else by git.
func (g *Git) CommitHead(ctx context.Context, dir, common, commit string) (tree string, parents []string, err error) {
	if c, ok := readCommit(common, commit); ok {
		return c.tree, c.parents, nil
	}
	out, err := g.Run(ctx, dir, "show", "-s", "--format=%T %P", "--end-of-options", commit)
	if err != nil {
		return "", nil, err
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		return "", nil, fmt.Errorf("commit %s: no tree", commit)
	}
	return f[0], f[1:], nil
}
