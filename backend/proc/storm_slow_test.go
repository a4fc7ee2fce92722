//go:build linux && slow

package proc

import "testing"

// TestStopForkStorm200 is slow only because fork+exec of 200 sleepers
// takes seconds on small CI machines.
func TestStopForkStorm200(t *testing.T) {
	testStopTrees(t, []hostile{{
		"fork-storm-200",
		func(t *testing.T, m string) Spec { return stormSpec(t, m, 200) },
		[]string{"ready"}, 201,
	}})
}
