package peers

import (
	"testing"
	"time"
)

func TestParseNodeLine(t *testing.T) {
	e, ok := parseNodeLine([]byte(`{"t":1700000000123.5,"c":4,"e":"disconnect","reason":"ping timeout"}`))
	if !ok || e.Client != 4 || e.What != EventDisconnect || e.Detail != "ping timeout" ||
		!e.At.Equal(time.UnixMicro(1700000000123500)) {
		t.Fatalf("parsed %+v, %v", e, ok)
	}
	for _, bad := range []string{`{"event":"listening","port":1}`, `not json`, `{"t":1,"e":"start"}`, `{"t":0,"c":1,"e":"start"}`, `{"t":1,"c":1}`} {
		if _, ok := parseNodeLine([]byte(bad)); ok {
			t.Errorf("%s parsed as an event", bad)
		}
	}
}

// A message counts from the later of its arrival and the client's first
// connect in the span; one before the span, or without a connect, does
// not count.
func TestFirstMessage(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	events := []Event{
		{At: at(0), Client: 1, What: EventStart},
		{At: at(5), Client: 1, What: EventMessage, Transport: "http"}, // before the connect is reported
		{At: at(7), Client: 1, What: EventConnect, Transport: "http"},
		{At: at(9), Client: 2, What: EventMessage, Transport: "websocket"}, // no connect: not delivered
		{At: at(100), Client: 1, What: EventConnect, Transport: "websocket"},
		{At: at(101), Client: 1, What: EventMessage, Transport: "websocket"},
	}
	if got, tr, ok := firstMessage(events, 1, t0); !ok || !got.Equal(at(7)) || tr != "http" {
		t.Fatalf("client 1 from 0: %v %q %v, want 7ms http", got.Sub(t0), tr, ok)
	}
	if got, _, ok := firstMessage(events, 1, at(50)); !ok || !got.Equal(at(101)) {
		t.Fatalf("client 1 from 50ms: %v %v, want 101ms", got.Sub(t0), ok)
	}
	if _, _, ok := firstMessage(events, 2, t0); ok {
		t.Fatal("client 2 has a message without a connect")
	}
}

// measure turns events into per-client times, Never for a client with
// nothing in the window, and detection times for a fault after
// connected.
func TestMeasure(t *testing.T) {
	t0 := time.Unix(2000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	c := Cell{Fault: Drop, Kind: SocketIOPolling, Clients: 3, Start: t0, FaultAt: at(1000), Window: time.Second, Traffic: newTraffic()}
	c.Events = []Event{
		{At: at(1002), Client: 0, What: EventDisconnect},
		{At: at(1500), Client: 0, What: EventConnect, Transport: "polling"},
		{At: at(1501), Client: 0, What: EventMessage, Transport: "polling"},
		{At: at(1900), Client: 0, What: EventUpgrade, Transport: "websocket"},
		{At: at(1003), Client: 1, What: EventDisconnect},
		{At: at(2500), Client: 1, What: EventConnect}, // after the window
		{At: at(2501), Client: 1, What: EventMessage},
	}
	c.Traffic.socket(0, at(1400))
	c.Traffic.request(0, at(1400))
	c.Traffic.bytes(0, at(1400), 300)
	c.Traffic.socket(0, at(900)) // before the fault: not counted
	res := measure(c, 500*time.Millisecond)
	want := []time.Duration{501 * time.Millisecond, Never, Never}
	for i, w := range want {
		if res.Times[i] != w {
			t.Fatalf("times %v, want %v", res.Times, want)
		}
	}
	if res.Detect[0] != 2*time.Millisecond || res.Detect[1] != 3*time.Millisecond || res.Detect[2] != Never {
		t.Fatalf("detect %v", res.Detect)
	}
	if res.Reached() != 1 || res.Transports["polling"] != 1 || res.Upgrades != 1 {
		t.Fatalf("reached %d, transports %v, upgrades %d", res.Reached(), res.Transports, res.Upgrades)
	}
	if res.Usage[0] != (Usage{Sockets: 1, Requests: 1, Bytes: 300}) {
		t.Fatalf("usage %+v", res.Usage[0])
	}
}
