package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// Limits on a review draft besides those of a request for changes.
const (
	// MaxDraftFiles bounds the hunk choices and the viewed marks.
	MaxDraftFiles = 100_000
	// MaxDraftPath bounds one path of a draft, in bytes.
	MaxDraftPath = 4096
)

// ErrBadDraft: a review draft that breaks a limit or names no file.
var ErrBadDraft = errors.New("bad review draft")

// Draft is the review a user has not sent yet on a task: what the Review
// screen keeps while the user reviews — the general comment, the comments
// on lines and hunks, the hunks to drop, the hunks chosen for a
// hunk-level accept, the files marked viewed. It is stored per task
// (SaveDraft) so that it survives a reload and a restart, and it is
// cleared when the review is sent (a request for changes) or the task is
// accepted. Nothing in it is trimmed or rewritten.
type Draft struct {
	// Head is the task branch commit the draft was made on
	// (DiffSummary.head); LoadDraft sets Moved when the branch is no
	// longer there.
	Head     string    `json:"head"`
	General  string    `json:"general"`
	Comments []Comment `json:"comments"`
	Drops    []Drop    `json:"drops"`
	// Chosen are the files and hunks picked for a hunk-level accept,
	// numbered in the diff of Head.
	Chosen []Selection `json:"chosen"`
	// Viewed are the files the user marked viewed, each with the content
	// it had then.
	Viewed []Viewed `json:"viewed"`

	// UpdatedAt is when the draft was saved (set by SaveDraft and
	// LoadDraft; ignored when saving).
	UpdatedAt time.Time `json:"updated_at"`
	// Moved is set by LoadDraft when the task branch moved since the
	// draft was made: hunk numbers of Chosen may name other hunks now, and
	// a comment or drop whose hunk is gone is refused when sent.
	Moved bool `json:"moved"`
	// Unviewed lists the files that were marked viewed but changed since
	// (LoadDraft drops their marks from Viewed).
	Unviewed []string `json:"unviewed"`
}

// Viewed is a file marked viewed in the Review screen.
type Viewed struct {
	Path string `json:"path"`
	// Hash is the file's content when it was viewed: the hash the diff
	// gave it (DiffFile.hash, worktree.FileChange.ContentHash).
	Hash string `json:"hash"`
}

// DraftStore keeps the drafts; *store.Store implements it.
type DraftStore interface {
	SaveReviewDraft(ctx context.Context, taskID string, draft json.RawMessage) (time.Time, error)
	ReviewDraft(ctx context.Context, taskID string) (store.ReviewDraft, bool, error)
}

// Check validates a draft: the limits of a request for changes on its
// comments and drops (a comment may still be empty: it is being written),
// files named on every entry, and bounded lists and paths. Errors wrap
// ErrBadDraft.
func (d Draft) Check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadDraft, fmt.Sprintf(format, args...))
	}
	if len(d.General) > MaxCommentText {
		return bad("the general comment is longer than %d bytes", MaxCommentText)
	}
	if len(d.Comments)+len(d.Drops) > MaxComments {
		return bad("more than %d comments and drops", MaxComments)
	}
	if len(d.Chosen) > MaxDraftFiles || len(d.Viewed) > MaxDraftFiles {
		return bad("more than %d files chosen or viewed", MaxDraftFiles)
	}
	for i, c := range d.Comments {
		if err := c.checkAnchor(); err != nil {
			return bad("comment %d %v", i+1, err)
		}
		if len(c.Text) > MaxCommentText || len(c.Hunk) > MaxHunkText || !okPath(c.File, true) {
			return bad("comment %d is too long or names no valid file", i+1)
		}
	}
	for i, x := range d.Drops {
		if !okPath(x.File, false) || len(x.Hunk) > MaxHunkText || (x.Hunk == "" && x.Index <= 0) {
			return bad("dropped hunk %d needs a file and its hunk", i+1)
		}
	}
	for i, s := range d.Chosen {
		if !okPath(s.File, false) {
			return bad("chosen file %d has no valid path", i+1)
		}
		for _, h := range s.Hunks {
			if h < 1 {
				return bad("chosen file %d names hunk %d", i+1, h)
			}
		}
	}
	for i, v := range d.Viewed {
		if !okPath(v.Path, false) || len(v.Hash) > 64 {
			return bad("viewed file %d has no valid path", i+1)
		}
	}
	return nil
}

// okPath reports whether p can name a file of a draft ("" only when
// empty is allowed: a general comment).
func okPath(p string, empty bool) bool {
	if p == "" {
		return empty
	}
	return len(p) <= MaxDraftPath && !strings.ContainsRune(p, 0)
}

// SaveDraft checks d and stores it as the task's unsent review, replacing
// the one before; it returns d as stored (UpdatedAt set, the fields
// LoadDraft fills cleared). Errors: ErrBadDraft (wrapped), the store's
// (ErrNotFound for a missing task).
func SaveDraft(ctx context.Context, st DraftStore, taskID string, d Draft) (Draft, error) {
	if err := d.Check(); err != nil {
		return Draft{}, err
	}
	d.Moved, d.Unviewed, d.UpdatedAt = false, nil, time.Time{}
	b, err := json.Marshal(d)
	if err != nil {
		return Draft{}, fmt.Errorf("save draft: %w", err)
	}
	if back := (Draft{}); json.Unmarshal(b, &back) != nil || !reflect.DeepEqual(back.nonNil(), d.nonNil()) {
		// JSON writes a byte that is not UTF-8 as U+FFFD: refused
		// rather than read back as another text.
		return Draft{}, fmt.Errorf("%w: a text of the draft is not UTF-8", ErrBadDraft)
	}
	at, err := st.SaveReviewDraft(ctx, taskID, b)
	if err != nil {
		return Draft{}, err
	}
	d.UpdatedAt, d.Unviewed = at, []string{}
	return d.nonNil(), nil
}

// LoadDraft returns the task's unsent review (an empty one when it has
// none) checked against the task's diff now: a file marked viewed whose
// content changed since is unviewed (listed in Unviewed), and Moved says
// the task branch is no longer at the draft's head. A task whose branch
// cannot be read gets its draft as it was stored. Errors are the store's.
func (s *Service) LoadDraft(ctx context.Context, st DraftStore, t task.Task) (Draft, error) {
	sd, ok, err := st.ReviewDraft(ctx, t.ID)
	if err != nil || !ok {
		return Draft{}.nonNil(), err
	}
	var d Draft
	if err := json.Unmarshal(sd.Draft, &d); err != nil {
		return Draft{}, fmt.Errorf("review draft of %s: %w", t.ID, err)
	}
	d.UpdatedAt = sd.UpdatedAt
	d = d.nonNil()
	if len(d.Viewed) == 0 && d.Head == "" {
		return d, nil
	}
	base, head, err := s.DiffRange(ctx, t, false)
	if err != nil {
		return d, nil // no branch to check against: the draft as it was
	}
	if sha, err := s.git.ResolveCommit(ctx, t.Repo, head); err == nil && d.Head != "" {
		d.Moved = sha != d.Head
	}
	if len(d.Viewed) == 0 {
		return d, nil
	}
	fcs, err := worktree.NewManager(s.git, s.now).Files(ctx, t.Repo, base, head)
	if err != nil {
		return d, nil
	}
	now := make(map[string]string, len(fcs))
	for _, f := range fcs {
		now[f.Path] = f.ContentHash()
	}
	kept := d.Viewed[:0]
	for _, v := range d.Viewed {
		if h, ok := now[v.Path]; ok && h == v.Hash {
			kept = append(kept, v)
		} else {
			d.Unviewed = append(d.Unviewed, v.Path)
		}
	}
	d.Viewed = kept
	return d, nil
}

// nonNil gives the draft's lists as empty lists rather than null.
func (d Draft) nonNil() Draft {
	if d.Comments == nil {
		d.Comments = []Comment{}
	}
	if d.Drops == nil {
		d.Drops = []Drop{}
	}
	if d.Chosen == nil {
		d.Chosen = []Selection{}
	}
	if d.Viewed == nil {
		d.Viewed = []Viewed{}
	}
	if d.Unviewed == nil {
		d.Unviewed = []string{}
	}
	return d
}
