package usererr

import (
	"errors"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/intake"
)

// describeIntake words why a new task, an import or a schedule was not
// stored.
func describeIntake(err error) (string, Code, bool) {
	var se *intake.SettingsError
	var re *intake.RepoError
	var nt *intake.NotTaskError
	var pi *intake.PartialImportError
	var nf *intake.NoTaskFilesError
	switch {
	case errors.As(err, &nt):
		return "The file " + nt.Path + " is not a task file: it must start with a --- frontmatter line", InvalidInput, true
	case errors.As(err, &nf):
		return "The folder " + nf.Dir + " holds no task files (*.md files that start with a --- frontmatter line); nothing was imported", InvalidInput, true
	case errors.As(err, &pi):
		return fmt.Sprintf("%d of %d file(s) were not imported; the others were", pi.NotImported, pi.Total), InvalidInput, true
	case errors.Is(err, intake.ErrNoWorkDir):
		return "Nothing was added: the task has no folder to run in; give it a repository (--repo), or set the working directory in the settings (workingDirectory)", InvalidInput, true
	case errors.As(err, &se):
		msg, code, ok := describeSettings(se.Err)
		if !ok {
			msg, code = sentence(se.Err.Error()), InvalidSettings
		}
		return trimPeriod(msg) + "; so the task has no working directory and nothing was added: fix the settings, or give the task a repository (--repo)", code, true
	case errors.As(err, &re):
		return repoMessage(re), InvalidInput, true
	case errors.Is(err, intake.ErrScheduleFiles):
		return "A recurring task cannot carry attachments: add them to each task it queues", InvalidInput, true
	case errors.Is(err, intake.ErrNoCluster):
		return "Nothing was added: the task is to run in a cluster, but the settings name none; set executor.image (and executor.context, executor.namespace) first, or run it on this machine (--executor local)", InvalidInput, true
	case errors.Is(err, intake.ErrClusterNeedsGit):
		return "Nothing was added: a task that runs in a cluster needs a git repository (its base is shipped as a git bundle); this folder is not one", InvalidInput, true
	case errors.Is(err, intake.ErrScheduleStart):
		return "A recurring task starts at its fires: give a start time or a repeat, not both", InvalidInput, true
	}
	return "", "", false
}

// repoMessage says why a repository path cannot hold a task.
func repoMessage(e *intake.RepoError) string {
	the := "The repository folder " + e.Repo
	if e.FromSettings {
		the = "The working directory " + e.Repo + " of the settings"
	}
	switch e.Problem {
	case intake.RepoRelative:
		return the + " is not an absolute path; give the full path of the folder"
	case intake.RepoNotText:
		if e.FromSettings {
			return "The working directory of the settings " + e.Detail
		}
		return "The repository path " + e.Detail
	case intake.RepoMissing:
		return the + " does not exist"
	case intake.RepoNotFolder:
		kind := "a file"
		if e.Kind != "" {
			kind = kindWords(e.Kind)
		}
		if e.FromSettings {
			return the + " is " + kind + ", not a folder"
		}
		return "The repository path " + e.Repo + " is " + kind + ", not a folder"
	}
	return the + " cannot be used: " + systemWords(e.Err)
}
