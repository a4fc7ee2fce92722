package usererr

import (
	"errors"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
)

// describeData names a problem with the data root's database or disk. A
// *runner.UnrecordedError and *runner.NotReadyError are described here too,
// before the store errors they wrap.
func describeData(err error) (string, Code, bool) {
	var ue *runner.UnrecordedError
	if errors.As(err, &ue) {
		return unrecordedMessage(ue), codeOf(ue.Err), true
	}
	var nr *runner.NotReadyError
	if errors.As(err, &nr) {
		msg, code, ok := describeSettings(nr.Err)
		if !ok {
			msg, code = sentence(nr.Err.Error()), Other
		}
		return trimPeriod(msg) + "; the runner started no task: fix the file, or save the settings from the app", code, true
	}
	var qe *runner.QueueError
	if errors.As(err, &qe) && !store.Damaged(err) && !store.DiskFull(err) {
		if qe.TaskID != "" {
			return "The runner could not claim task " + qe.TaskID + " (" + trimPeriod(innerText(qe.Err)) + "); it stays pending", Database, true
		}
		return "The runner could not read the queue (" + trimPeriod(innerText(qe.Err)) + ")", Database, true
	}
	var tooNew *store.SchemaTooNewError
	var bad *store.SchemaInvalidError
	var mig *store.MigrationError
	var nd *store.NotDatabaseError
	var dmg *store.DamagedError
	switch {
	case errors.As(err, &tooNew):
		return fmt.Sprintf("The database %s was written by a newer version of Boof Runner (schema %d; this version knows up to %d); upgrade Boof Runner to open it",
			tooNew.Path, tooNew.Version, tooNew.Known), Database, true
	case errors.As(err, &bad):
		return fmt.Sprintf("The database %s has an invalid schema version (%d) and was left as it was; restore it from a backup", bad.Path, bad.Version), Database, true
	case errors.As(err, &mig):
		return fmt.Sprintf("The database %s could not be upgraded for this version of Boof Runner (%s: %s) and was left as it was",
			mig.Path, mig.Name, trimPeriod(innerText(mig.Err))), Database, true
	case errors.As(err, &nd) && nd.Kind != "":
		return fmt.Sprintf("The database path %s is %s, not a database file; it was left as it was", nd.Path, nd.Kind), Database, true
	case errors.As(err, &nd):
		return fmt.Sprintf("The file %s is not a Boof Runner database; it was left as it was", nd.Path), Database, true
	case errors.As(err, &dmg):
		return fmt.Sprintf("The database %s is damaged (%s); nothing was changed: restore it from a backup", dmg.Path, trimPeriod(dmg.Problem)), Database, true
	case store.Damaged(err):
		return "The database is damaged (" + trimPeriod(innerText(err)) + "); nothing was changed: restore it from a backup", Database, true
	case store.DiskFull(err):
		return "The disk is full, so nothing was saved; free some space and try again", DiskFull, true
	case store.Busy(err):
		return "Another program holds the database locked and did not let go in time; nothing was changed: try again when it has finished", Database, true
	}
	return "", "", false
}

// unrecordedMessage says what happened to a task whose outcome could not
// be recorded.
func unrecordedMessage(ue *runner.UnrecordedError) string {
	cause := "The database could not record the outcome of task " + ue.TaskID + " (" + trimPeriod(innerText(ue.Err)) + ")"
	if store.DiskFull(ue.Err) {
		cause = "The disk filled up while task " + ue.TaskID + " ran, so its outcome could not be saved"
	}
	switch {
	case ue.Decided != "" && ue.Recorded && store.DiskFull(ue.Err):
		return "The disk filled up while task " + ue.TaskID + " ran; its outcome (" + string(ue.Decided) +
			") was recorded on a second try, in the room the runner keeps for this, and the runner stopped: free some space, then start it again"
	case ue.Decided != "" && ue.Recorded:
		return cause + "; its outcome (" + string(ue.Decided) + ") was recorded on a second try and the runner stopped: repair the database, then start it again"
	case ue.Decided != "":
		return cause + "; the runner stopped and the task stays ongoing until the next start records its outcome (" + string(ue.Decided) + ")"
	case ue.Recorded:
		return cause + "; it was recorded as failed and the runner stopped: free some space or repair the database, then retry the task"
	}
	return cause + "; the runner stopped and the task stays ongoing until the next start records it as interrupted"
}

// codeOf is the code of the store error inside an unrecorded outcome.
func codeOf(err error) Code {
	if store.DiskFull(err) {
		return DiskFull
	}
	return Database
}

// innerText is the text of the innermost error of err's chain, SQLite's or
// the system's own words without our wrapping context.
func innerText(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

func trimPeriod(s string) string {
	for len(s) > 0 && s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}
