package wake

// maxPath is the longest socket path Linux binds (sun_path, 108 bytes,
// less its terminating NUL).
const maxPath = 107

// longName is the address of a socket path Linux cannot bind: an abstract
// name made from its hash (both sides derive the same one; it leaves no
// file).
func longName(path string) string { return "@boof-runner-wake-" + pathHash(path, 16) }
