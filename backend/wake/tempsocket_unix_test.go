//go:build unix

package wake

import (
	"strings"
	"testing"
)

// On macOS (no abstract names; sun_path of 104 bytes) the socket of a data
// root too deep to bind is a file in the per-user temporary folder: short
// enough to bind, one per path, and in /tmp when even that folder is too
// long. Before, the Linux abstract name was used there too, which macOS
// takes as a relative file named "@boof-runner-wake-…".
func TestTempSocketName(t *testing.T) {
	macTmp := "/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/"
	a := tempSocketName(macTmp, "/Users/ann/"+strings.Repeat("deep/", 30)+"wake.sock")
	b := tempSocketName(macTmp, "/Users/bob/"+strings.Repeat("deep/", 30)+"wake.sock")
	if a == b || !strings.HasPrefix(a, "/var/folders/") || len(a) > 103 || strings.Contains(a, "@") {
		t.Fatalf("names %q and %q", a, b)
	}
	if a != tempSocketName(macTmp, "/Users/ann/"+strings.Repeat("deep/", 30)+"wake.sock") {
		t.Fatal("the same path gave another name")
	}
	long := tempSocketName("/"+strings.Repeat("t", 100), "/x/wake.sock")
	if !strings.HasPrefix(long, "/tmp/boof-runner-wake-") || len(long) > 103 {
		t.Fatalf("with a temporary folder too long: %q", long)
	}
}
