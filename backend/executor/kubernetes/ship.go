package kubernetes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/executor/bundle"
	"github.com/boof-runner/boof-runner/backend/executor/wire"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// Shipment is what a task's pod gets: its input and the base bundle.
type Shipment struct {
	Input wire.Input
	// Bundle is the base bundle's path (in the folder Ship was given).
	Bundle string
}

// ShipStore is the part of the store Ship reads.
type ShipStore interface {
	ExportTaskRows(ctx context.Context, id, repo string) (store.TaskRows, error)
	Attachments(ctx context.Context, taskID string) ([]store.Attachment, error)
}

// Ship makes the shipment of task t, which runs in repository repo: the
// task's rows, the settings file's content, its attachments, and a bundle
// (written in dir) of the base and of the task's own refs (a retry goes on
// from its branch). A base that names no commit gives a
// *BaseError; no ref of the user's repository outlives the call.
func Ship(ctx context.Context, g *gitx.Git, st ShipStore, settingsFile string, t task.Task, repo, dir string) (Shipment, error) {
	base := t.Base
	if base == "" {
		base = "HEAD"
	}
	out, err := g.Run(ctx, repo, "rev-parse", "--verify", "--quiet", base+"^{commit}")
	if err != nil {
		return Shipment{}, &BaseError{Base: base, Repo: repo}
	}
	in := wire.Input{TaskID: t.ID, Schema: store.LatestSchema(), Base: strings.TrimSpace(string(out)), Refs: map[string]string{}}
	if t.Base != "" {
		in.BaseRef = t.Base
	}
	refs := []string{}
	if full := symbolicName(ctx, g, repo, base); full != "" && full != "HEAD" {
		in.Refs[full] = in.Base
		refs = append(refs, full)
	}
	own, err := bundle.Refs(ctx, g, repo, wire.TaskRefPatterns(t.ID)...)
	if err != nil {
		return Shipment{}, err
	}
	for name, sha := range own {
		if wire.OwnsRef(t.ID, name) && name != wire.WipRef(t.ID) {
			in.Refs[name] = sha
			refs = append(refs, name)
		}
	}
	if in.Rows, err = st.ExportTaskRows(ctx, t.ID, repo); err != nil {
		return Shipment{}, err
	}
	if in.Settings, err = readSettings(settingsFile); err != nil {
		return Shipment{}, err
	}
	if in.Attachments, err = readAttachments(ctx, st, t.ID); err != nil {
		return Shipment{}, err
	}
	path := filepath.Join(dir, "base.bundle")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Shipment{}, fmt.Errorf("ship: %w", err)
	}
	if _, ok := in.Refs[symbolicName(ctx, g, repo, base)]; !ok {
		// A base given as a commit (or the detached HEAD): git bundles
		// refs only, so the commit goes under a ref of its own for the
		// time the bundle takes.
		tmp := "refs/boof-runner/ship/" + t.ID
		if _, err := g.Run(ctx, repo, "update-ref", tmp, in.Base); err != nil {
			return Shipment{}, fmt.Errorf("bundle the base: %w", err)
		}
		defer g.Run(context.WithoutCancel(ctx), repo, "update-ref", "-d", tmp)
		in.Refs[tmp] = in.Base
		refs = append(refs, tmp)
	}
	if _, err := g.Run(ctx, repo, append([]string{"bundle", "create", "-q", path}, refs...)...); err != nil {
		return Shipment{}, fmt.Errorf("bundle the base: %w", err)
	}
	return Shipment{Input: in, Bundle: path}, nil
}

// symbolicName is the full ref name rev names ("" for a plain commit).
func symbolicName(ctx context.Context, g *gitx.Git, repo, rev string) string {
	out, err := g.Run(ctx, repo, "rev-parse", "--symbolic-full-name", rev)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// readSettings returns the settings file's content ("{}" when there is
// none): the pod adapts it (exectask).
func readSettings(path string) (json.RawMessage, error) {
	b, err := userfile.ReadKept(path)
	if errors.Is(err, fs.ErrNotExist) {
		return json.RawMessage("{}"), nil
	}
	if err != nil {
		return nil, fmt.Errorf("read settings: %w", err)
	}
	if !json.Valid(b) {
		return nil, fmt.Errorf("read settings: %s is not JSON", path)
	}
	return b, nil
}

func readAttachments(ctx context.Context, st ShipStore, taskID string) (map[string][]byte, error) {
	atts, err := st.Attachments(ctx, taskID)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, a := range atts {
		b, err := userfile.ReadKept(a.Path)
		if err != nil {
			return nil, fmt.Errorf("read attachment %s: %w", a.Name, err)
		}
		out[a.Name] = b
	}
	return out, nil
}

// BaseError says the task's base names no commit of its repository.
type BaseError struct{ Base, Repo string }

// Error names the base and the repository.
func (e *BaseError) Error() string {
	return fmt.Sprintf("unknown base ref '%s': not a branch or commit in %s", e.Base, e.Repo)
}
