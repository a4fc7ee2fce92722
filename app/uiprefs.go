package app

import (
	"strconv"

	"github.com/boof-runner/boof-runner/backend/settings"
)

// DiffView returns the Review screen's remembered diff layout,
// settings.ui.diffView: "unified" or "split" (side by side). It is kept in
// the settings (a preference of the user, not of a task, beside the
// window's other ui settings) rather than in a task's review draft.
// Settings that cannot be read give the default.
func (s *SettingsService) DiffView() (string, error) {
	cur, _ := s.file.Load()
	if cur.UI.DiffView == "" {
		return settings.DiffUnified, nil
	}
	return cur.UI.DiffView, nil
}

// SetDiffView remembers the diff layout the user chose ("unified" or
// "split"), writing only that key of settings.json. Errors: a layout that
// is neither (nothing written), settings.json that cannot be read or
// written.
func (s *SettingsService) SetDiffView(view string) (string, error) {
	next, err := s.file.Set("ui.diffView", strconv.Quote(view)) // always a string: "null" is no layout

	if err != nil {
		return "", userError(err)
	}
	return next.UI.DiffView, nil
}
