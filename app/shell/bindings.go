//go:build bindings

package shell

// bindingsBuild is true in the binary `wails generate module` builds (tag
// bindings) and runs only to read the bound methods: it must not open, lock
// or migrate anyone's data root, so it runs on a temporary one.
const bindingsBuild = true
