package worktree

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Status is how a file changed.
type Status string

// File statuses.
const (
	Added       Status = "added"
	Modified    Status = "modified"
	Deleted     Status = "deleted"
	Renamed     Status = "renamed"
	Copied      Status = "copied"
	TypeChanged Status = "typechange"
	Unmerged    Status = "unmerged"
)

// FileChange is one entry of a diff's file list.
type FileChange struct {
	// Path is the file's path after the change (before it, for a deletion).
	Path string `json:"path"`
	// OldPath is the source of a rename or copy, else "".
	OldPath string `json:"oldPath,omitempty"`
	Status  Status `json:"status"`
	// Similarity is the rename/copy score in percent.
	Similarity int `json:"similarity,omitempty"`
	// OldMode and NewMode are octal git modes ("000000" when absent).
	OldMode string `json:"oldMode"`
	NewMode string `json:"newMode"`
	// ModeChanged is true when an existing file's mode changed (e.g. +x).
	ModeChanged bool `json:"modeChanged"`
	// OldBlob and NewBlob are the file's git object ids before and after
	// the change (all zeros when absent; NewBlob is all zeros for a file
	// of the working tree that is not in the index yet).
	OldBlob string `json:"oldBlob"`
	NewBlob string `json:"newBlob"`
	// Binary files have no line counts.
	Binary  bool `json:"binary"`
	Added   int  `json:"added"`
	Removed int  `json:"removed"`
}

// ContentHash names the file's content at the end of the change: its new
// blob id, or its old one for a deletion. A mark tied to it (a file the
// user viewed) no longer holds once the file changes again.
func (c FileChange) ContentHash() string {
	if c.Status == Deleted {
		return c.OldBlob
	}
	return c.NewBlob
}

// errParse: git output did not have the expected shape.
var errParse = errors.New("unexpected diff output")

type numstat struct {
	added, removed int
	binary         bool
}

// parseRawNumstat parses `diff --raw --numstat -z`: all raw records, then
// one numstat record per raw record in the same order.
func parseRawNumstat(f []string) ([]FileChange, error) {
	var files []FileChange
	i := 0
	for i < len(f) && strings.HasPrefix(f[i], ":") {
		meta := strings.Fields(f[i][1:])
		if len(meta) != 5 || i+1 >= len(f) {
			return nil, fmt.Errorf("raw record %q: %w", f[i], errParse)
		}
		c := FileChange{OldMode: meta[0], NewMode: meta[1], OldBlob: meta[2], NewBlob: meta[3]}
		code := meta[4]
		switch code[0] {
		case 'A':
			c.Status = Added
		case 'M':
			c.Status = Modified
		case 'D':
			c.Status = Deleted
		case 'T':
			c.Status = TypeChanged
		case 'U':
			c.Status = Unmerged
		case 'R', 'C':
			c.Status = Renamed
			if code[0] == 'C' {
				c.Status = Copied
			}
			c.Similarity, _ = strconv.Atoi(code[1:])
			if i+2 >= len(f) {
				return nil, fmt.Errorf("rename record %q: %w", f[i], errParse)
			}
			c.OldPath = f[i+1]
			i++
		default:
			return nil, fmt.Errorf("status %q: %w", code, errParse)
		}
		c.Path = f[i+1]
		if c.Path == "" || (c.Status == Renamed || c.Status == Copied) && c.OldPath == "" {
			return nil, fmt.Errorf("raw record %q without a path: %w", f[i], errParse)
		}
		c.ModeChanged = c.OldMode != c.NewMode && c.OldMode != "000000" && c.NewMode != "000000"
		files = append(files, c)
		i += 2
	}
	stats, err := parseNumstat(f[i:])
	if err != nil {
		return nil, err
	}
	if len(stats) != len(files) {
		return nil, fmt.Errorf("%d raw records but %d numstat records: %w", len(files), len(stats), errParse)
	}
	for k, n := range stats {
		files[k].Added, files[k].Removed, files[k].Binary = n.added, n.removed, n.binary
	}
	return files, nil
}

// parseNumstat parses `--numstat -z` records: "added\tremoved\tpath", or
// "added\tremoved\t" followed by old and new path fields for a rename;
// binary files have "-" counts.
func parseNumstat(f []string) ([]numstat, error) {
	var out []numstat
	for i := 0; i < len(f); i++ {
		if f[i] == "" {
			continue
		}
		a, rest, ok1 := strings.Cut(f[i], "\t")
		r, path, ok2 := strings.Cut(rest, "\t")
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("numstat record %q: %w", f[i], errParse)
		}
		var n numstat
		if a == "-" && r == "-" {
			n.binary = true
		} else {
			var e1, e2 error
			n.added, e1 = strconv.Atoi(a)
			n.removed, e2 = strconv.Atoi(r)
			if e1 != nil || e2 != nil || n.added < 0 || n.removed < 0 {
				return nil, fmt.Errorf("numstat counts %q: %w", f[i], errParse)
			}
		}
		if path == "" {
			i += 2 // rename: old and new path follow
			if i >= len(f) {
				return nil, fmt.Errorf("numstat rename record: %w", errParse)
			}
		}
		out = append(out, n)
	}
	return out, nil
}
