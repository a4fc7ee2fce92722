package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/settings"
)

// runSettings reads or changes settings: `settings get [KEY]`,
// `settings set KEY VALUE` (VALUE is JSON; a bare word is a string; null
// unsets) or `settings reset` (the file is moved aside and the defaults
// apply: the way out of a file no reader accepts). It uses the same
// validation as the UI.
func runSettings(_ context.Context, c *call) error {
	fs := c.newFlags()
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("expected get [KEY], set KEY VALUE or reset")
	}
	getenv := c.env.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	root, err := dataroot.Resolve(c.dataDir, getenv, goos)
	if err != nil {
		return err
	}
	if err := dataroot.Ensure(root); err != nil {
		return err
	}
	f := host.SettingsFile(dataroot.Paths{Root: root})
	defer warnUnknownKeys(c, f)
	switch pos[0] {
	case "get":
		if len(pos) > 2 {
			return usagef("get takes at most one KEY")
		}
		key := ""
		if len(pos) == 2 {
			key = pos[1]
		}
		out, err := f.Get(key)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.io.Stdout, string(out))
		if key == "" || key == "roles" {
			cat := f.Catalog()
			fmt.Fprintf(c.io.Stderr, "roles without a setting use %s (%s)\n", cat.Default(), cat.Rule())
		}
		return nil
	case "set":
		if len(pos) != 3 {
			return usagef("set takes KEY and VALUE")
		}
		if _, err := f.Set(pos[1], pos[2]); err != nil {
			return err
		}
		out, err := f.Get(pos[1])
		if err != nil {
			fmt.Fprintf(c.io.Stdout, "%s unset (default applies)\n", safeLine(pos[1]))
			return nil
		}
		fmt.Fprintf(c.io.Stdout, "%s = %s\n", safeLine(pos[1]), out)
		return nil
	case "reset":
		if len(pos) != 1 {
			return usagef("reset takes no argument")
		}
		aside, err := f.Reset(time.Now())
		if err != nil {
			return err
		}
		if aside == "" {
			fmt.Fprintf(c.io.Stdout, "there is no %s: the defaults apply\n", safeLine(f.Path()))
			return nil
		}
		fmt.Fprintf(c.io.Stdout, "moved %s to %s: the defaults apply\n", safeLine(f.Path()), safeLine(aside))
		return nil
	}
	return usagef("unknown settings action %q (want get, set or reset)", pos[0])
}

// warnUnknownKeys prints one warning per key of the settings file that
// this version does not know, naming the closest known key: a mistyped
// key is kept but has no effect, so it must not pass silently.
func warnUnknownKeys(c *call, f *settings.File) {
	keys, err := f.UnknownKeys()
	if err != nil {
		return // a broken file is reported by the command itself
	}
	for _, k := range keys {
		msg := fmt.Sprintf("boof-runner %s: warning: %s has a key %s that this version does not know; it is kept but has no effect", c.name, f.Path(), k.Key)
		if k.Suggestion != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", k.Suggestion)
		}
		fmt.Fprintln(c.io.Stderr, safeLine(msg))
	}
}
