package engine

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
)

// openedTransport returns the ID of the last transport opened in out.
func openedTransport(out []Action) TransportID {
	var id TransportID
	for _, a := range out {
		if a.Kind == ActionOpenTransport {
			id = a.Transport
		}
	}
	return id
}

// askedCheck returns the ID of the last check asked for in out.
func askedCheck(out []Action) CheckID {
	var id CheckID
	for _, a := range out {
		if a.Kind == ActionCheckConnectivity || a.Kind == ActionCheckWebSocket {
			id = a.Check
		}
	}
	return id
}

// BenchmarkEngineStep measures one Step in steady state: a connected client
// whose transport drops and reconnects (drop, viable, connected), two
// seconds apart so that every drop reconnects at once. ns/op is per Step.
func BenchmarkEngineStep(b *testing.B) {
	b.ReportAllocs()
	cfg := AblyConfig()
	cfg.Source = rand.New(rand.NewPCG(1, 2))
	e, _ := New(cfg)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	out := make([]Action, 0, 32)
	out = e.Step(now, Event{Kind: EventConnect}, out[:0])
	id := openedTransport(out)
	out = e.Step(now, Event{Kind: EventTransportConnected, Transport: id}, out[:0])
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		switch i % 3 {
		case 0:
			now = now.Add(2 * time.Second)
			out = e.Step(now, Event{Kind: EventTransportClosed, Transport: id}, out[:0])
			id = openedTransport(out)
		case 1:
			out = e.Step(now, Event{Kind: EventTransportViable, Transport: id}, out[:0])
		case 2:
			out = e.Step(now, Event{Kind: EventTransportConnected, Transport: id}, out[:0])
		}
	}
}

// BenchmarkEngineConnectWithFallback measures a whole connection per op:
// connect, the websocket refused, HTTP on the primary refused, the
// connectivity check, HTTP on a fallback host connects (and an upgrade
// websocket opens), then close.
func BenchmarkEngineConnectWithFallback(b *testing.B) {
	b.ReportAllocs()
	cfg := AblyConfig()
	cfg.Source = rand.New(rand.NewPCG(1, 2))
	e, _ := New(cfg)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	out := make([]Action, 0, 32)
	refused := reconnect.Failure{Kind: reconnect.FailureRefused}
	for i := 0; i < b.N; i++ {
		now = now.Add(time.Second)
		out = e.Step(now, Event{Kind: EventConnect}, out[:0])
		out = e.Step(now, Event{Kind: EventTransportFailed, Transport: openedTransport(out), Failure: refused}, out[:0])
		out = e.Step(now, Event{Kind: EventTransportFailed, Transport: openedTransport(out), Failure: refused}, out[:0])
		out = e.Step(now, Event{Kind: EventConnectivity, Check: askedCheck(out), Up: true}, out[:0])
		http := openedTransport(out)
		out = e.Step(now, Event{Kind: EventTransportConnected, Transport: http}, out[:0])
		out = e.Step(now, Event{Kind: EventClose}, out[:0])
		out = e.Step(now, Event{Kind: EventTransportClosed, Transport: http}, out[:0])
		if e.State() != Closed {
			b.Fatalf("state %v", e.State())
		}
	}
}
