package reconnect_test

import (
	"fmt"
	"time"

	"github.com/reconnect-go/reconnect"
)

func ExampleDecidePending() {
	// Outcome 2 of the proposal: the websocket becomes viable after the
	// short-circuit timer started HTTP, while HTTP is still pending.
	d, rule := reconnect.DecidePending(reconnect.WebSocket, reconnect.ModeClean, reconnect.HTTP, reconnect.NoTransport)
	fmt.Println(d, rule)

	// Outcome 3: too late, HTTP is already active.
	d, rule = reconnect.DecidePending(reconnect.WebSocket, reconnect.ModeClean, reconnect.NoTransport, reconnect.HTTP)
	fmt.Println(d, rule)

	// The upgrade websocket itself proceeds.
	d, rule = reconnect.DecidePending(reconnect.WebSocket, reconnect.ModeUpgrade, reconnect.NoTransport, reconnect.HTTP)
	fmt.Println(d, rule)
	// Output:
	// replace-pending 2
	// discard-candidate 3
	// proceed 4
}

func ExamplePendingTable() {
	reachable := 0
	for _, row := range reconnect.PendingTable() {
		if row.Reachable {
			reachable++
		}
	}
	fmt.Println(reconnect.PendingTableLen, "combinations,", reachable, "reachable")
	// Output:
	// 108 combinations, 19 reachable
}

func ExampleChooseTransport() {
	both := reconnect.Availability{WebSocket: true, HTTP: true}
	fmt.Printf("%+v\n", reconnect.ChooseTransport(both, 0))
	fmt.Printf("%+v\n", reconnect.ChooseTransport(both, 500*time.Millisecond))
	fmt.Printf("%+v\n", reconnect.ChooseTransport(reconnect.Availability{HTTP: true}, 0))
	// Output:
	// {Transport:websocket ShortCircuit:2s}
	// {Transport:websocket ShortCircuit:500ms}
	// {Transport:http ShortCircuit:0s}
}

func ExampleHTTPOnWebSocketFailure() {
	// The websocket was refused at once (proposal outcome 4): HTTP starts now.
	s := reconnect.TransportState{HTTPAvailable: true}
	fmt.Println(reconnect.HTTPOnWebSocketFailure(s))
	// Output:
	// true
}

func ExampleHTTPOnShortCircuit() {
	// The timer fires while the websocket is pending: no HTTP.
	fmt.Println(reconnect.HTTPOnShortCircuit(reconnect.TransportState{HTTPAvailable: true, Pending: reconnect.WebSocket}))
	// The timer fires with nothing pending or active (outcome 5): HTTP.
	fmt.Println(reconnect.HTTPOnShortCircuit(reconnect.TransportState{HTTPAvailable: true}))
	// Output:
	// false
	// true
}

func ExampleUpgradeAfterActivation() {
	t, m := reconnect.UpgradeAfterActivation(reconnect.HTTP, reconnect.Availability{WebSocket: true, HTTP: true})
	fmt.Println(t, m)
	// Output:
	// websocket upgrade
}
