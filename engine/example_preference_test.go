package engine

import (
	"fmt"
	"time"

	"github.com/reconnect-go/reconnect"
)

// An SDK persists Engine.Preference after a connection and hands it to the
// next engine (the next process): behind a proxy that refuses websockets,
// the next connection starts on HTTP at once.
func ExampleEngine_Preference() {
	cfg := AblyConfig()
	cfg.Policy = PolicyWebSocketCheck
	cfg.Endpoint.Endpoint = "rt.example.com"
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	e, _ := New(cfg)
	opened := func(acts []Action) (id TransportID) {
		for _, a := range acts {
			if a.Kind == ActionOpenTransport {
				fmt.Println("open", a.TransportKind)
				id = a.Transport
			}
		}
		return id
	}
	ws := opened(e.Step(now, Event{Kind: EventConnect}, nil))
	// Every host refused the websocket: the engine asks for a websocket
	// check, whose answer carries the check's ID back.
	var check CheckID
	for _, a := range e.Step(now, Event{Kind: EventTransportFailed, Transport: ws, Failure: reconnect.Failure{Kind: reconnect.FailureRefused}}, nil) {
		if a.Kind == ActionCheckWebSocket {
			check = a.Check
		}
	}
	http := opened(e.Step(now, Event{Kind: EventWebSocketCheck, Check: check, Up: false}, nil))
	e.Step(now, Event{Kind: EventTransportConnected, Transport: http}, nil)
	saved, _ := e.Preference().MarshalText()
	fmt.Printf("persist %q\n", saved)

	// The next process.
	_ = cfg.Preference.UnmarshalText(saved)
	next, _ := New(cfg)
	opened(next.Step(now.Add(time.Hour), Event{Kind: EventConnect}, nil))
	// Output:
	// open websocket
	// open http
	// persist "v1 http 1767258000000 connected"
	// open http
}
