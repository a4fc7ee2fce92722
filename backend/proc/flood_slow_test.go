//go:build linux && slow

package proc

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestFlood1GB pushes 1 GB through the PTY, the transcript and a line
// splitter and checks that every byte arrived and memory stayed bounded.
func TestFlood1GB(t *testing.T) {
	const total = 1 << 30
	r := newRunner(t)
	path := filepath.Join(t.TempDir(), "flood.log")
	s := helperSpec(t, newMark(t), "flood", strconv.Itoa(total))
	s.TranscriptPath = path
	lines, lineBytes := 0, 0
	flushing, partial := false, 0 // the unterminated last line, seen by Flush
	sp := NewLineSplitter(func(l []byte) {
		lines++
		lineBytes += len(l) + 1
		if flushing {
			partial = 1
		}
	})
	s.OnChunk = func(b []byte) { _, _ = sp.Write(b) }

	base := vmRSS(t)
	peak := base
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	var sampleErr error // reported by the test goroutine: t.Fatal belongs there
	go func() {
		defer close(sampled)
		for {
			select {
			case <-stopSampling:
				return
			case <-time.After(20 * time.Millisecond):
				rss, err := readRSS()
				if err != nil {
					sampleErr = err
					return
				}
				peak = max(peak, rss)
			}
		}
	}()
	h, err := r.Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	select {
	case <-h.Done():
		res = h.Wait()
	case <-time.After(10 * time.Minute): // a hang guard, not a speed goal
		h.Stop(ReasonStopped)
		t.Fatalf("1 GB flood not done; %d bytes so far", h.Wait().Bytes)
	}
	close(stopSampling)
	<-sampled
	if sampleErr != nil {
		t.Fatalf("sample RSS: %v", sampleErr)
	}
	flushing = true
	sp.Flush()
	if res.Err() != nil || res.Bytes != total {
		t.Fatalf("result %+v", res)
	}
	st, err := os.Stat(path)
	if err != nil || st.Size() != total {
		t.Fatalf("transcript %v %v", st, err)
	}
	// The flood is 100-byte lines; the last one is partial and has no
	// newline, for which the count above adds one.
	// A starved consumer may legitimately drop bytes (never the transcript),
	// but every byte is accounted for: delivered or counted as dropped.
	if delivered := int64(lineBytes - partial); delivered+res.Dropped != total {
		t.Fatalf("consumer got %d bytes and %d were dropped: %d bytes unaccounted of %d", delivered, res.Dropped, total-delivered-res.Dropped, total)
	}
	if res.Dropped == 0 && (lineBytes != total+1 || lines != total/100+1) {
		t.Fatalf("consumer saw %d lines, %d line bytes, nothing dropped, want %d bytes", lines, lineBytes, total)
	}
	growth := peak - base
	t.Logf("1 GB in %s (%.0f MB/s), %d lines, dropped %d, peak RSS growth %d MB",
		res.Duration, float64(total)/res.Duration.Seconds()/1e6, lines, res.Dropped, growth>>20)
	// The race detector's shadow memory multiplies heap cost; the budget
	// is still far below the 1 GB that passed through.
	if growth > 256<<20 {
		t.Fatalf("peak RSS grew by %d MB", growth>>20)
	}
}
