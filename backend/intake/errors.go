package intake

import (
	"errors"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/userfile"
)

// Errors Task, Import and Schedule return besides the store's and gitx's.
var (
	// ErrNoWorkDir: the task names no repository and the settings name no
	// working directory, so it would have nowhere to run.
	ErrNoWorkDir = errors.New("no working directory")
	// ErrScheduleFiles: a recurring task was given attachments (a
	// schedule's template holds no files).
	ErrScheduleFiles = errors.New("a schedule carries no attachments")
	// ErrScheduleStart: a recurring task was given a start time besides
	// its cron expression.
	ErrScheduleStart = errors.New("a schedule has no start time")
	// ErrNoCluster: the task chooses the cluster (--executor kubernetes)
	// while settings.executor names no image to run it in.
	ErrNoCluster = errors.New("no cluster in the settings")
	// ErrClusterNeedsGit: the task chooses the cluster while its folder is
	// not a git repository (the cluster gets its base as a git bundle).
	ErrClusterNeedsGit = errors.New("a cluster task needs a git repository")
)

// SettingsError is a task without its own repository while the settings,
// which would name its working directory, cannot be used. Err is the
// settings' error.
type SettingsError struct {
	Err error
}

// Error says the working directory is unknown.
func (e *SettingsError) Error() string {
	return "no working directory: the settings cannot be used: " + e.Err.Error()
}

// Unwrap returns the settings' error.
func (e *SettingsError) Unwrap() error { return e.Err }

// RepoProblem is what makes a repository path unfit for a task.
type RepoProblem string

// The problems of a repository path.
const (
	// RepoRelative: the path is not absolute (it would be resolved against
	// whatever folder the runner starts in).
	RepoRelative RepoProblem = "relative"
	// RepoNotText: the path holds a control character or invalid UTF-8.
	RepoNotText RepoProblem = "not_text"
	// RepoMissing: nothing is at the path.
	RepoMissing RepoProblem = "missing"
	// RepoNotFolder: the path is a file or something else; Kind says what.
	RepoNotFolder RepoProblem = "not_folder"
	// RepoUnreadable: the path cannot be looked at (Err).
	RepoUnreadable RepoProblem = "unreadable"
)

// RepoError is a repository path (a task's --repo, an imported file's
// repo:, the settings' working directory) that cannot hold a task.
type RepoError struct {
	Repo    string
	Problem RepoProblem
	// Kind is what the path is for RepoNotFolder ("" for a regular file).
	Kind userfile.Kind
	// Detail is the text problem for RepoNotText.
	Detail string
	// FromSettings is set when the path is the settings' workingDirectory.
	FromSettings bool
	Err          error
}

// Error names the path and the problem.
func (e *RepoError) Error() string {
	s := fmt.Sprintf("repository %q: %s", e.Repo, e.Problem)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the system's error.
func (e *RepoError) Unwrap() error { return e.Err }

// NotTaskError is a file imported by name that is not a task file (it
// does not start with a frontmatter line).
type NotTaskError struct {
	Path string
}

// Error names the file.
func (e *NotTaskError) Error() string { return e.Path + ": not a task file (no --- frontmatter)" }

// NoTaskFilesError is a folder imported that holds no task file at all.
type NoTaskFilesError struct {
	Dir string
}

// Error names the folder.
func (e *NoTaskFilesError) Error() string { return e.Dir + ": no task files" }

// PartialImportError is an import of several files of which some were not
// imported (they failed, or were imported before).
type PartialImportError struct {
	NotImported, Total int
}

// Error counts the files.
func (e *PartialImportError) Error() string {
	return fmt.Sprintf("%d of %d file(s) were not imported", e.NotImported, e.Total)
}
