// Package wake makes controls arrive at once. Signal is an in-process
// broadcast (the runner loop and every running step's control watch wait
// on it next to their poll); Listener is the data root's wake-up socket,
// a unix datagram socket the runner binds (on Windows, which has no unix
// datagrams, a named event: event_windows.go), and Poke is how another process
// (a headless command, a window that does not run the queue) rings it
// after it changed the store. The store stays the only truth: a poke
// carries nothing, so a poke lost (no runner, a stale socket, a full
// buffer) only means the change is seen at the next poll, and a poke
// twice applies nothing twice.
package wake

import "sync"

// Signal is a broadcast wake-up: Next returns a channel that Fire closes.
// The zero value is ready; it is safe for concurrent use.
type Signal struct {
	mu sync.Mutex
	ch chan struct{}
}

// Next returns the channel the next Fire closes. Take it before looking
// at the store, then wait on it: a Fire in between is not missed.
func (s *Signal) Next() <-chan struct{} {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

// Fire wakes every waiter of the channels Next returned so far.
func (s *Signal) Fire() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
}
