package engine

import (
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
)

// A negative connectionStateTtl keeps the one in force; the server's
// holds until a fresh connect; a CONNECTED's error becomes LastError and
// an update without one leaves it.
func TestDetailsTTLAndErrors(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cfg := AblyConfig()
	cfg.Transports.HTTP = false
	e, _ := New(cfg)
	out := e.Step(now, Event{Kind: EventConnect}, nil)
	id := openedTransport(out)
	other := reconnect.Failure{Kind: reconnect.FailureOther}
	e.Step(now, Event{Kind: EventTransportConnected, Transport: id, Failure: other, Details: Details{ConnectionStateTTL: 5 * time.Second}}, nil)
	if e.LastError() != other || e.stateTTL() != 5*time.Second {
		t.Fatalf("LastError %v, TTL %v after a CONNECTED with an error and a TTL of 5 s", e.LastError(), e.stateTTL())
	}
	out = e.Step(now, Event{Kind: EventConnectionDetails, Transport: id, Details: Details{ConnectionStateTTL: -time.Second}}, nil)
	if len(out) != 1 || out[0].Kind != ActionUpdate || out[0].From != Connected || out[0].To != Connected {
		t.Fatalf("details while CONNECTED gave %v, want one update from CONNECTED to CONNECTED", out)
	}
	if e.LastError() != other || e.stateTTL() != 5*time.Second {
		t.Fatalf("LastError %v, TTL %v after an update without an error or a TTL", e.LastError(), e.stateTTL())
	}
	e.Step(now, Event{Kind: EventFatal, Failure: other}, nil)
	out = e.Step(now, Event{Kind: EventConnect}, nil)
	e.Step(now, Event{Kind: EventTransportConnected, Transport: openedTransport(out)}, nil)
	if e.stateTTL() != cfg.Timeouts.ConnectionStateTTL || e.LastError() != (reconnect.Failure{}) {
		t.Fatalf("after a fresh connect: TTL %v, LastError %v", e.stateTTL(), e.LastError())
	}
}
