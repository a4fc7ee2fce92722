// Package pullreq lands a task's work through a pull request (a merge
// request on GitLab): its branch pushed to a remote under the lease of what
// the remote last reported, a pull request opened on the remote's forge
// and followed (state, checks, review decision; a merge marks the task
// accepted), its review comments pulled into a fix run whose commits go to
// the same pull request, and tasks made from issues. The git side goes
// through backend/gitx, the forge side through backend/forge; what it
// learns is kept in the store's pull_requests record of the task.
package pullreq

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/intake"

	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/forge/forges"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Marker ends every comment Boof Runner writes on a pull request, so that
// pulling review comments leaves its own out.
const Marker = "<!-- boof-runner -->"

// Deps are what a Service uses.
type Deps struct {
	Store  *store.Store
	Git    *gitx.Git
	Review *review.Service
	// Intake checks and stores a task made from an issue, as every new
	// task is (backend/intake).
	Intake *intake.Service
	// Settings returns the current settings (a bad file: the defaults).
	Settings func() settings.Settings
	Tokens   forge.Tokens
	// HTTP is the transport under the forge clients (nil: the default).
	HTTP http.RoundTripper
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Service pushes task branches and opens and follows their pull requests.
// It is safe for concurrent use.
type Service struct {
	d Deps

	mu        sync.Mutex
	reviews   map[string]int // review requests by host, from the last poll
	reviewsAt time.Time
}

// New returns a Service.
func New(d Deps) *Service {
	if d.Now == nil {
		d.Now = time.Now
	}
	return &Service{d: d, reviews: map[string]int{}}
}

// Record is a task's pull request as the window and the CLI show it.
type Record = store.PullRequest

func (s *Service) forgeSettings() settings.Forge { return s.d.Settings().Forge }

// hosts are the forge hosts of settings as forge.Host values.
func (s *Service) hosts() []forge.Host {
	var out []forge.Host
	for _, h := range s.forgeSettings().Hosts {
		out = append(out, forge.Host{Name: h.Host, Kind: forge.Kind(h.Kind), API: h.API, TokenEnv: h.TokenEnv})
	}
	return out
}

func (s *Service) timeout() time.Duration {
	if n := s.forgeSettings().TimeoutSeconds; n > 0 {
		return time.Duration(n) * time.Second
	}
	return time.Duration(settings.DefaultForgeTimeout) * time.Second
}

// client returns the Forge of p with the host's token. No token gives a
// *forge.NoTokenError unless anonymous is set (public reads).
func (s *Service) client(ctx context.Context, p forge.Project, anonymous bool) (forge.Forge, error) {
	tok, src, err := s.d.Tokens.Lookup(ctx, p)
	var nt *forge.NoTokenError
	if errors.As(err, &nt) && anonymous {
		tok, src, err = "", forge.TokenSource{Kind: "env", Name: "no token"}, nil
	}
	if err != nil {
		return nil, err
	}
	return forges.Open(p, tok, &forge.Transport{Host: p.Host, Source: src.String(), Base: s.d.HTTP, Timeout: s.timeout(), Now: s.d.Now})
}

// project returns the forge project of a record.
func project(rec Record, hosts []forge.Host) (forge.Project, error) {
	if rec.Forge == "" {
		return forge.Project{}, &forge.UnknownForgeError{Remote: rec.Remote}
	}
	all := append(append([]forge.Host(nil), hosts...), forge.KnownHosts...)
	for _, h := range all {
		if h.Name == rec.Host && string(h.Kind) == rec.Forge {
			p, err := forge.ParseRemote("https://"+h.Name+"/"+rec.Project, []forge.Host{h})
			if err == nil && hostIsHTTP(h) {
				p, err = forge.ParseRemote("http://"+h.Name+"/"+rec.Project, []forge.Host{h})
			}
			return p, err
		}
	}
	return forge.Project{}, &forge.UnknownForgeError{URL: rec.Host + "/" + rec.Project, Host: rec.Host}
}

// hostIsHTTP reports a host whose API is plain HTTP (a test server, a
// forge behind a local proxy): its web pages are too.
func hostIsHTTP(h forge.Host) bool { return len(h.API) > 7 && h.API[:7] == "http://" }

// task reads a task, wrapping nothing: the store's errors are the user's.
func (s *Service) task(ctx context.Context, id string) (task.Task, error) {
	return s.d.Store.GetTask(ctx, id)
}

// record reads a task's record, or a *NotPushedError.
func (s *Service) record(ctx context.Context, id string) (Record, error) {
	rec, err := s.d.Store.PullRequest(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		if _, terr := s.task(ctx, id); terr != nil {
			return rec, terr
		}
		return rec, &NotPushedError{TaskID: id}
	}
	return rec, err
}

// withTimeout bounds a network operation; a deadline it set is reported
// as an *forge.UnreachableError of host.
func (s *Service) withTimeout(ctx context.Context, host string, f func(ctx context.Context) error) error {
	d := s.timeout()
	cctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	err := f(cctx)
	if err != nil && ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
		return &forge.UnreachableError{Host: host, Timeout: d, Err: err}
	}
	return err
}

func short(sha string) string {
	if len(sha) > 10 {
		return sha[:10]
	}
	return sha
}

// Show returns the task's record as last synced, or a *NotPushedError.
func (s *Service) Show(ctx context.Context, taskID string) (Record, error) {
	return s.record(ctx, taskID)
}

// Login stores host's token (the keyring, else the token file) and says
// where. Errors: forge.ErrBadToken, the file's.
func (s *Service) Login(ctx context.Context, host, token string) (forge.TokenSource, error) {
	return s.d.Tokens.Store(ctx, host, token)
}

// Logout forgets host's stored token (the environment's stays) and says
// whether one was stored.
func (s *Service) Logout(ctx context.Context, host string) (bool, error) {
	return s.d.Tokens.Remove(ctx, host)
}
