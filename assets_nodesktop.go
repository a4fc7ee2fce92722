//go:build !desktop

package main

import (
	"io/fs"
	"testing/fstest"
)

// assets is empty without the desktop build tag: such a binary is the headless
// CLI (and what `go test`/`go vet` compile); Wails itself refuses to open a
// window without its tags.
var assets fs.FS = fstest.MapFS{}
