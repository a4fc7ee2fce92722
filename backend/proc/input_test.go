//go:build linux

package proc

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"testing"
)

func TestWriteLargeInputArrivesIntact(t *testing.T) {
	payload := make([]byte, 1<<20)
	_, _ = rand.Read(payload) // every byte value, control bytes included
	sum := sha256.Sum256(payload)
	want := fmt.Sprintf("%s %d\n", hex.EncodeToString(sum[:]), len(payload))
	for _, mode := range []StdinMode{StdinPipe, StdinPTY} {
		t.Run(mode.String(), func(t *testing.T) {
			r := newRunner(t)
			var args []string
			if mode == StdinPTY {
				args = []string{strconv.Itoa(len(payload))}
			}
			s := helperSpec(t, newMark(t), "hash", args...)
			s.Stdin = mode
			x := start(t, r, s)
			n, err := x.h.Write(payload)
			if err != nil || n != len(payload) {
				t.Fatalf("write %d %v", n, err)
			}
			if mode == StdinPipe {
				if err := x.h.CloseInput(); err != nil {
					t.Fatal(err)
				}
				if err := x.h.CloseInput(); err != nil {
					t.Fatalf("second CloseInput: %v", err)
				}
			} else if err := x.h.CloseInput(); !errors.Is(err, ErrNoEOF) {
				t.Fatalf("CloseInput on pty: %v", err)
			}
			res := wait(t, x.h)
			if res.Err() != nil || x.output() != want {
				t.Fatalf("result %+v output %q want %q", res, x.output(), want)
			}
			if _, err := x.h.Write([]byte("late")); !errors.Is(err, ErrInputClosed) {
				t.Fatalf("write after end: %v", err)
			}
		})
	}
}

func TestNullStdinRefusesInput(t *testing.T) {
	r := newRunner(t)
	h, err := r.Start(context.Background(), shSpec(t, newMark(t), `true`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Write([]byte("x")); !errors.Is(err, ErrNoInput) {
		t.Fatalf("write: %v", err)
	}
	if err := h.CloseInput(); !errors.Is(err, ErrNoInput) {
		t.Fatalf("close: %v", err)
	}
	wait(t, h)
}
