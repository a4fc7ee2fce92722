// Package frontend embeds the built Svelte front end (dist/) for the desktop
// window. Only a build with the desktop tag embeds it (and needs `npm run
// build` first); without the tag Assets is empty, so `go build`, `go vet` and
// `go test` work on a checkout with no built front end.
package frontend
