package cli

import (
	"context"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
)

// exitCode ends a command with a given exit code, having printed what it
// had to say itself.
type exitCode int

func (e exitCode) Error() string { return "exit " + strconv.Itoa(int(e)) }

// signalExit is the exit code of a command a signal ended: 128 + the
// signal's number (130 for SIGINT, 143 for SIGTERM), what a shell reports
// for a process the signal killed, so a script can tell.
func signalExit(s syscall.Signal) exitCode { return exitCode(128 + int(s)) }

// signalWatch ends a command's context at the first SIGINT, SIGTERM or
// SIGHUP (a closed terminal) and remembers which one. The command watches
// for itself, whatever context its caller gave it (which may end on the
// same signal first), so it knows which signal stopped it.
type signalWatch struct {
	ch     chan os.Signal
	cancel context.CancelFunc
	done   chan struct{}
	wg     sync.WaitGroup
	once   sync.Once
	got    syscall.Signal
}

// watchSignals starts watching; call stop when the command is over.
func watchSignals(parent context.Context) (context.Context, *signalWatch) {
	ctx, cancel := context.WithCancel(parent)
	w := &signalWatch{ch: make(chan os.Signal, 1), cancel: cancel, done: make(chan struct{})}
	signal.Notify(w.ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		select {
		case s := <-w.ch:
			w.got = toSignal(s)
			cancel()
		case <-w.done:
		}
	}()
	return ctx, w
}

// stop ends the watch and returns the signal that arrived, 0 for none. A
// signal the process received before stop is never missed: signal.Stop
// returns only once every signal received has been delivered to the
// channel. It may be called more than once.
func (w *signalWatch) stop() syscall.Signal {
	w.once.Do(func() {
		signal.Stop(w.ch)
		close(w.done)
		w.wg.Wait()
		if w.got == 0 {
			select {
			case s := <-w.ch:
				w.got = toSignal(s)
			default:
			}
		}
		w.cancel()
	})
	return w.got
}

func toSignal(s os.Signal) syscall.Signal {
	if ss, ok := s.(syscall.Signal); ok {
		return ss
	}
	return syscall.SIGINT // os.Interrupt is a syscall.Signal on every OS Go supports
}

// sigName names the signals a command watches as a user knows them.
func sigName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}
