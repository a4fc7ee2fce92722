//go:build linux

package proc

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func TestStopTwiceConcurrently(t *testing.T) {
	r := newRunner(t)
	mark := newMark(t)
	s := helperSpec(t, mark, "ignore-term")
	s.Grace = 200 * time.Millisecond
	x := start(t, r, s)
	x.waitFor(t, "ready")
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x.h.Stop(ReasonStopped)
			x.h.Stop(ReasonShutdown)
		}()
	}
	wg.Wait()
	a, b := wait(t, x.h), x.h.Wait()
	if a != b || a.Reason != ReasonStopped || a.Signal != "killed" {
		t.Fatalf("results %+v %+v", a, b)
	}
	assertGone(t, mark, nil)
}

func TestStopAfterExit(t *testing.T) {
	r := newRunner(t)
	x := start(t, r, shSpec(t, newMark(t), `echo bye`))
	first := wait(t, x.h)
	x.h.Stop(ReasonStopped)
	x.h.Stop(ReasonStopped)
	if second := x.h.Wait(); second != first || second.Reason != ReasonNone || second.Err() != nil {
		t.Fatalf("after stop %+v, before %+v", second, first)
	}
}

// TestStopDuringSpawn stops children before they had time to set up
// anything (signal handlers, escapees).
func TestStopDuringSpawn(t *testing.T) {
	for _, role := range []string{"ignore-term", "escapee", "daemon"} {
		t.Run(role, func(t *testing.T) {
			r := newRunner(t)
			mark := newMark(t)
			s := helperSpec(t, mark, role)
			s.Grace = 200 * time.Millisecond
			h, err := r.Start(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			h.Stop(ReasonStopped)
			if res := wait(t, h); res.Reason != ReasonStopped {
				t.Fatalf("result %+v", res)
			}
			assertGone(t, mark, nil)
		})
	}
}

// TestShutdownRacesStart starts children while the runner shuts down:
// every Start either fails with ErrRunnerClosed or yields a handle that
// Shutdown stops.
func TestShutdownRacesStart(t *testing.T) {
	r := NewRunner(RunnerOptions{})
	mark := newMark(t)
	var handles []*Handle
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			s := shSpec(t, mark, `trap '' TERM; sleep 1000`)
			s.Grace = 100 * time.Millisecond
			h, err := r.Start(context.Background(), s)
			if errors.Is(err, ErrRunnerClosed) {
				return
			}
			if err != nil {
				t.Errorf("start: %v", err)
				return
			}
			handles = append(handles, h)
		}
	}()
	time.Sleep(200 * time.Millisecond) // let a few start; not a threshold
	r.Shutdown(100 * time.Millisecond)
	<-done
	// Handles started after Shutdown's snapshot cannot exist: Start checks
	// closed under the same lock that registers them.
	for _, h := range handles {
		select {
		case <-h.Done():
		default:
			t.Fatalf("handle %d alive after Shutdown", h.Pid())
		}
	}
	if len(handles) == 0 {
		t.Fatal("no handle started")
	}
	assertGone(t, mark, nil)
}

func TestStopRacesNaturalExit(t *testing.T) {
	r := newRunner(t)
	for i := 0; i < 10; i++ {
		x := start(t, r, shSpec(t, newMark(t), `exit 0`))
		x.h.Stop(ReasonStopped)
		res := wait(t, x.h)
		switch {
		case res.Reason == ReasonNone && res.Err() == nil:
		case res.Reason == ReasonStopped && errors.Is(res.Err(), ErrStopped):
		default:
			t.Fatalf("result %+v err %v", res, res.Err())
		}
	}
}
