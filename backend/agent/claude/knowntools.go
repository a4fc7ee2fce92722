package claude

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// ReadOnlyDisallowed are the tools a read-only role runs without: every
// tool whose purpose is to change files, in any claude version. A step
// denies those the installed claude reports (knownTools): naming one it
// does not have (2.1 has no MultiEdit) makes claude print `Permission deny
// rule "MultiEdit" matches no known tool` on every run.
var ReadOnlyDisallowed = []string{"Edit", "MultiEdit", "Write", "NotebookEdit"}

// SafeReadOnlyDisallowed is the deny list when the installed claude's
// tools are not known yet: the edit tools every supported version has.
// What a read-only step changes anyway is reverted by the pipeline.
var SafeReadOnlyDisallowed = []string{"Edit", "Write", "NotebookEdit"}

// toolsFile is the file in Options.StateDir the known tools are kept in.
const toolsFile = "tools.json"

// maxKnownBinaries bounds the executables remembered (the newest kept).
const maxKnownBinaries = 8

// knownTools remembers the tools each installed claude lists in its
// system/init line. The line comes after the flags are given, so it serves
// the next steps: it is learnt from the health check's smoke prompt and
// from every step run without a deny list, kept in memory and in
// <StateDir>/tools.json (doctor's or the window's health check serves the
// runner's steps). An executable is known by its path, size and
// modification time (an upgrade replaces the file; its version, which only
// `claude --version` tells, 2 s a call here, is recorded when the health
// check learnt it). Safe for concurrent use.
type knownTools struct {
	file string // "" keeps them in memory only

	mu      sync.Mutex
	read    time.Time    // modification time of the file when last read
	entries []toolsEntry // newest first
}

// toolsEntry is the tools of one executable.
type toolsEntry struct {
	Path    string    `json:"path"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
	Version string    `json:"version,omitempty"`
	Tools   []string  `json:"tools"`
}

// binKey identifies one installed executable.
type binKey struct {
	path string
	size int64
	mod  time.Time
}

// keyOf returns the key of the executable at path (symlinks followed);
// ok is false when it cannot be read.
func keyOf(path string) (binKey, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return binKey{}, false
	}
	return binKey{path: path, size: fi.Size(), mod: fi.ModTime()}, true
}

func (e toolsEntry) is(k binKey) bool {
	return e.Path == k.path && e.Size == k.size && e.ModTime.Equal(k.mod)
}

// newKnownTools keeps the known tools in dir's toolsFile ("" = memory only).
func newKnownTools(dir string) *knownTools {
	k := &knownTools{}
	if dir != "" {
		k.file = filepath.Join(dir, toolsFile)
	}
	return k
}

// lookup returns the tools the executable of k reported, false when unknown.
func (k *knownTools) lookup(key binKey) ([]string, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.load()
	for _, e := range k.entries {
		if e.is(key) {
			return e.Tools, true
		}
	}
	return nil, false
}

// learn records the tools an executable reported in its init line and,
// when version is not "", its version. A list without Read (every claude
// has it) is not a full one and is ignored. It returns the error of
// saving the file; the tools are remembered in memory all the same.
func (k *knownTools) learn(key binKey, version string, tools []string) error {
	if !slices.Contains(tools, "Read") {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.load()
	e := toolsEntry{Path: key.path, Size: key.size, ModTime: key.mod, Version: version, Tools: slices.Clone(tools)}
	if i := slices.IndexFunc(k.entries, func(o toolsEntry) bool { return o.is(key) }); i >= 0 {
		old := k.entries[i]
		if e.Version == "" {
			e.Version = old.Version
		}
		if i == 0 && e.Version == old.Version && slices.Equal(e.Tools, old.Tools) {
			return nil
		}
		k.entries = slices.Delete(k.entries, i, i+1)
	}
	k.entries = append([]toolsEntry{e}, k.entries...)
	if len(k.entries) > maxKnownBinaries {
		k.entries = k.entries[:maxKnownBinaries]
	}
	return k.save()
}

// noteVersion records the version of a known executable (from the health
// check's `claude --version`); an unknown one is left alone.
func (k *knownTools) noteVersion(key binKey, version string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.load()
	i := slices.IndexFunc(k.entries, func(o toolsEntry) bool { return o.is(key) })
	if i < 0 || version == "" || k.entries[i].Version == version {
		return nil
	}
	k.entries[i].Version = version
	return k.save()
}

// load reads the file when it changed since it was last read (another
// process learnt something: doctor's health check while the runner runs);
// what only this process knows (a save that failed) is kept. A missing or
// unreadable file is no knowledge.
func (k *knownTools) load() {
	if k.file == "" {
		return
	}
	fi, err := os.Stat(k.file)
	if err != nil || fi.ModTime().Equal(k.read) {
		return
	}
	b, err := userfile.ReadKept(k.file)
	if err != nil {
		return
	}
	var es []toolsEntry
	if json.Unmarshal(b, &es) != nil {
		return
	}
	k.read = fi.ModTime()
	for _, e := range k.entries {
		if !slices.ContainsFunc(es, func(o toolsEntry) bool { return o.is(binKey{e.Path, e.Size, e.ModTime}) }) {
			es = append(es, e)
		}
	}
	k.entries = es
}

// save writes the file atomically (a temp file renamed over it).
func (k *knownTools) save() error {
	if k.file == "" {
		return nil
	}
	b, err := json.MarshalIndent(k.entries, "", "  ")
	if err != nil {
		return fmt.Errorf("known tools: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(k.file), 0o700); err != nil {
		return fmt.Errorf("known tools: %w", err)
	}
	if err := atomicfile.WriteFile(k.file, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("known tools: %w", err)
	}
	if fi, err := os.Stat(k.file); err == nil {
		k.read = fi.ModTime()
	}
	return nil
}

// readOnlyDeny returns the deny list of a read-only step run by the
// executable of key: ReadOnlyDisallowed as far as that claude has them,
// else (its tools unknown) SafeReadOnlyDisallowed.
func (k *knownTools) readOnlyDeny(key binKey, ok bool) []string {
	tools, known := []string(nil), false
	if ok {
		tools, known = k.lookup(key)
	}
	if !known {
		return SafeReadOnlyDisallowed
	}
	var deny []string
	for _, t := range ReadOnlyDisallowed {
		if slices.Contains(tools, t) {
			deny = append(deny, t)
		}
	}
	return deny
}
