package peers

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/reconnect-go/reconnect/lab"
)

// Options configures Run.
type Options struct {
	// Clients is how many clients of each kind run under each fault (1 to
	// 1000).
	Clients int
	// Faults and Kinds are what to run; nil means all.
	Faults []Fault
	Kinds  []Kind
	// NodeDir holds the Node programs and their installed packages
	// (lab/peers/node).
	NodeDir string
	// ShortCircuit is OursShort's short circuit; 0 means 250 ms, the
	// shortest of the band docs/short-circuit.md recommends.
	ShortCircuit time.Duration
	// Window is how long a client has to get its first application
	// message, from its start or from a fault after connected; a client
	// that does not is "never". StallWindow is the same after a stall
	// (heartbeats take longer). Both 0 mean 30 s and 60 s.
	Window, StallWindow time.Duration
	// RestartClients and RestartWindow, if positive, replace Clients and
	// Window under the restart, the one fault whose verdict is a median of
	// random schedules (every kind's backoff after the restart), which a
	// few clients leave to sampling (ShortOptions); 0 means Clients and
	// Window. RestartClients is at most 1000.
	RestartClients int
	RestartWindow  time.Duration
	// Downtime is how long a restarting server refuses every connection;
	// 0 means 5 s.
	Downtime time.Duration
	// Settle is how long a cell goes on after every client has its
	// message (a client's traffic is counted until Settle after its
	// message, so that an upgrade that follows is counted); 0 means 2 s.
	Settle time.Duration
	// Heartbeat overrides the servers' heartbeats; the zero value keeps
	// the libraries' defaults. Its Timeout is also ours' idle slack
	// (Timeouts.IdleSlack, what the idle timer adds to maxIdleInterval),
	// every kind of ours included, so that ours and the peers notice a
	// stall alike; without one ours keep the spec's slack,
	// realtimeRequestTimeout.
	Heartbeat Heartbeat
	// RequestTimeout, if positive, is the realtimeRequestTimeout of
	// ours-2s, ours-short and ours-centrifuge (the connect timeout, and
	// the idle slack unless Heartbeat.Timeout sets it); 0 keeps the
	// spec's 10 s. ours-defaults always keeps it.
	RequestTimeout time.Duration
	// SlowWebSocket and SlowHTTP are the Slow fault's round-trip
	// latencies; the zero Dists mean the simulator's slow-mobile profile's
	// websocket and HTTP connect latencies (median 900 ms and 1.2 s, σ 1).
	SlowWebSocket, SlowHTTP lab.Dist
	// Parallel is how many cells (a kind under a fault) run at once; 0
	// means 1, which gives every cell the machine to itself (the times of
	// a loaded 2-core machine are mostly its scheduling).
	Parallel int
	// Seed seeds the proxies' latency draws.
	Seed uint64
	// Progress, if set, is told what the run is doing, from the run's
	// goroutines.
	Progress func(string) `json:"-"`
}

// Defaults returns o with every zero field set to its default.
func (o Options) Defaults() Options {
	if o.Faults == nil {
		o.Faults = Faults()
	}
	if o.Kinds == nil {
		o.Kinds = Kinds()
	}
	if o.ShortCircuit == 0 {
		o.ShortCircuit = 250 * time.Millisecond
	}
	if o.Window == 0 {
		o.Window = 30 * time.Second
	}
	if o.StallWindow == 0 {
		o.StallWindow = 60 * time.Second
	}
	if o.Downtime == 0 {
		o.Downtime = 5 * time.Second
	}
	if o.Settle == 0 {
		o.Settle = 2 * time.Second
	}
	if o.SlowWebSocket == (lab.Dist{}) && o.SlowHTTP == (lab.Dist{}) {
		for _, p := range lab.BuiltinProfiles() {
			if p.Name == "slow-mobile" {
				o.SlowWebSocket, o.SlowHTTP = p.Primary.WebSocket.Connect, p.Primary.HTTP.Connect
			}
		}
	}
	if o.Parallel <= 0 {
		o.Parallel = 1
	}
	return o
}

func (o Options) validate() error {
	switch {
	case o.Clients < 1 || o.Clients > 1000:
		return fmt.Errorf("peers: %d clients per kind; want 1 to 1000", o.Clients)
	case o.RestartClients < 0 || o.RestartClients > 1000:
		return fmt.Errorf("peers: %d clients per kind under the restart; want 0 (as many as the other faults) to 1000", o.RestartClients)
	case o.RestartWindow < 0:
		return errors.New("peers: the restart's window is negative")
	case o.ShortCircuit <= 0 || o.Window <= 0 || o.StallWindow <= 0 || o.Downtime <= 0 || o.Settle <= 0:
		return errors.New("peers: the short circuit, the windows, the downtime and the settle time must be positive")
	case o.Heartbeat.Interval < 0 || o.Heartbeat.Timeout < 0 || o.RequestTimeout < 0:
		return errors.New("peers: a heartbeat setting or the request timeout is negative")
	case len(o.Faults) == 0 || len(o.Kinds) == 0:
		return errors.New("peers: nothing to run")
	}
	for _, f := range o.Faults {
		if f >= numFaults {
			return fmt.Errorf("peers: unknown fault %v", f)
		}
	}
	for _, k := range o.Kinds {
		if k >= numKinds {
			return fmt.Errorf("peers: unknown kind %v", k)
		}
		if k.node() {
			if err := CheckNode(o.NodeDir); err != nil {
				return err
			}
		}
	}
	return nil
}

// Report is a whole run: every cell, fault by fault.
type Report struct {
	Options Options
	// Cells holds one Cell per fault and kind, in the order of
	// Options.Faults, then Options.Kinds.
	Cells    []Cell
	Started  time.Time
	Duration time.Duration
	// Versions and Machine say what ran where (Versions, Machine); the
	// machine's load average is read at the start and at the end.
	Versions           []string
	Machine, MachineAt string
}

// ClientsUnder returns how many clients of each kind run under fault f:
// RestartClients under the restart when set, otherwise Clients.
func (o Options) ClientsUnder(f Fault) int {
	if f == Restart && o.RestartClients > 0 {
		return o.RestartClients
	}
	return o.Clients
}

// WindowUnder returns how long a client has to get its first message
// under fault f: StallWindow after a stall, RestartWindow after a restart
// when set, otherwise Window.
func (o Options) WindowUnder(f Fault) time.Duration {
	switch {
	case f == Stall:
		return o.StallWindow
	case f == Restart && o.RestartWindow > 0:
		return o.RestartWindow
	}
	return o.Window
}

// Cell returns the cell of fault f and kind k, if it ran.
func (r *Report) Cell(f Fault, k Kind) (Cell, bool) {
	for _, c := range r.Cells {
		if c.Fault == f && c.Kind == k {
			return c, true
		}
	}
	return Cell{}, false
}

// Run runs every kind under every fault, each cell (a kind under a
// fault) with its own server behind its own proxy, Options.Parallel cells
// at a time, in the order of Options.Faults then Options.Kinds; with more
// than one at a time, one cell at a time starts (startGate).
func Run(o Options) (*Report, error) {
	o = o.Defaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	rep := &Report{Options: o, Started: time.Now(), Cells: make([]Cell, len(o.Faults)*len(o.Kinds)),
		Versions: Versions(o.NodeDir), Machine: Machine()}
	sem := make(chan struct{}, o.Parallel)
	var gate startGate
	if o.Parallel > 1 {
		gate = newStartGate()
	}
	var wg sync.WaitGroup
	for fi, f := range o.Faults {
		for ki, k := range o.Kinds {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				c := runCell(o, f, k, gate)
				if c.Err != nil {
					c.ErrText = c.Err.Error()
				}
				rep.Cells[fi*len(o.Kinds)+ki] = c
			}()
		}
	}
	wg.Wait()
	rep.Duration = time.Since(rep.Started)
	rep.MachineAt = Machine()
	return rep, nil
}
