package main

import (
	"strings"
	"testing"
)

const sample = `goos: linux
BenchmarkOrchestrationOverhead-2   	       3	 512000000 ns/op	       512.0 pipeline-ms/op	       1.25 ratio	       409.6 script-ms/op
BenchmarkStopLatency/cooperative-2 	      10	         0 ns/op	         7.000 ms/stop
BenchmarkStopLatency/hostile-grace-1s-2	       3	         0 ns/op	      1037 ms/stop
BenchmarkHeadlessCommand/list 20 11.00 ms/command 10.00 ms/headless-only 80.00 ms/desktop-binary 1.100 ratio 8.000 desktop-ratio
BenchmarkThroughput-2 	1	9 ns/op	900 raw-MB/s	783 runner-MB/s	0.87 ratio	0.86 ratio-of-totals	1.4 peak-RSS-growth-MB
--- FAIL: BenchmarkBroken
ok  	github.com/boof-runner/boof-runner/backend/proc	12.3s
`

// The table reads each row's metric from its benchmark, applies the offset,
// compares it with the goal in the right direction, and marks rows whose
// benchmark did not run as not measured.
func TestTable(t *testing.T) {
	res, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if got := res["BenchmarkStopLatency/hostile-grace-1s"]["ms/stop"]; got != 1037 {
		t.Fatalf("hostile ms/stop = %v (suffix not stripped?)", got)
	}
	out := render(rows, res)
	for _, want := range []string{
		"| P1 | 5-step mock task ÷ the same git and process work in a shell script | 512 pipeline-ms/op, 410 script-ms/op | 1.25 × | ≤ 1.10 × | no |",
		"| K1 | stop of a cooperative step, in process | 7.00 ms/stop | 7.00 ms | ≤ 100 ms | yes |",
		"| K2 | stop of a hostile step, in process (grace 1 s) | 1037 ms/stop | 37.0 ms over grace | ≤ 150 ms over grace | yes |",
		"| K3 | 200 MB streamed through the runner ÷ raw PTY read (rate; median of the alternated pairs' ratios) | 783 runner-MB/s, 900 raw-MB/s, 0.86 ratio-of-totals | 0.87 × | ≥ 0.80 × | yes |",
		"| P6a | headless `list` of the installed command ÷ a binary built without the desktop tag (medians of 30 alternated runs) | 11.0 ms/command, 10.0 ms/headless-only, 80.0 ms/desktop-binary | 1.10 × | ≤ 1.20 × | yes |",
		"| P6a0 | the same `list` through the window binary ÷ the baseline (what `boof-runner list` cost before the split) | 80.0 ms/desktop-binary, 10.0 ms/headless-only | 8.00 × | — | (context) |",
		"| P8 | squash accept of 1,000 commits ÷ raw git, target not checked out | — | — | ≤ 1.10 × | not measured |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "5 rows hold, 1 do not, ") {
		t.Errorf("summary wrong:\n%s", out)
	}
}
