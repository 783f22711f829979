package peers

import (
	"fmt"
	"slices"
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// Cell is one kind of client under one fault: what its clients reported
// and what the proxy saw.
type Cell struct {
	Fault   Fault
	Kind    Kind
	Clients int
	// Start is when the first client was asked to connect; FaultAt, for a
	// fault after connected, when the fault struck, and BackAt, for a
	// restart, when the hosts answered again.
	Start, FaultAt, BackAt time.Time
	// Window is how long the clients had to get their first message
	// (after FaultAt for a fault after connected, after each client's
	// start otherwise).
	Window time.Duration
	// Events are the clients' events, in time order.
	Events  []Event
	Traffic *Traffic `json:"-"`
	// Err is why the cell could not be measured (a server that did not
	// start, clients that did not connect before a fault after connected);
	// ErrText is its text, which a saved report keeps.
	Err     error `json:"-"`
	ErrText string
	// Result is what was measured.
	Result Result
}

// runCell runs n clients of kind k against their own server behind a
// fresh proxy, under fault f, holding gate while it starts.
func runCell(o Options, f Fault, k Kind, gate startGate) (cell Cell) {
	leave := gate.enter()
	defer leave()
	clients := o.ClientsUnder(f)
	cell = Cell{Fault: f, Kind: k, Clients: clients, Window: o.WindowUnder(f)}
	progress := func(format string, args ...any) {
		if o.Progress != nil {
			o.Progress(fmt.Sprintf("%-20s %-18s ", f, k) + fmt.Sprintf(format, args...))
		}
	}
	deadline := 2*max(o.Window, o.RestartWindow) + o.StallWindow + o.Downtime + 2*o.Settle + time.Minute
	be, err := newBackend(o, k, deadline)
	if err != nil {
		cell.Err = err
		return cell
	}
	defer be.close()
	hosts := be.hosts()
	upstreams := map[string]string{}
	for _, h := range hosts {
		upstreams[h.name] = h.addr
	}
	px, err := NewProxy(upstreams, o.Seed+uint64(f)*31+uint64(k))
	if err != nil {
		cell.Err = err
		return cell
	}
	defer px.Close()
	cell.Traffic = px.Traffic()
	switch f {
	case WebSocketRefused:
		px.SetFaults(PathFaults{RefuseWebSocket: true})
	case WebSocketBlackholed:
		px.SetFaults(PathFaults{BlackholeWebSocket: true})
	case Slow:
		px.SetFaults(PathFaults{WebSocket: o.SlowWebSocket, HTTP: o.SlowHTTP})
	case PrimaryDown:
		if err := px.SetDown(true, hosts[0].name); err != nil {
			cell.Err = err
			return cell
		}
	}
	rec := &recorder{}
	var fl fleet
	switch {
	case k.node():
		fl, err = startNodeFleet(o.NodeDir, k, px.Addr(hosts[0].name), clients, o.Heartbeat, deadline, rec)
	case k == OursCentrifuge:
		fl, err = startOursCentrifuge(clients, withLiveness(labConfig(o.ShortCircuit, o.RequestTimeout), o.Heartbeat), px, hosts[0].name, rec)
	case k == OursDefaults:
		// What a user gets: no lab option applies but the liveness slack,
		// which every kind takes from the heartbeat settings alike.
		fl, err = startOurs(clients, withLiveness(engine.Defaults(), o.Heartbeat), px, hosts, rec)
	default:
		sc := 2 * time.Second
		if k == OursShort {
			sc = o.ShortCircuit
		}
		fl, err = startOurs(clients, withLiveness(labConfig(sc, o.RequestTimeout), o.Heartbeat), px, hosts, rec)
	}
	if err != nil {
		cell.Err = err
		return cell
	}
	defer func() {
		fl.stop()
		cell.Events = sortedEvents(rec.snapshot())
		cell.Result = measure(cell, o.Settle)
	}()

	// Connecting: until every client has its first message, or the window
	// has passed since it started.
	starts, err := waitStarts(rec, clients, 30*time.Second)
	if err != nil {
		cell.Err = err
		return cell
	}
	cell.Start = slices.MinFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
	go func() {
		waitReached(rec, starts, startHold)
		leave()
	}()
	n := waitReached(rec, starts, o.Window)
	progress("%d/%d have their first message", n, clients)
	time.Sleep(o.Settle)
	if !f.afterConnected() {
		return cell
	}
	if n < clients {
		cell.Err = fmt.Errorf("only %d of %d clients had their first message before the fault", n, clients)
		return cell
	}

	cell.FaultAt = time.Now()
	switch f {
	case Drop:
		px.DropAll()
	case Stall:
		px.StallAll()
	case Restart:
		if err := restart(px, be, hosts, cell.FaultAt.Add(o.Downtime)); err != nil {
			cell.Err = err
			return cell
		}
		cell.BackAt = time.Now()
	}
	from := make([]time.Time, clients)
	for i := range from {
		from[i] = cell.FaultAt
	}
	n = waitReached(rec, from, cell.Window)
	progress("%d/%d have a message again", n, clients)
	time.Sleep(o.Settle)
	return cell
}

// restart takes every realtime host of the proxy down (dropping every
// connection), restarts the server, and brings the hosts back at back
// (or once the server is up, if later).
func restart(px *Proxy, be backend, hosts []hostAddr, back time.Time) error {
	var realtime []string
	for _, h := range hosts {
		if !h.check {
			realtime = append(realtime, h.name)
		}
	}
	if err := px.SetDown(true, realtime...); err != nil {
		return err
	}
	if err := be.restart(); err != nil {
		return err
	}
	// A restarted server may come back on another address (it never does
	// here, but the proxy would follow it).
	for _, h := range be.hosts() {
		px.SetUpstream(h.name, h.addr)
	}
	time.Sleep(time.Until(back))
	return px.SetDown(false, realtime...)
}

// newBackend starts kind k's server.
func newBackend(o Options, k Kind, deadline time.Duration) (backend, error) {
	switch k {
	case SocketIOPolling, SocketIOWebSocket:
		return newSocketIOBackend(o.NodeDir, o.Heartbeat, deadline)
	case Centrifuge, OursCentrifuge:
		return newCentrifugeBackend(o.Heartbeat)
	default:
		return newLabBackend(o.Seed, o.Heartbeat)
	}
}

// waitStarts waits until each of n clients has started (at most d) and
// returns when each did.
func waitStarts(rec *recorder, n int, d time.Duration) ([]time.Time, error) {
	deadline := time.Now().Add(d)
	for {
		starts := make([]time.Time, n)
		seen := 0
		for _, e := range rec.snapshot() {
			if e.What == EventStart && e.Client >= 0 && e.Client < n && starts[e.Client].IsZero() {
				starts[e.Client] = e.At
				seen++
			}
		}
		if seen == n {
			return starts, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("only %d of %d clients started within %v", seen, n, d)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitReached waits until every client i has had its first message since
// from[i], or window has passed since from[i], and returns how many had.
func waitReached(rec *recorder, from []time.Time, window time.Duration) int {
	last := slices.MaxFunc(from, func(a, b time.Time) int { return a.Compare(b) })
	for {
		events := sortedEvents(rec.snapshot())
		n := 0
		for i, t := range from {
			if at, _, ok := firstMessage(events, i, t); ok && at.Sub(t) <= window {
				n++
			}
		}
		if n == len(from) || time.Since(last) > window {
			return n
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sortedEvents sorts events by time (stable: a library's events at the
// same instant keep their order).
func sortedEvents(events []Event) []Event {
	slices.SortStableFunc(events, func(a, b Event) int { return a.At.Compare(b.At) })
	return events
}
