//go:build slow

package pipeline

import "testing"

// TestGateRulesAll plays every row of the gate rules not covered by TestGateRulesQuick.
func TestGateRulesAll(t *testing.T) {
	runGateCases(t, func(c gateCase) bool { return !c.quick })
}
