package reconnect

import (
	"testing"
	"time"
)

// TestUTS is the test of the Ably specification's Universal Test
// Specifications that the root owns and no fixture area holds
// (conformance/uts/catalogue.json): the default timeouts. Its subtest is
// named after the UTS ID; ref is the test's <file>#<id>, which
// docs/conformance.md counts. The expected values are the UTS test's
// assertions.
func TestUTS(t *testing.T) {
	const ref = "uts/realtime/unit/client/realtime_timeouts.md#realtime/unit/RTC7/default-timeouts-applied-3"
	t.Run("realtime/unit/RTC7/default-timeouts-applied-3", func(t *testing.T) {
		d := DefaultTimeouts()
		for _, c := range []struct {
			name      string
			got, want time.Duration
		}{
			{"realtimeRequestTimeout", d.RealtimeRequest, 10000 * time.Millisecond},
			{"disconnectedRetryTimeout", d.DisconnectedRetry, 15000 * time.Millisecond},
			{"suspendedRetryTimeout", d.SuspendedRetry, 30000 * time.Millisecond},
			{"httpOpenTimeout", DefaultHTTPOpen, 4000 * time.Millisecond},
			{"httpRequestTimeout", d.HTTPRequest, 10000 * time.Millisecond},
		} {
			if c.got != c.want {
				t.Errorf("%s (%s): %v, want %v", c.name, ref, c.got, c.want)
			}
		}
	})
}
