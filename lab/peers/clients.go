package peers

import (
	"context"
	"net"
	"strconv"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/lab"
	"github.com/reconnect-go/reconnect/runner"
)

// fleet is one kind's running clients.
type fleet interface{ stop() }

// nodeFleet is a Node program running n clients of one kind
// (node/clients.mjs).
type nodeFleet struct{ proc *nodeProc }

func (f nodeFleet) stop() { f.proc.Stop() }

// startNodeFleet starts n clients of kind k against the server at addr
// (the proxy's), recording their events.
func startNodeFleet(dir string, k Kind, addr string, n int, hb Heartbeat, deadline time.Duration, rec *recorder) (fleet, error) {
	args := []string{"--kind", k.String(), "--url", "http://" + addr, "--clients", strconv.Itoa(n)}
	if k == Centrifuge && hb.Timeout > 0 {
		args = append(args, "--max-server-ping-delay-ms", strconv.FormatInt(hb.Timeout.Milliseconds(), 10))
	}
	proc, err := startNode(dir, "clients.mjs", args, deadline, func(line []byte) {
		if e, ok := parseNodeLine(line); ok {
			rec.add(e)
		}
	})
	if err != nil {
		return nil, err
	}
	return nodeFleet{proc: proc}, nil
}

// runnerFleet is n runner-driven clients, each with a dialer whose
// transports stop waits for.
type runnerFleet struct {
	cancel  context.CancelFunc
	runners []*runner.Runner
	waits   []func(context.Context)
}

// runnerClient is what client i of a runner fleet runs on: its dialer,
// the connectivity check for both of the runner's checks, and a wait
// that closes the dialer's open transports and waits for them to end.
type runnerClient struct {
	dialer runner.Dialer
	check  func(context.Context) bool
	wait   func(context.Context)
}

// startRunners starts n runner clients with cfg, client i on what
// client(i) returns, recording their state changes; on an error it stops
// the ones already made.
func startRunners(n int, cfg engine.Config, rec *recorder, client func(i int) runnerClient) (fleet, error) {
	ctx, cancel := context.WithCancel(context.Background())
	f := &runnerFleet{cancel: cancel}
	for i := range n {
		rc := client(i)
		r, err := runner.New(ctx, runner.Options{Config: cfg, Dialer: rc.dialer, CheckConnectivity: rc.check, CheckWebSocket: rc.check,
			OnStateChange: func(c runner.StateChange) { recordChange(rec, i, c) }})
		if err != nil {
			f.stop()
			return nil, err
		}
		f.runners = append(f.runners, r)
		f.waits = append(f.waits, rc.wait)
	}
	for i, r := range f.runners {
		rec.add(Event{At: time.Now(), Client: i, What: EventStart})
		r.Connect()
	}
	return f, nil
}

func (f *runnerFleet) stop() {
	f.cancel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	lab.WaitRunners(ctx, f.runners)
	for _, wait := range f.waits {
		wait(ctx)
	}
}

// startOurs starts n runner clients with cfg (its endpoint set here);
// hosts are the lab server's (primary first, the check host last) and
// every name resolves to its address on the proxy.
func startOurs(n int, cfg engine.Config, px *Proxy, hosts []hostAddr, rec *recorder) (fleet, error) {
	var realtime []string
	checkHost := ""
	for _, h := range hosts {
		if h.check {
			checkHost = h.name
		} else {
			realtime = append(realtime, h.name)
		}
	}
	dial := proxyDial(px)
	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: realtime[0], FallbackHosts: realtime[1:]}
	return startRunners(n, cfg, rec, func(i int) runnerClient {
		query := "client=" + strconv.Itoa(i)
		od := oursDialer{}
		clients := map[reconnect.TransportKind]*lab.Client{}
		for _, k := range []reconnect.TransportKind{reconnect.WebSocket, reconnect.HTTP} {
			clients[k] = &lab.Client{Dial: dial, Query: query, OnMessage: func(string) {
				rec.add(Event{At: time.Now(), Client: i, What: EventMessage, Transport: k.String()})
			}}
			od[k] = lab.NewDialer(clients[k])
		}
		checkURL := "http://" + checkHost + lab.PathCheck + "?" + query
		check := func(ctx context.Context) bool { return clients[reconnect.HTTP].CheckConnectivity(ctx, checkURL) }
		return runnerClient{dialer: od, check: check, wait: od.wait}
	})
}

// proxyDial returns a dial function that resolves a host name in address
// ("name:port"; the port is ignored) to its address on px and connects
// to it over TCP. A name px does not know fails as a DNS error.
func proxyDial(px *Proxy) func(ctx context.Context, network, address string) (net.Conn, error) {
	var d net.Dialer
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		name, _, err := net.SplitHostPort(address)
		if err != nil {
			name = address
		}
		addr := px.Addr(name)
		if addr == "" {
			return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such lab host", Name: name, IsNotFound: true}}
		}
		return d.DialContext(ctx, "tcp", addr)
	}
}

// labConfig is the engine's Ably configuration with the given short
// circuit and, when requestTimeout is positive, that realtime request
// timeout (zero or less keeps the default). The caller sets Endpoint.
func labConfig(shortCircuit, requestTimeout time.Duration) engine.Config {
	cfg := engine.AblyConfig()
	cfg.ShortCircuit = shortCircuit
	if requestTimeout > 0 {
		cfg.Timeouts.RealtimeRequest = requestTimeout
	}
	return cfg
}

// recordChange records a runner's state change as the events a library
// reports: connect on CONNECTED, disconnect when CONNECTED is lost.
func recordChange(rec *recorder, i int, c runner.StateChange) {
	switch {
	case c.Stopped:
	case c.To == engine.Connected:
		rec.add(Event{At: c.At, Client: i, What: EventConnect, Transport: c.TransportKind.String(), Detail: c.Host})
	case c.From == engine.Connected:
		rec.add(Event{At: c.At, Client: i, What: EventDisconnect, Detail: c.Reason.String() + " " + c.Failure.String()})
	case c.Failure.Kind != reconnect.FailureNone:
		rec.add(Event{At: c.At, Client: i, What: EventError, Detail: c.Failure.String()})
	}
}

// oursDialer opens one client's lab transports (a runner.Dialer), each
// kind through its own lab.Dialer, which keeps the open ones so that
// stop can wait for them.
type oursDialer map[reconnect.TransportKind]*lab.Dialer

// Open implements runner.Dialer.
func (d oursDialer) Open(ctx context.Context, req runner.OpenRequest, rep runner.Reporter) runner.Transport {
	return d[req.Kind].Open(ctx, req, rep)
}

// wait closes every transport still open and waits for them to end, or
// for ctx to be done.
func (d oursDialer) wait(ctx context.Context) {
	for _, ld := range d {
		if ld.Wait(ctx) != nil {
			return
		}
	}
}

// withLiveness returns cfg with the idle timer's slack
// (Timeouts.IdleSlack, what it adds to the server's maxIdleInterval) set
// to hb's timeout, the time the peers' heartbeats allow past the
// interval (socket.io's pingTimeout, the centrifuge JS client's
// maxServerPingDelay), so that every kind notices a stall after the same
// interval + timeout. Without a timeout (the libraries' defaults) cfg
// keeps the spec's slack, realtimeRequestTimeout.
func withLiveness(cfg engine.Config, hb Heartbeat) engine.Config {
	if hb.Timeout > 0 {
		cfg.Timeouts.IdleSlack = hb.Timeout
	}
	return cfg
}

// startOursCentrifuge starts n runner clients speaking Centrifugo's
// protocol to host (the centrifuge server's only host, resolved to its
// address on the proxy) with cfg (its endpoint set here: host and no
// fallback host).
func startOursCentrifuge(n int, cfg engine.Config, px *Proxy, host string, rec *recorder) (fleet, error) {
	dial := proxyDial(px)
	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: host, FallbackHosts: []string{}}
	// No fallback host, so no connectivity check is needed before one;
	// the network here is up.
	up := func(context.Context) bool { return true }
	return startRunners(n, cfg, rec, func(i int) runnerClient {
		cd := &centrifugeDialer{dial: dial, query: "client=" + strconv.Itoa(i), onMessage: func(k reconnect.TransportKind) {
			rec.add(Event{At: time.Now(), Client: i, What: EventMessage, Transport: k.String()})
		}}
		return runnerClient{dialer: cd, check: up, wait: func(context.Context) { cd.wait() }}
	})
}
