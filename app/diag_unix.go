//go:build unix

package app

import (
	"os"
	"os/signal"
	"syscall"
)

// notifyProbe relays SIGUSR2 (a screen probe's request) to sig.
func notifyProbe(sig chan<- os.Signal) { signal.Notify(sig, syscall.SIGUSR2) }
