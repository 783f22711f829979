package reconnect

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestTimeoutsDefaultsMatchSpecAndValidate(t *testing.T) {
	d := DefaultTimeouts()
	want := Timeouts{DisconnectedRetry: 15000 * time.Millisecond, SuspendedRetry: 30000 * time.Millisecond,
		ConnectionStateTTL: 120000 * time.Millisecond, RealtimeRequest: 10000 * time.Millisecond,
		HTTPRequest: 10000 * time.Millisecond, HTTPMaxRetryCount: 3}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Fatalf("DefaultTimeouts() mismatch (-want +got):\n%s", diff)
	}
	// The timeouts no engine reads are constants, with the spec's values
	// (TO3l3, TO3l6, TO3l7, TO3l10).
	for _, c := range []struct {
		got, want time.Duration
	}{
		{DefaultHTTPOpen, 4000 * time.Millisecond}, {DefaultHTTPMaxRetryDuration, 15000 * time.Millisecond},
		{DefaultChannelRetry, 15000 * time.Millisecond}, {DefaultFallbackRetry, 600000 * time.Millisecond},
	} {
		if c.got != c.want {
			t.Errorf("a default timeout is %v, the spec's is %v", c.got, c.want)
		}
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	bad := d
	bad.HTTPMaxRetryCount = -1
	if fe, ok := bad.Validate().(*FieldError); !ok || fe.Field != "Timeouts.HTTPMaxRetryCount" {
		t.Fatalf("negative HTTPMaxRetryCount not rejected: %v", bad.Validate())
	}
	bad = d
	bad.HTTPMaxRetryCount = 0
	if err := bad.Validate(); err != nil {
		t.Fatalf("HTTPMaxRetryCount 0 rejected: %v", err)
	}
}

// Every field Validate checks is named, with its value and the spec's
// default.
func TestTimeoutsValidateMessages(t *testing.T) {
	for _, c := range []struct {
		mutate func(*Timeouts)
		want   string
	}{
		{func(t *Timeouts) { t.DisconnectedRetry = 0 }, "reconnect: Timeouts.DisconnectedRetry = 0s: must be positive: the spec's default is 15s"},
		{func(t *Timeouts) { t.SuspendedRetry = -time.Second }, "reconnect: Timeouts.SuspendedRetry = -1s: must be positive: the spec's default is 30s"},
		{func(t *Timeouts) { t.ConnectionStateTTL = 0 }, "reconnect: Timeouts.ConnectionStateTTL = 0s: must be positive: the spec's default is 2m0s"},
		{func(t *Timeouts) { t.RealtimeRequest = 0 }, "reconnect: Timeouts.RealtimeRequest = 0s: must be positive: the spec's default is 10s"},
		{func(t *Timeouts) { t.HTTPRequest = -time.Second }, "reconnect: Timeouts.HTTPRequest = -1s: must be positive: the spec's default is 10s"},
		{func(t *Timeouts) { t.HTTPMaxRetryCount = -1 }, "reconnect: Timeouts.HTTPMaxRetryCount = -1: must not be negative: the spec's default is 3, and 0 tries no fallback host"},
		{func(t *Timeouts) { t.Connect = -time.Millisecond }, "reconnect: Timeouts.Connect = -1ms: must not be negative: 0 means RealtimeRequest (realtimeRequestTimeout), the spec's timeout for it"},
		{func(t *Timeouts) { t.IdleSlack = -time.Second }, "reconnect: Timeouts.IdleSlack = -1s: must not be negative: 0 means RealtimeRequest"},
		{func(t *Timeouts) { t.Closing = -time.Second }, "reconnect: Timeouts.Closing = -1s: must not be negative"},
		{func(t *Timeouts) { t.Renewal = -time.Second }, "reconnect: Timeouts.Renewal = -1s: must not be negative"},
	} {
		to := DefaultTimeouts()
		c.mutate(&to)
		if err := to.Validate(); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Validate:\n got  %v\n want %s", err, c.want)
		}
	}
}

// Each job of realtimeRequestTimeout defaults to it (0) and is replaced
// only for its job; the spec fields are left as they are.
func TestTimeoutsWithDefaults(t *testing.T) {
	d := DefaultTimeouts()
	d.RealtimeRequest = 7 * time.Second
	got := d.WithDefaults()
	want := d
	want.Connect, want.IdleSlack, want.Closing, want.Renewal = 7*time.Second, 7*time.Second, 7*time.Second, 7*time.Second
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("WithDefaults() mismatch (-want +got):\n%s", diff)
	}
	d.Connect, d.Closing = 3*time.Second, time.Millisecond
	got = d.WithDefaults()
	want.Connect, want.Closing = 3*time.Second, time.Millisecond
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("WithDefaults() with two jobs set mismatch (-want +got):\n%s", diff)
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
}
