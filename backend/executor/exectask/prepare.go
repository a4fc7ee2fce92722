package exectask

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/executor/bundle"
	"github.com/boof-runner/boof-runner/backend/executor/wire"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/store"
)

// prepare makes the pod's repository from the base bundle and its data
// root from the input: the settings (adapted to the pod), the store seeded
// with the task's rows and the attachments.
func prepare(ctx context.Context, in wire.Input, o Options) (*prepared, error) {
	p := &prepared{repo: filepath.Join(o.Work, "repo"), paths: dataroot.Paths{Root: filepath.Join(o.Work, "data")}}
	bundlePath := o.Bundle
	if bundlePath == "" {
		bundlePath = filepath.Join(o.In, BaseFile)
	}
	if err := makeRepo(ctx, gitx.New(), p.repo, bundlePath, in); err != nil {
		return nil, err
	}
	if err := dataroot.Ensure(p.paths.Root); err != nil {
		return nil, fmt.Errorf("make the data root: %w", err)
	}
	set, err := podSettings(in.Settings, p.repo)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(p.paths.Settings(), set, 0o600); err != nil {
		return nil, fmt.Errorf("write the settings: %w", err)
	}
	st, err := store.Open(ctx, p.paths.Database(), store.Options{AttachmentsDir: p.paths.Attachments()})
	if err != nil {
		return nil, fmt.Errorf("open the pod's store: %w", err)
	}
	p.st = st
	if err := p.seed(ctx, in); err != nil {
		st.Close()
		return nil, err
	}
	return p, nil
}

// seed stores the task's rows and writes its attachments where the store
// keeps them.
func (p *prepared) seed(ctx context.Context, in wire.Input) error {
	t, err := p.st.SeedTask(ctx, in.Rows, p.repo)
	if err != nil {
		return fmt.Errorf("seed the task: %w", err)
	}
	secs, err := p.st.Sections(ctx, t.ID)
	if err != nil {
		return err
	}
	for _, s := range secs {
		p.lastSection = max(p.lastSection, s.ID)
	}
	for name, data := range in.Attachments {
		if err := store.CheckAttachmentName(name); err != nil {
			return fmt.Errorf("attachment %q: %w", name, err)
		}
		dir := filepath.Join(p.paths.Attachments(), t.ID)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("write attachment: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return fmt.Errorf("write attachment: %w", err)
		}
	}
	return nil
}

// makeRepo makes a repository at dir holding the bundle's refs as the
// desktop's repository has them, its HEAD at the base commit.
func makeRepo(ctx context.Context, g *gitx.Git, dir, bundlePath string, in wire.Input) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("make the repository: %w", err)
	}
	if _, err := g.Run(ctx, dir, "init", "-q"); err != nil {
		return fmt.Errorf("make the repository: %w", err)
	}
	heads, err := bundle.Heads(ctx, g, dir, bundlePath)
	if err != nil {
		return fmt.Errorf("the base bundle cannot be read: %w", err)
	}
	for name, sha := range in.Refs {
		if heads[name] != sha {
			return fmt.Errorf("the base bundle does not hold %s at %s", name, sha)
		}
	}
	if _, err := g.Run(ctx, dir, "fetch", "-q", "--no-tags", "--no-write-fetch-head", "--update-head-ok", bundlePath, "+refs/*:refs/*"); err != nil {
		return fmt.Errorf("unpack the base bundle: %w", err)
	}
	if _, err := g.Run(ctx, dir, "checkout", "-q", "--detach", in.Base); err != nil {
		return fmt.Errorf("check out the base %s: %w", in.Base, err)
	}
	return nil
}

// podSettings adapts the desktop's settings file to the pod: the task's
// repository is the working directory, the worktrees go in its default
// root, the tools are the image's (found on PATH), the runner runs one
// task, the budgets stay the desktop's to keep and there is no executor.
func podSettings(raw json.RawMessage, repo string) ([]byte, error) {
	m := map[string]any{}
	if len(raw) > 0 && strings.TrimSpace(string(raw)) != "null" {
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("the task's settings are not a JSON object: %w", err)
		}
	}
	delete(m, "executor")
	delete(m, "budgets")
	m["workingDirectory"] = repo
	if wt, ok := m["worktree"].(map[string]any); ok {
		delete(wt, "root")
	}
	if tools, ok := m["tools"].(map[string]any); ok {
		for _, tc := range tools {
			if c, ok := tc.(map[string]any); ok {
				delete(c, "path")
			}
		}
	}
	r, _ := m["runner"].(map[string]any)
	if r == nil {
		r = map[string]any{}
	}
	r["enabled"], r["concurrency"] = true, 1
	m["runner"] = r
	return json.MarshalIndent(m, "", "  ")
}
