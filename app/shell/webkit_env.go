package shell

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/boof-runner/boof-runner/backend/dataroot"
)

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

// webkitStorage makes the folders inside the data root where WebKit keeps
// its storage and caches (root/webkit/data, root/webkit/cache, 0700 like
// the root) and returns them. WebKit writes there instead of
// ~/.local/share/boof-runner and ~/.cache/boof-runner (keepWebKitStorage).
func webkitStorage(root string) (data, cache string, err error) {
	base := filepath.Join(root, "webkit")
	data, cache = filepath.Join(base, "data"), filepath.Join(base, "cache")
	for _, d := range []string{base, data, cache} {
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return "", "", fmt.Errorf("webkit storage: %w", err)
		}
		if err := os.Chmod(d, 0o700); err != nil {
			return "", "", fmt.Errorf("webkit storage: %w", err)
		}
	}
	return data, cache, nil
}

// setupWebKitStorage keeps WebKit's storage in the data root the app
// opens (o.DataDir, else the instance's or the default one).
func setupWebKitStorage(o Options) error {
	flag := o.DataDir
	if o.Instance != nil {
		flag = o.Instance.Root()
	}
	root, err := dataroot.Default(flag)
	if err != nil {
		return err
	}
	if err := dataroot.Ensure(root); err != nil {
		return err
	}
	data, cache, err := webkitStorage(root)
	if err != nil {
		return err
	}
	keepWebKitStorage(data, cache)
	return nil
}
