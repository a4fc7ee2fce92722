package usererr

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/forge"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/pullreq"
	"github.com/boof-runner/boof-runner/backend/review"
)

// Forge: a forge's API failed or refused (a token, a rate limit, an
// answer that is no API's).
const Forge Code = "forge"

// describeForge: pushes, pull requests, issues and tokens.
func describeForge(err error) (string, Code, bool) {
	if msg, code, ok := describePush(err); ok {
		return msg, code, true
	}
	if msg, code, ok := describePullRequest(err); ok {
		return msg, code, true
	}
	return describeForgeAPI(err)
}

// describePush: where a push goes and what the remote said of it.
func describePush(err error) (string, Code, bool) {
	var nr *pullreq.NoRemoteError
	var fc *pullreq.ForeignCommitsError
	var pe *pullreq.PushedElsewhereError
	var rj *gitx.PushRejectedError
	var nb *pullreq.NoBranchError
	switch {
	case errors.As(err, &nb):
		return fmt.Sprintf("Task %s has no branch %s to push: it has not run yet", nb.TaskID, nb.Branch), WrongStatus, true
	case errors.As(err, &nr) && nr.Name != "":
		return fmt.Sprintf("Nothing pushed: the repository %s has no remote named %q (its remotes: %s)", nr.Repo, nr.Name, names(nr.Remotes)), InvalidInput, true
	case errors.As(err, &nr) && len(nr.Remotes) == 0:
		return fmt.Sprintf("Nothing pushed: the repository %s has no remote; add one with 'git remote add origin URL'", nr.Repo), InvalidInput, true
	case errors.As(err, &nr):
		return fmt.Sprintf("Nothing pushed: the repository %s has several remotes (%s) and none is the upstream of %s; choose one with --remote or the setting forge.remote",
			nr.Repo, names(nr.Remotes), orNone(nr.Target)), InvalidInput, true
	case errors.As(err, &fc):
		return fmt.Sprintf("Nothing pushed: %s on %s is at %s, which holds commits that are not this task's (someone pushed to it); look at them, or push under another name with --branch",
			fc.Branch, fc.Remote, shortSHA(fc.SHA)), Conflict, true
	case errors.As(err, &pe):
		return fmt.Sprintf("Nothing pushed: the task's pull request #%d is open for %s on %s; push there (without --remote or --branch), or close it first", pe.Number, pe.Branch, pe.Remote), InvalidInput, true
	case errors.As(err, &rj) && rj.Stale:
		return fmt.Sprintf("Nothing pushed: someone pushed to %s on %s meanwhile, and their commits are kept; look at them, or push under another name with --branch", rj.Branch, rj.Remote), Conflict, true
	case errors.As(err, &rj):
		return fmt.Sprintf("Nothing pushed: %s refused %s (%s)", rj.Remote, rj.Branch, rj.Reason), Git, true
	}
	var ge *gitx.Error
	if !errors.As(err, &ge) || (ge.Verb() != "push" && ge.Verb() != "ls-remote") {
		return "", "", false
	}
	remote := remoteOf(ge)
	switch {
	case errors.Is(err, gitx.ErrAuthRequired):
		return fmt.Sprintf("Nothing pushed: %s wants credentials git could not get without asking, and Boof Runner never lets git ask (%s); for an SSH remote add your key to an ssh-agent (ssh-add), for HTTPS set up a credential helper (git config credential.helper) or a token",
			remote, detail(ge)), Git, true
	case errors.Is(err, gitx.ErrRemoteForbidden):
		return fmt.Sprintf("Nothing pushed: %s refused access (HTTP 403); your credentials may not push there", remote), Git, true
	case errors.Is(err, gitx.ErrRemoteNotFound):
		return fmt.Sprintf("Nothing pushed: %s is no repository git can reach (it does not exist, or your credentials cannot see it)", remote), Git, true
	case errors.Is(err, gitx.ErrNetwork):
		return fmt.Sprintf("Nothing pushed: cannot reach %s (%s); check the network", remote, detail(ge)), Git, true
	}
	return "", "", false
}

// remoteOf is the remote a push or ls-remote named (after --end-of-options).
func remoteOf(ge *gitx.Error) string {
	for i, a := range ge.Args {
		if a == "--end-of-options" && i+1 < len(ge.Args) {
			return forge.RedactURL(ge.Args[i+1])
		}
	}
	return "the remote"
}

// describePullRequest: the task's pull request and what stands in its way.
func describePullRequest(err error) (string, Code, bool) {
	var np *pullreq.NotPushedError
	var npr *pullreq.NoPullRequestError
	var me *pullreq.MergedError
	var nn *pullreq.NoNewCommentsError
	var pm *review.PRMergedError
	switch {
	case errors.As(err, &np):
		return fmt.Sprintf("Task %s has not been pushed; push it with 'boof-runner push %s' or open its pull request with 'boof-runner pr open %s'", np.TaskID, np.TaskID, np.TaskID), WrongStatus, true
	case errors.As(err, &npr):
		return fmt.Sprintf("Task %s has no open pull request; open one with 'boof-runner pr open %s'", npr.TaskID, npr.TaskID), WrongStatus, true
	case errors.As(err, &me):
		return fmt.Sprintf("Nothing changed: pull request #%d was merged already (%s)", me.Number, me.URL), WrongStatus, true
	case errors.As(err, &nn):
		return fmt.Sprintf("Nothing changed: pull request #%d has no review comment that was not pulled in before", nn.Number), InvalidInput, true
	case errors.As(err, &pm):
		return fmt.Sprintf("Nothing changed: task %s landed through pull request #%d, merged on its forge (merge commit %s); undo it there, with a revert",
			pm.TaskID, pm.Number, shortSHA(pm.MergeSHA)), WrongStatus, true
	}
	return "", "", false
}

// describeForgeAPI: tokens, URLs and the forge's answers.
func describeForgeAPI(err error) (string, Code, bool) {
	var nt *forge.NoTokenError
	var ae *forge.AuthError
	var rl *forge.RateLimitError
	var nj *forge.NotJSONError
	var he *forge.HTTPError
	var nf *forge.NotFoundError
	var uf *forge.UnknownForgeError
	var bi *forge.BadIssueURLError
	var bh *forge.BadHostError
	var un *forge.UnreachableError
	switch {
	case errors.As(err, &nt):
		return fmt.Sprintf("No token for %s: set %s, or store one with 'boof-runner pr login %s' (it reads the token from standard input)", nt.Host, nt.Env, nt.Host), Forge, true
	case errors.As(err, &ae):
		why := ""
		if ae.Message != "" {
			why = ": " + strings.TrimSuffix(ae.Message, ".")
		}
		return fmt.Sprintf("%s refused the token from %s (HTTP %d%s); it may have expired or lack access to the repository: set a new one in %s or with 'boof-runner pr login %s'",
			ae.Host, ae.Source, ae.Status, why, ae.Source, ae.Host), Forge, true
	case errors.As(err, &rl):
		return fmt.Sprintf("Nothing changed: %s's rate limit is reached until %s; try again after that (the window's poll waits for it)", rl.Host, rl.Reset.UTC().Format(time.DateTime+" UTC")), Forge, true
	case errors.As(err, &nj):
		return fmt.Sprintf("Nothing changed: %s answered with %s (HTTP %d) instead of its API at %s; check the api URL of this host in the setting forge.hosts", nj.Host, nj.ContentType, nj.Status, nj.URL), Forge, true
	case errors.As(err, &he):
		msg := ""
		if he.Message != "" {
			msg = ": " + strings.TrimSuffix(he.Message, ".")
		}
		return fmt.Sprintf("Nothing changed: %s answered HTTP %d%s; try again later", he.Host, he.Status, msg), Forge, true
	case errors.As(err, &nf):
		return fmt.Sprintf("%s was not found on %s (deleted, or the token cannot see it)", capital(nf.What), nf.Host), NotFound, true
	case errors.As(err, &uf) && uf.Path:
		return fmt.Sprintf("%s names no project on %s", uf.URL, uf.Host), InvalidInput, true
	case errors.As(err, &uf) && uf.Remote != "":
		return fmt.Sprintf("The remote %s is not on a forge Boof Runner knows (github.com, gitlab.com, or a host in the setting forge.hosts): a pull request needs a GitHub or GitLab remote", uf.Remote), InvalidInput, true
	case errors.As(err, &uf):
		return fmt.Sprintf("%s is not on a forge Boof Runner knows (github.com, gitlab.com, or a host in the setting forge.hosts): a pull request needs a GitHub or GitLab remote", uf.URL), InvalidInput, true
	case errors.As(err, &bi):
		return fmt.Sprintf("%s is not the address of an issue (like https://github.com/OWNER/REPO/issues/12 or https://gitlab.com/GROUP/PROJECT/-/issues/12)", bi.URL), InvalidInput, true
	case errors.As(err, &un) && un.Timeout > 0:
		return fmt.Sprintf("Nothing changed: %s did not answer within %s; check the network, or raise the setting forge.timeoutSeconds", un.Host, un.Timeout), Forge, true
	case errors.As(err, &un):
		return fmt.Sprintf("Nothing changed: cannot reach %s (%v); check the network", un.Host, un.Err), Forge, true
	case errors.Is(err, forge.ErrBadToken):
		return "Nothing stored: a token is one word of printable characters, without spaces", InvalidInput, true
	case errors.As(err, &bh):
		return fmt.Sprintf("Nothing changed: %q is not a host name (a forge's host, like github.com or gitlab.example.com:8443)", bh.Host), InvalidInput, true
	}
	return "", "", false
}

func names(ns []string) string {
	if len(ns) == 0 {
		return "none"
	}
	return strings.Join(ns, ", ")
}

func orNone(s string) string {
	if s == "" {
		return "the checked-out branch"
	}
	return s
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
