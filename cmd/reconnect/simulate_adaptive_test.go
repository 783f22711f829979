package main

import (
	"strings"
	"testing"
)

// simulate adaptive prints a table per profile and the mix's last; behind
// a blackholing proxy the rule (3 × a dial of about 100 ms, floor 250 ms)
// is far ahead of a fixed 2 s, and with its floor at the ceiling it is the
// fixed timer itself.
func TestSimulateAdaptiveTables(t *testing.T) {
	out, errOut, status := runCLI("simulate", "adaptive", "--clients", "50", "--ceilings", "250ms,2s", "--multiples", "3", "--floors", "250ms",
		"--profiles", "healthy,proxy-blackholes-websocket", "--horizon", "1m")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{
		"healthy (best fixed timer", "proxy-blackholes-websocket (best fixed timer 250ms)", "mix (best fixed timer",
		"| 250ms | 3 × rtt, floor 250ms |", "| 2s | fixed | 22", "| +0 [+0, +0] |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, args := range [][]string{{"--multiples", "0.5"}, {"--floors", "-1s"}, {"--ceilings", "0s"}, {"--clients", "0"}, {"--profiles", "nowhere"}} {
		_, errOut, status := runCLI(append([]string{"simulate", "adaptive"}, args...)...)
		if status != 2 || !strings.Contains(errOut, args[0]) {
			t.Errorf("%v: status %d, stderr %q; want 2 naming %s", args, status, errOut, args[0])
		}
	}
}
