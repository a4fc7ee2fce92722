package gitx

import (
	"context"
	"strings"
)

// Branches lists the local branch names of the repository at dir, sorted,
// leaving out branches under skipPrefix ("" keeps all).
func (g *Git) Branches(ctx context.Context, dir, skipPrefix string) ([]string, error) {
	out, err := g.Run(ctx, dir, "for-each-ref", "--format=%(refname:short)", "--sort=refname", "refs/heads/")
	if err != nil {
		return nil, err
	}
	names := []string{}
	for _, n := range strings.Split(string(out), "\n") {
		if n != "" && (skipPrefix == "" || !strings.HasPrefix(n, skipPrefix)) {
			names = append(names, n)
		}
	}
	return names, nil
}
