package secrets_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/boof-runner/boof-runner/backend/secrets"
)

// recorded returns the recorded output of the real CLIs in testdata: every
// claude and codex stream.jsonl and the raw PTY transcripts.
func recorded(tb testing.TB) []byte {
	tb.Helper()
	var all []byte
	for _, pat := range []string{"claude/*/stream.jsonl", "codex/*/stream.jsonl", "claude/*/transcript.raw", "codex/*/transcript.raw"} {
		files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", pat))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			all = append(all, b...)
		}
	}
	if len(all) < 10000 {
		tb.Fatalf("recorded output: %d bytes", len(all))
	}
	return all
}

// TestRecordedOutputUnchanged: the real CLIs' recorded output holds no
// secret, and scrubbing leaves it byte for byte as it is (no false
// positive breaks a stream the adapters parse).
func TestRecordedOutputUnchanged(t *testing.T) {
	for _, line := range bytes.SplitAfter(recorded(t), []byte("\n")) {
		if got, n := secrets.Default().ScrubBytes(line); n != 0 {
			t.Errorf("changed %q\n     to %q", line, got)
		}
	}
}

// BenchmarkScrubRecorded measures scrubbing throughput on the recorded
// stream-json output of claude and codex (b.SetBytes: MB/s), through the
// Stream as the process runner uses it, in 64 KiB reads.
func BenchmarkScrubRecorded(b *testing.B) {
	one := recorded(b)
	data := bytes.Repeat(one, max(1, (4<<20)/len(one)))
	m := secrets.Default()
	b.Run("stream", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			s := m.NewStream()
			for i := 0; i < len(data); i += 64 << 10 {
				s.Write(data[i:min(len(data), i+64<<10)])
			}
			s.Flush()
		}
	})
	b.Run("bytes", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			m.ScrubBytes(data)
		}
	})
}

// BenchmarkScrubLine is the cost of one typical agent line.
func BenchmarkScrubLine(b *testing.B) {
	lines := bytes.Split(recorded(b), []byte("\n"))
	m := secrets.Default()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m.ScrubBytes(lines[i%len(lines)])
	}
}

// BenchmarkCompile measures compiling the built-in rule set (what the
// first scrub of a process pays).
func BenchmarkCompile(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := secrets.Compile(); err != nil {
			b.Fatal(err)
		}
	}
}
