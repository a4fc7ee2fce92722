package review

import (
	"context"
	"fmt"
	"strings"
)

// DefaultTarget returns the branch an accept goes into when the user names
// none: the task's base when it is a local branch, else the branch checked
// out in the task's working directory now. (The branch checked out when
// the task was created is the rule; the store does not record it
// yet, and this is the closest stand-in.) A detached working directory
// with no branch base gives an error wrapping ErrNoTarget.
func (s *Service) DefaultTarget(ctx context.Context, repo, base string) (string, error) {
	if base != "" && base != "HEAD" {
		if ref, err := branchRef(base); err == nil {
			if _, ok, err := s.git.RefSHA(ctx, repo, ref); err != nil {
				return "", fmt.Errorf("default target: %w", err)
			} else if ok {
				return strings.TrimPrefix(ref, "refs/heads/"), nil
			}
		}
	}
	out, err := s.git.Run(ctx, repo, "symbolic-ref", "-q", "HEAD")
	head := strings.TrimSpace(string(out))
	if err != nil || !strings.HasPrefix(head, "refs/heads/") {
		return "", fmt.Errorf("%s has no branch checked out; name the target branch: %w", repo, ErrNoTarget)
	}
	return strings.TrimPrefix(head, "refs/heads/"), nil
}
