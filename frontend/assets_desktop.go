//go:build desktop

package frontend

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Assets returns the built front end (frontend/dist), served to the window.
func Assets() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil { // only for an invalid name, which "dist" is not
		panic(err)
	}
	return sub
}
