package proc

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// The outbox delivers every byte pushed, in order, in blocks of at most
// outBlock, across pushes smaller and larger than a block; the blocks a
// burst needed are kept for reuse only up to keepBlocks.
func TestOutboxDeliversEveryByteInOrderInBoundedBlocks(t *testing.T) {
	o := newOutbox(64 << 20)
	var got bytes.Buffer
	biggest := 0
	go o.run(func(b []byte) {
		got.Write(b)
		biggest = max(biggest, len(b))
	})
	rng := rand.New(rand.NewPCG(1, 2))
	var want bytes.Buffer
	for _, n := range []int{1, 100, outBlock - 1, 2, outBlock, 3*outBlock + 7, 0, 5, 40 * outBlock} {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(rng.IntN(256))
		}
		want.Write(p)
		o.push(p)
	}
	o.close()
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("delivered %d bytes, pushed %d, or out of order", got.Len(), want.Len())
	}
	if biggest > outBlock {
		t.Fatalf("a call got %d bytes, more than a block (%d)", biggest, outBlock)
	}
	if o.dropped.Load() != 0 {
		t.Fatalf("dropped %d", o.dropped.Load())
	}
	if len(o.free) > keepBlocks {
		t.Fatalf("%d free blocks kept, at most %d", len(o.free), keepBlocks)
	}
}

// While the consumer is stuck, what does not fit the backlog is dropped
// for it and counted; what fit is delivered once it returns.
func TestOutboxDropsBeyondTheBacklogAndCountsIt(t *testing.T) {
	const limit = 3*outBlock + 10
	o := newOutbox(limit)
	release := make(chan struct{})
	first := make(chan struct{})
	var got bytes.Buffer
	calls := 0
	go o.run(func(b []byte) {
		if calls == 0 {
			close(first)
			<-release
		}
		calls++
		got.Write(b)
	})
	o.push([]byte("a")) // taken by the consumer, which then blocks
	<-first
	p := bytes.Repeat([]byte("0123456789"), outBlock/5) // 2 blocks
	o.push(p)
	o.push(p) // only limit-2 blocks of it fit
	o.push([]byte("late"))
	close(release)
	o.close()
	want := "a" + string(p) + string(p[:limit-len(p)])
	if got.String() != want {
		t.Fatalf("delivered %d bytes, want %d", got.Len(), len(want))
	}
	if d := o.dropped.Load(); d != int64(2*len(p)+4-limit) {
		t.Fatalf("dropped %d, want %d", d, 2*len(p)+4-limit)
	}
}
