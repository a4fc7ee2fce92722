//go:build linux

package proc

import "testing"

func TestParseStat(t *testing.T) {
	line := "1234 (weird) name (x)) S 1 1234 1234 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 0 0\n"
	p, err := parseStat([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if p.pid != 1234 || p.ppid != 1 || p.pgid != 1234 || p.sid != 1234 || p.start != 987654 || p.zombie {
		t.Fatalf("parsed %+v", p)
	}
	for _, bad := range []string{"", "12 (x", "x (y) S 1 2 3", "1 (c) Z 1 2 3 4"} {
		if _, err := parseStat([]byte(bad)); err == nil {
			t.Errorf("parseStat(%q) succeeded", bad)
		}
	}
}
