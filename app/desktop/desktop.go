// Package desktop opens the window for the command line (main.go). It is
// built two ways: with the desktop tag (boof-runner-desktop) it claims the
// data root's instance and runs the desktop shell (app/shell); without it
// (boof-runner, the command the user types) it replaces the process with
// boof-runner-desktop, so headless commands never load GTK or WebKit.
package desktop

// FrontEnv carries the path of the headless boof-runner to the desktop
// binary it execs (front.go sets it, window.go reads and removes it).
const FrontEnv = "BOOF_RUNNER_FRONT"

// Launch is what the command line asks of the window.
type Launch struct {
	Hidden, NewTask, Review bool
	ReviewID                string
}
