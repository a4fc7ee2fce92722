package settings

// UI holds settings.ui: desktop behaviour of the app.
type UI struct {
	// Notifications shows a desktop notification when a task finishes,
	// fails or needs an answer.
	Notifications bool `json:"notifications"`
	// CloseToTray hides the window instead of quitting when it is closed
	// and a tray host exists.
	CloseToTray bool `json:"closeToTray"`
	// StartAtLogin starts the app hidden in the tray when the user logs in
	// (an XDG autostart entry the desktop app keeps in step); default off.
	StartAtLogin bool `json:"startAtLogin"`
	// DiffView is how the Review screen lays out a diff: DiffUnified (the
	// default) or DiffSplit (side by side); it remembers the user's last
	// choice.
	DiffView string `json:"diffView"`
	// SetupDismissed is set once the user dismissed the first-launch
	// screen: the window no longer opens on it while something is missing
	// (Settings still reaches it); default off.
	SetupDismissed bool `json:"setupDismissed"`
}

// The layouts of ui.diffView.
const (
	DiffUnified = "unified"
	DiffSplit   = "split"
)
