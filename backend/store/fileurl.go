package store

import (
	"net/url"
	"path/filepath"
)

// fileURL is the SQLite URI of the database file at path (both opens build
// their DSN from it). A path with a drive letter (C:\…) becomes
// file:///C:/…, the form SQLite takes there: as a bare url.URL path its
// drive was read as the URI's authority and every open failed ("invalid
// uri authority"). A UNC path keeps its slashes (file://///server/share/…,
// not tried). Paths without a volume name are unchanged.
func fileURL(path string) url.URL {
	if filepath.VolumeName(path) == "" {
		return url.URL{Scheme: "file", Path: path}
	}
	return url.URL{Scheme: "file", Path: "/" + filepath.ToSlash(path)}
}
