package build

import (
	"bytes"
	"image/png"
	"testing"
)

// The window shows WindowIcon (256 px): the UI process decodes it at every
// start, so it must stay small; AppIcon stays the 1024 px source.
func TestIconSizes(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		px   int
	}{{"WindowIcon", WindowIcon, 256}, {"AppIcon", AppIcon, 1024}} {
		cfg, err := png.DecodeConfig(bytes.NewReader(c.data))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if cfg.Width != c.px || cfg.Height != c.px {
			t.Errorf("%s is %dx%d, want %dx%d", c.name, cfg.Width, cfg.Height, c.px, c.px)
		}
	}
}
