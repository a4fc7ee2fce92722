package host

import (
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/intake"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
)

// Intake builds the one way new work comes into st: the window's task and
// schedule forms, `boof-runner add` and import all create through it, with
// the working directory of the settings in file.
func Intake(st *store.Store, file *settings.File) *intake.Service {
	return intake.New(intake.Options{Store: st, Settings: file.Load, Git: gitx.New()})
}
