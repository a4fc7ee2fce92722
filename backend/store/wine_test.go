package store

import (
	"os"
	"testing"
)

// skipUnderWine skips t in the Windows test run under Wine 8
// (scripts/wine/test.sh sets BOOF_WINE), for what Wine does not do as
// Windows does; why is the reason the run prints.
func skipUnderWine(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("BOOF_WINE") != "" {
		t.Skip("under Wine 8: " + why)
	}
}
