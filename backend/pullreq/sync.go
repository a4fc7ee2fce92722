package pullreq

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Synced is what a Sync learnt.
type Synced struct {
	Record Record `json:"record"`
	// Accepted: the pull request was merged and the task moved to accepted.
	Accepted bool `json:"accepted"`
	// Renamed is the head branch's old name when the forge renamed it.
	Renamed string `json:"renamed,omitempty"`
	// Pushed is the push of a fix run's commits Sync made ("" kind: none).
	Pushed string `json:"pushed,omitempty"`
	// Changed: the record differs from before.
	Changed bool `json:"changed"`
}

// Sync reads the task's pull request again (conditionally, on its ETag):
// state, review decision, the head's checks. A merged one moves a done
// task to accepted (with the merge commit), a deleted one is recorded
// "gone", a head branch renamed on the forge is followed. When a fix run
// of pulled review comments finished, its commits are pushed to the same
// pull request. A rate limit holds the next poll until its reset. Errors:
// *NotPushedError, *NoPullRequestError, *forge.NoTokenError, the forge's
// errors (also kept in the record's Problem).
func (s *Service) Sync(ctx context.Context, taskID string) (Synced, error) {
	rec, err := s.record(ctx, taskID)
	if err != nil {
		return Synced{}, err
	}
	if rec.Number == 0 {
		return Synced{}, &NoPullRequestError{TaskID: taskID}
	}
	before := rec
	out, err := s.sync(ctx, &rec)
	rec.SyncedAt = s.d.Now().UTC()
	if err != nil {
		rec.Problem = err.Error()
		var rl *forge.RateLimitError
		if errors.As(err, &rl) {
			rec.NextSyncAt = rl.Reset.UTC()
		}
		_ = s.d.Store.SavePullRequest(ctx, rec)
		return Synced{Record: rec}, err
	}
	rec.Problem, rec.NextSyncAt = "", time.Time{}
	if out.Accepted {
		out.Accepted, err = s.d.Store.MergedPR(ctx, rec)
	} else {
		err = s.d.Store.SavePullRequest(ctx, rec)
	}
	if err != nil {
		return Synced{}, err
	}
	if pushed, perr := s.pushFix(ctx, rec); perr == nil && pushed.Kind != "" {
		out.Pushed, rec = pushed.Kind, pushed.Record
	} else if perr != nil {
		rec.Problem = "could not push the fix run: " + perr.Error()
		_ = s.d.Store.SavePullRequest(ctx, rec)
	}
	out.Record = rec
	out.Changed = out.Changed || rec.State != before.State || rec.Review != before.Review || rec.Head != before.Head ||
		!sameChecks(rec.Checks, before.Checks) || rec.Problem != before.Problem
	return out, nil
}

func (s *Service) sync(ctx context.Context, rec *Record) (Synced, error) {
	var out Synced
	p, err := project(*rec, s.hosts())
	if err != nil {
		return out, err
	}
	f, err := s.client(ctx, p, false)
	if err != nil {
		return out, err
	}
	err = s.withTimeout(ctx, p.Host, func(ctx context.Context) error {
		pr, err := f.Get(ctx, rec.Number, rec.ETag)
		var nf *forge.NotFoundError
		switch {
		case errors.Is(err, forge.ErrNotModified):
			pr = forge.PullRequest{}
		case errors.As(err, &nf):
			rec.State, rec.ETag = "gone", ""
			return nil
		case err != nil:
			return err
		default:
			if pr.Head != "" && pr.Head != rec.Head {
				out.Renamed = rec.Head
			}
			*rec = apply(*rec, pr)
			if pr.Review == "" {
				rec.Review = ""
			}
			out.Accepted = pr.State == forge.StateMerged
		}
		sha := pr.HeadSHA
		if sha == "" {
			sha = rec.PushedSHA
		}
		if !forge.State(rec.State).IsOpen() || sha == "" {
			return nil
		}
		checks, err := f.Checks(ctx, sha)
		if err != nil {
			return err
		}
		rec.Checks = rec.Checks[:0]
		for _, c := range checks {
			rec.Checks = append(rec.Checks, store.PRCheck{Name: c.Name, State: c.State, URL: c.URL})
		}
		return nil
	})
	return out, err
}

// pushFix pushes a finished fix run of pulled review comments to the open
// pull request (kind "" when there is nothing to push).
func (s *Service) pushFix(ctx context.Context, rec Record) (Pushed, error) {
	if !rec.Open() || len(rec.Pulled) == 0 {
		return Pushed{}, nil
	}
	t, err := s.task(ctx, rec.TaskID)
	if err != nil || t.Status != task.StatusDone {
		return Pushed{}, err
	}
	sha, ok, err := s.d.Git.RefSHA(ctx, t.Repo, "refs/heads/"+review.TaskBranch(t.ID))
	if err != nil || !ok || sha == rec.PushedSHA {
		return Pushed{}, err
	}
	return s.Push(ctx, rec.TaskID, PushOptions{})
}

func sameChecks(a, b []store.PRCheck) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Due returns the open pull requests whose poll is due: read more than
// every ago, and past a rate limit's reset.
func (s *Service) Due(ctx context.Context, every time.Duration) ([]Record, error) {
	all, err := s.d.Store.OpenPullRequests(ctx)
	if err != nil {
		return nil, err
	}
	now := s.d.Now()
	var out []Record
	for _, r := range all {
		if now.Sub(r.SyncedAt) >= every && !now.Before(r.NextSyncAt) {
			out = append(out, r)
		}
	}
	return out, nil
}

// Poll syncs every open pull request whose poll is due (forge.pollSeconds)
// and then counts the review requests of each forge host a token is known
// for, until ctx ends; it checks every tick. changed is called after a
// sync changed a record. Failures stay in the records.
func (s *Service) Poll(ctx context.Context, tick time.Duration, changed func(taskID string)) {
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		every := time.Duration(s.forgeSettings().PollSeconds) * time.Second
		if due, err := s.Due(ctx, every); err == nil {
			for _, r := range due {
				if ctx.Err() != nil {
					return
				}
				if out, err := s.Sync(ctx, r.TaskID); err == nil && out.Changed && changed != nil {
					changed(r.TaskID)
				}
			}
		}
		s.countReviews(ctx, every)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// ReviewRequests returns the open pull requests waiting for the token
// users' review, over every forge host, as last counted by Poll.
func (s *Service) ReviewRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.reviews {
		n += c
	}
	return n
}

// countReviews counts the review requests of each host pushed to or
// configured that has a token, at most every interval.
func (s *Service) countReviews(ctx context.Context, every time.Duration) {
	s.mu.Lock()
	due := s.d.Now().Sub(s.reviewsAt) >= every
	if due {
		s.reviewsAt = s.d.Now()
	}
	s.mu.Unlock()
	if !due {
		return
	}
	hosts := map[string]forge.Project{}
	all, _ := s.d.Store.OpenPullRequests(ctx)
	for _, r := range all {
		if p, err := project(r, s.hosts()); err == nil {
			hosts[p.Host] = p
		}
	}
	for _, h := range append(s.hosts(), forge.KnownHosts...) {
		if _, ok := hosts[h.Name]; !ok {
			if p, err := forge.ParseRemote(fmt.Sprintf("https://%s/probe/probe", h.Name), []forge.Host{h}); err == nil {
				hosts[h.Name] = p
			}
		}
	}
	counts := map[string]int{}
	for host, p := range hosts {
		f, err := s.client(ctx, p, false)
		if err != nil {
			continue
		}
		if n, err := f.ReviewRequests(ctx); err == nil {
			counts[host] = n
		}
	}
	s.mu.Lock()
	s.reviews = counts
	s.mu.Unlock()
}
