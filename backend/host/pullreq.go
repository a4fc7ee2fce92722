package host

import (
	"os"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/pullreq"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
)

// PullRequests returns the pull request service of a data root: tokens
// from getenv (nil: the process's environment), the session's Secret
// Service, or the data root's forge-tokens.json.
func PullRequests(paths dataroot.Paths, st *store.Store, g *gitx.Git, rev *review.Service, set func() settings.Settings, getenv func(string) string) *pullreq.Service {
	if getenv == nil {
		getenv = os.Getenv
	}
	return pullreq.New(pullreq.Deps{Store: st, Git: g, Review: rev, Settings: set, Intake: Intake(st, SettingsFile(paths)),
		Tokens: forge.Tokens{Getenv: getenv, Keyring: &forge.Keyring{}, File: paths.ForgeTokens()}})
}
