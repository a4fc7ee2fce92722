package task

import (
	"bytes"
	"crypto/rand"
	"sort"
	"testing"
	"time"
)

func TestNewIDSortsByTimeAndIsValid(t *testing.T) {
	base := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	var ids []string
	for i := 0; i < 200; i++ {
		id, err := NewID(base.Add(time.Duration(i)*time.Millisecond), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if !ValidID(id) {
			t.Fatalf("NewID produced invalid id %q", id)
		}
		ids = append(ids, id)
	}
	if !sort.StringsAreSorted(ids) {
		t.Fatalf("ids not sorted by creation time: %v", ids[:5])
	}
}

func TestNewIDEntropyError(t *testing.T) {
	if _, err := NewID(time.Now(), bytes.NewReader(nil)); err == nil {
		t.Fatal("want error on empty entropy")
	}
}

func TestValidID(t *testing.T) {
	for _, bad := range []string{"", "../../etc/passwd", "0123456789ABCDEF", "0123456789abcdeu", "0123456789abcde", "-123456789abcdef"} {
		if ValidID(bad) {
			t.Errorf("ValidID(%q) = true", bad)
		}
	}
}
