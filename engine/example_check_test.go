package engine_test

import (
	"fmt"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// Every check carries an ID that its answer returns. A check that outlives
// its attempt (here the OS reports the network down while the first
// attempt's connectivity check hangs, and the reconnect that follows,
// RTN20a, starts a new attempt) answers late; the engine ignores that
// answer and waits for the answer of the current attempt's own check.
func ExampleCheckID() {
	cfg := engine.AblyConfig()
	cfg.Source = fixedSource(0)
	e, _ := engine.New(cfg)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var opened engine.TransportID
	var asked engine.CheckID
	step := func(ev engine.Event) {
		for _, a := range e.Step(now, ev, nil) {
			switch a.Kind {
			case engine.ActionOpenTransport:
				opened = a.Transport
				fmt.Println(a)
			case engine.ActionCheckConnectivity:
				asked = a.Check // the SDK keeps it with its request
				fmt.Println(a)
			case engine.ActionStateChange:
				fmt.Println(a)
			}
		}
	}
	refused := reconnect.Failure{Kind: reconnect.FailureRefused}
	step(engine.Event{Kind: engine.EventConnect})
	step(engine.Event{Kind: engine.EventTransportFailed, Transport: opened, Failure: refused}) // the websocket
	step(engine.Event{Kind: engine.EventTransportFailed, Transport: opened, Failure: refused}) // HTTP
	first := asked
	step(engine.Event{Kind: engine.EventNetworkDown})
	step(engine.Event{Kind: engine.EventTransportFailed, Transport: opened, Failure: refused})
	step(engine.Event{Kind: engine.EventTransportFailed, Transport: opened, Failure: refused})
	fmt.Println("late answer to the first check:")
	step(engine.Event{Kind: engine.EventConnectivity, Check: first, Up: false})
	fmt.Println("answer to the current check:")
	step(engine.Event{Kind: engine.EventConnectivity, Check: asked, Up: true})
	// Output:
	// state initialized→connecting retryIn=0s reason=connect-requested
	// open T1 websocket main.realtime.ably.net clean
	// open T2 http main.realtime.ably.net clean
	// check C1
	// state connecting→disconnected retryIn=0s reason=network-down error=unreachable
	// state disconnected→connecting retryIn=0s reason=reconnect
	// open T3 websocket main.realtime.ably.net clean
	// open T4 http main.realtime.ably.net clean
	// check C2
	// late answer to the first check:
	// answer to the current check:
	// open T5 http main.a.fallback.ably-realtime.com clean
}
