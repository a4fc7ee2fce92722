package proc

import (
	"testing"
	"time"
)

func TestSmoke(t *testing.T) {
	r := newRunner(t)
	mark := newMark(t)
	x := start(t, r, shSpec(t, mark, "printf 'a\\nb\\n'; exit 3"))
	res := wait(t, x.h)
	if got := x.output(); got != "a\nb\n" {
		t.Fatalf("output %q", got)
	}
	if res.ExitCode != 3 || res.Reason != ReasonNone {
		t.Fatalf("result %+v", res)
	}
	_ = time.Second
}
