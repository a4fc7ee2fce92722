package host

import (
	"os"

	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/pullreq"
	"github.com/boof-runner/boof-runner/backend/settings"
)

// PullRequests returns the pull request service of the data root over
// these services (its store, git, review service and intake), reading the
// settings through set: tokens from getenv (nil: the process's
// environment), the session's Secret Service, or the data root's
// forge-tokens.json.
func (s *Services) PullRequests(set func() settings.Settings, getenv func(string) string) *pullreq.Service {
	if getenv == nil {
		getenv = os.Getenv
	}
	return pullreq.New(pullreq.Deps{Store: s.Store, Git: s.Git, Review: s.Review, Settings: set, Intake: s.Intake,
		Tokens: forge.Tokens{Getenv: getenv, Keyring: &forge.Keyring{}, File: s.Paths.ForgeTokens()}})
}
