package engine_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// fixedSource draws the same u every time, to make the example's retry
// delay reproducible.
type fixedSource float64

func (f fixedSource) Float64() float64 { return float64(f) }

// The engine driven through a websocket refused by a proxy, the HTTP
// fallback, a drop and the immediate reconnect, with fake times.
func ExampleEngine() {
	cfg := engine.AblyConfig()
	cfg.Source = fixedSource(0.5)
	e, err := engine.New(cfg)
	if err != nil {
		panic(err)
	}
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var actions []engine.Action
	step := func(ms int, ev engine.Event) engine.TransportID {
		actions = e.Step(t0.Add(time.Duration(ms)*time.Millisecond), ev, actions[:0])
		var lines []string
		var opened engine.TransportID
		for _, a := range actions {
			switch a.Kind {
			case engine.ActionStartTimer, engine.ActionCancelTimer:
				// The SDK arms and cancels its timers; omitted here.
			case engine.ActionOpenTransport:
				opened = a.Transport
				lines = append(lines, fmt.Sprintf("open T%d %v %s (%v)", a.Transport, a.TransportKind, a.Host, a.Mode))
			case engine.ActionStateChange:
				lines = append(lines, fmt.Sprintf("%v → %v (%v)", a.From, a.To, a.Reason))
			default:
				lines = append(lines, a.String())
			}
		}
		if len(lines) == 0 {
			fmt.Printf("%5d ms %v\n", ms, ev.Kind)
		} else {
			fmt.Printf("%5d ms %-9v %s\n", ms, ev.Kind, strings.Join(lines, "\n                   "))
		}
		return opened
	}

	ws := step(0, engine.Event{Kind: engine.EventConnect})
	http := step(40, engine.Event{Kind: engine.EventTransportFailed, Transport: ws,
		Failure: reconnect.Failure{Kind: reconnect.FailureRefused}})
	step(200, engine.Event{Kind: engine.EventTransportViable, Transport: http})
	upgrade := step(250, engine.Event{Kind: engine.EventTransportConnected, Transport: http})
	step(400, engine.Event{Kind: engine.EventTransportFailed, Transport: upgrade,
		Failure: reconnect.Failure{Kind: reconnect.FailureRefused}})
	step(9000, engine.Event{Kind: engine.EventTransportClosed, Transport: http})
	// Output:
	//     0 ms connect   initialized → connecting (connect-requested)
	//                    open T1 websocket main.realtime.ably.net (clean)
	//    40 ms failed    dispose T1
	//                    open T2 http main.realtime.ably.net (clean)
	//   200 ms viable
	//   250 ms connected activate T2
	//                    connecting → connected (connected)
	//                    open T3 websocket main.realtime.ably.net (upgrade)
	//   400 ms failed    dispose T3
	//  9000 ms closed    dispose T2
	//                    connected → disconnected (dropped)
	//                    disconnected → connecting (reconnect)
	//                    open T4 websocket main.realtime.ably.net (resume)
}
