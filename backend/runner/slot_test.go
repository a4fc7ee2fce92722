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

func TestLivePidsSkipsGoneAndInit(t *testing.T) {
	if got := livePids([]int{0, 1, -5, 1 << 22}); len(got) != 0 {
		t.Fatalf("livePids = %v", got)
	}
}
