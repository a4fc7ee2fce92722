// Package forges chooses the forge.Forge of a project by its kind: the one
// place that knows every forge package (forge/github, forge/gitlab).
package forges

import (
	"fmt"

	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/forge/github"
	"github.com/boof-runner/boof-runner/backend/forge/gitlab"
)

// Open returns the Forge of project p with token; its calls go through t
// (t.Host is set to p's host when empty).
func Open(p forge.Project, token string, t *forge.Transport) (forge.Forge, error) {
	if t.Host == "" {
		t.Host = p.Host
	}
	switch p.Kind {
	case forge.GitHub:
		return github.New(p, token, t)
	case forge.GitLab:
		return gitlab.New(p, token, t)
	}
	return nil, fmt.Errorf("forge %q: %w", p.Kind, &forge.UnknownForgeError{URL: p.Web, Host: p.Host})
}
