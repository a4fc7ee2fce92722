package usererr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// describeGit names what went wrong with git; which kind it was is
// decided by gitx (gitx.Error.Is), never here.
func describeGit(err error) (string, Code, bool) {
	var ge *gitx.Error
	hasGE := errors.As(err, &ge)
	in := ""
	if hasGE && ge.Dir != "" {
		in = " in " + ge.Dir
	}
	switch {
	case errors.Is(err, gitx.ErrNoDir):
		if hasGE && ge.Dir != "" {
			return "The folder " + ge.Dir + " does not exist", Git, true
		}
		return "No working directory was given for git", Git, true
	case errors.Is(err, gitx.ErrNotARepo):
		if hasGE && ge.Dir != "" {
			return "The folder " + ge.Dir + " is not a git repository", Git, true
		}
		return "This folder is not a git repository", Git, true
	case errors.Is(err, gitx.ErrBareRepo):
		if hasGE && ge.Dir != "" {
			return "The folder " + ge.Dir + " is a bare git repository, which has no checkout to work in; use a checkout of it as the working directory", Git, true
		}
		return "This is a bare git repository, which has no checkout to work in; use a checkout of it as the working directory", Git, true
	case errors.Is(err, gitx.ErrIndexLocked), errors.Is(err, gitx.ErrRefLocked):
		return "Another git process is working" + in + "; try again when it has finished", Git, true
	case errors.Is(err, gitx.ErrRefMoved):
		return "A branch" + in + " changed meanwhile; try again", Git, true
	case !hasGE:
		return "", "", false
	case errors.Is(err, gitx.ErrUnknownRef):
		return fmt.Sprintf("Git could not find a revision%s (%s)", in, detail(ge)), Git, true
	}
	return fmt.Sprintf("Git %s failed%s (%s)", ge.Verb(), in, detail(ge)), Git, true
}

func detail(ge *gitx.Error) string {
	if d := strings.TrimSuffix(ge.Detail(), "."); d != "" {
		return d
	}
	return fmt.Sprintf("exit %d", ge.ExitCode)
}
