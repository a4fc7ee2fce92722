package wake

import "errors"

// ErrNoListener is Poke's error when nothing listens on the wake-up
// socket: no runner, or a stale socket file a crashed runner left.
var ErrNoListener = errors.New("no runner listens on the wake-up socket")
