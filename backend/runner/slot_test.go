package runner

import "testing"

func TestSlotReleaseIsIdempotent(t *testing.T) {
	freed := 0
	s := &slot{free: func() { freed++ }}
	s.release()
	s.release()
	if freed != 1 {
		t.Fatalf("slot freed %d times", freed)
	}
}
