package lab

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

// FleetOptions configures a Fleet.
type FleetOptions struct {
	// Clients is how many runner-driven clients to start (at least 1).
	Clients int
	// Config is the engine configuration of every client (start from
	// engine.Defaults()). An empty Config.Endpoint.Endpoint is set to
	// the server's primary host, with its fallback hosts.
	Config engine.Config
	// Spread spreads the clients' connect requests evenly over this
	// duration; 0 starts them all at once.
	Spread time.Duration
	// OnChange, if set, receives every state change of every client
	// (numbered from 0), from the runners' goroutines.
	OnChange func(client int, c runner.StateChange)
}

// ClientResult is what happened to one client of a Fleet until it first
// reached CONNECTED.
type ClientResult struct {
	Connected bool
	// TimeToConnect is from the connect request to the first CONNECTED
	// (0 when not connected).
	TimeToConnect time.Duration
	// Transport and Host are those of the first CONNECTED.
	Transport reconnect.TransportKind
	Host      string
	// Last is the client's last state change (why it is not connected,
	// for one that is not).
	Last runner.StateChange
	// ConnectedAt is the time of the first CONNECTED (zero when none).
	ConnectedAt time.Time
	// Lost is the first change out of CONNECTED after the first
	// CONNECTED (the zero StateChange while there is none); UPDATEs and
	// the change of the fleet's own stop do not count.
	Lost runner.StateChange
	// Reconnected: CONNECTED again after Lost, at ReconnectedAt.
	Reconnected   bool
	ReconnectedAt time.Time
}

// Fleet is a set of runner-driven clients connected to a lab server.
type Fleet struct {
	cancel  context.CancelFunc
	dialer  *Dialer
	runners []*runner.Runner
	mu      sync.Mutex
	starts  []time.Time
	results []ClientResult
	first   []chan struct{} // closed at each client's first CONNECTED
	again   []chan struct{} // closed at each client's CONNECTED after Lost
	started chan struct{}   // closed when every client has been asked to connect
	wg      sync.WaitGroup
}

// StartFleet starts o.Clients runners against s and asks each to connect.
// Stop the fleet with Stop.
func StartFleet(ctx context.Context, s *Server, o FleetOptions) (*Fleet, error) {
	if o.Clients < 1 {
		return nil, errors.New("lab: a fleet needs at least one client")
	}
	cfg := o.Config
	if cfg.Endpoint.Endpoint == "" {
		cfg.Endpoint = reconnect.EndpointOptions{Endpoint: s.Primary(), FallbackHosts: s.Fallbacks()}
	}
	client := &Client{Dial: s.DialContext}
	ctx, cancel := context.WithCancel(ctx)
	f := &Fleet{cancel: cancel, dialer: NewDialer(client), starts: make([]time.Time, o.Clients),
		results: make([]ClientResult, o.Clients), first: make([]chan struct{}, o.Clients),
		again: make([]chan struct{}, o.Clients), started: make(chan struct{})}
	check := func(ctx context.Context) bool { return client.CheckConnectivity(ctx, s.CheckURL()) }
	for i := range o.Clients {
		f.first[i], f.again[i] = make(chan struct{}), make(chan struct{})
		r, err := runner.New(ctx, runner.Options{Config: cfg, Dialer: f.dialer, CheckConnectivity: check,
			CheckWebSocket: check, OnStateChange: func(c runner.StateChange) { f.change(i, c, o.OnChange) }})
		if err != nil {
			f.Stop()
			return nil, err
		}
		f.runners = append(f.runners, r)
	}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		defer close(f.started)
		t0 := time.Now()
		for i, r := range f.runners {
			if o.Spread > 0 && o.Clients > 1 {
				at := t0.Add(o.Spread * time.Duration(i) / time.Duration(o.Clients))
				select {
				case <-time.After(time.Until(at)):
				case <-ctx.Done():
					return
				}
			}
			f.mu.Lock()
			f.starts[i] = time.Now()
			f.mu.Unlock()
			r.Connect()
		}
	}()
	return f, nil
}

func (f *Fleet) change(i int, c runner.StateChange, on func(int, runner.StateChange)) {
	f.mu.Lock()
	res := &f.results[i]
	res.Last = c
	switch {
	case c.To == engine.Connected && !res.Connected:
		res.Connected, res.Transport, res.Host = true, c.TransportKind, c.Host
		res.TimeToConnect, res.ConnectedAt = c.At.Sub(f.starts[i]), c.At
		close(f.first[i])
	case res.Connected && res.Lost.To == engine.Initialized && c.From == engine.Connected && !c.Update && !c.Stopped:
		res.Lost = c // engine.Initialized: the zero State, never a change's To
	case res.Lost.To != engine.Initialized && !res.Reconnected && c.To == engine.Connected && !c.Update:
		res.Reconnected, res.ReconnectedAt = true, c.At
		close(f.again[i])
	}
	f.mu.Unlock()
	if on != nil {
		on(i, c)
	}
}

// Runner returns client i's runner.
func (f *Fleet) Runner(i int) *runner.Runner { return f.runners[i] }

// Started returns when every client has been asked to connect; it
// reports the time the first was.
func (f *Fleet) Started() time.Time {
	<-f.started
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.starts[0]
}

// WaitConnected waits until every client has been CONNECTED once, or
// until d has passed since its connect request, and returns the results
// so far.
func (f *Fleet) WaitConnected(d time.Duration) []ClientResult {
	<-f.started
	for i, ch := range f.first {
		f.mu.Lock()
		deadline := f.starts[i].Add(d)
		f.mu.Unlock()
		select {
		case <-ch:
		case <-time.After(time.Until(deadline)):
		}
	}
	return f.Results()
}

// WaitReconnected waits until every client has lost its first
// connection and been CONNECTED again, or until d has passed since its
// first CONNECTED (since its connect request, for one never connected),
// and returns the results so far.
func (f *Fleet) WaitReconnected(d time.Duration) []ClientResult {
	<-f.started
	for i, ch := range f.again {
		f.mu.Lock()
		from := f.results[i].ConnectedAt
		if from.IsZero() {
			from = f.starts[i]
		}
		f.mu.Unlock()
		select {
		case <-ch:
		case <-time.After(time.Until(from.Add(d))):
		}
	}
	return f.Results()
}

// Results returns a copy of every client's result so far.
func (f *Fleet) Results() []ClientResult {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]ClientResult(nil), f.results...)
}

// Stop stops every runner and waits until the runners and their
// transports have ended (for at most 10 s).
func (f *Fleet) Stop() {
	f.cancel()
	f.wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	WaitRunners(ctx, f.runners)
	_ = f.dialer.Wait(ctx)
}

// WaitRunners waits until every runner in rs has ended (its Done channel
// is closed), or until ctx is done, whichever comes first.
func WaitRunners(ctx context.Context, rs []*runner.Runner) {
	for _, r := range rs {
		select {
		case <-r.Done():
		case <-ctx.Done():
		}
	}
}
