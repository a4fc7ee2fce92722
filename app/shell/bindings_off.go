//go:build !bindings

package shell

// bindingsBuild is false in every real build (see bindings.go).
const bindingsBuild = false
