package usererr

import (
	"errors"
	"strings"

	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
)

func describeInvalid(err error) (string, Code, bool) {
	var ie *task.InvalidError
	if errors.As(err, &ie) {
		return ie.Reason, InvalidInput, true
	}
	return "", "", false
}

func describeSettings(err error) (string, Code, bool) {
	var ve *settings.ValidationError
	var ke *settings.KeyError
	var me *settings.MalformedError
	var uk *settings.UnknownKeyError
	switch {
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
