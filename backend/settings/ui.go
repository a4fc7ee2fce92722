package settings

// UI holds settings.ui: desktop behaviour of the app.
type UI struct {
	// Notifications shows a desktop notification when a task finishes,
	// fails or needs an answer.
	Notifications bool `json:"notifications"`
	// CloseToTray hides the window instead of quitting when it is closed
	// and a tray host exists.
	CloseToTray bool `json:"closeToTray"`
}
