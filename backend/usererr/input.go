package usererr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

func describeInvalid(err error) (string, Code, bool) {
	var dup *store.DuplicateOriginError
	if errors.As(err, &dup) {
		return fmt.Sprintf("Task %q was already imported (as %s); nothing changed: import it again (--again) to make a second copy", dup.OriginID, dup.TaskID), Duplicate, true
	}
	var tl *store.TooLargeError
	if errors.As(err, &tl) {
		return fmt.Sprintf("Attachment %q is larger than the limit of %s", tl.Name, byteSize(tl.Limit)), InvalidInput, true
	}
	var ie *task.InvalidError
	if errors.As(err, &ie) {
		return ie.Reason, InvalidInput, true
	}
	var ce *store.CommandExistsError
	if errors.As(err, &ce) {
		return fmt.Sprintf("A command named %q already exists", ce.Name), InvalidInput, true
	}
	if errors.Is(err, userfile.ErrInterrupted) {
		return "Interrupted while waiting for input; nothing was changed", InvalidInput, true
	}
	return "", "", false
}

// byteSize is a limit for people: "10 MiB", "512 KiB", "300 bytes".
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func describeSettings(err error) (string, Code, bool) {
	var ve *settings.ValidationError
	var ke *settings.KeyError
	var me *settings.MalformedError
	var uk *settings.UnknownKeyError
	var tl *settings.TooLargeError
	switch {
	case errors.As(err, &tl):
		return fmt.Sprintf("The settings would be %d KiB, over the limit of %d KiB, so nothing was saved: shorten or unset a long value, or start from the defaults with 'boof-runner settings reset'",
			(tl.Size+1023)>>10, tl.Limit>>10), InvalidSettings, true
	case errors.As(err, &uk) && uk.NotSet:
		return "The setting " + uk.Key + " is not set; its default applies", InvalidSettings, true
	case errors.As(err, &uk) && uk.Suggestion != "":
		return "Unknown setting " + uk.Key + " (did you mean " + uk.Suggestion + "?)", InvalidSettings, true
	case errors.As(err, &uk):
		return "Unknown setting " + uk.Key + " (run 'boof-runner settings get' to see them all)", InvalidSettings, true
	case errors.As(err, &ve):
		return "Invalid settings: " + keyList(ve.Keys), InvalidSettings, true
	case errors.As(err, &ke):
		return "Invalid settings: " + keyList([]*settings.KeyError{ke}), InvalidSettings, true
	case errors.As(err, &me):
		return "The settings file " + me.Path + " " + me.Problem, InvalidSettings, true
	}
	return "", "", false
}

// keyList is "<key> <reason>; <key> <reason>".
func keyList(keys []*settings.KeyError) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.Key + " " + k.Reason
	}
	return strings.Join(parts, "; ")
}

// FieldMessage is the message shown next to one settings field: the
// key's reason as a sentence ("Must be between 1 and 32 (got 0).").
func FieldMessage(k *settings.KeyError) string { return sentence(k.Reason) }
