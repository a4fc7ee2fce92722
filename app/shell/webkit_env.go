package shell

import "os"

// webkitEnv is the environment the shell gives WebKit before GTK and
// WebKit start (WebKit's processes inherit it), each entry only when the
// user did not set that variable. Measured under Xvfb on WebKitGTK 2.50
// (docs/decisions/2026-12-01-window-icon-and-dmabuf.md):
//
//   - WEBKIT_DISABLE_DMABUF_RENDERER=1: the window draws without GPU
//     acceleration (linux.WebviewGpuPolicyNever), so the DMA-BUF renderer
//     only costs the UI process its set-up: 6 MiB of idle PSS and four
//     threads, with the same pixels on screen.
var webkitEnv = []struct{ name, value string }{
	{"WEBKIT_DISABLE_DMABUF_RENDERER", "1"},
}

// setWebKitEnv applies webkitEnv through lookup and set (os.LookupEnv and
// os.Setenv in the app), keeping every value the user set.
func setWebKitEnv(lookup func(string) (string, bool), set func(name, value string) error) error {
	for _, e := range webkitEnv {
		if _, ok := lookup(e.name); ok {
			continue
		}
		if err := set(e.name, e.value); err != nil {
			return err
		}
	}
	return nil
}

// setupWebKitEnv sets the process environment WebKit reads at start.
func setupWebKitEnv() error { return setWebKitEnv(os.LookupEnv, os.Setenv) }
