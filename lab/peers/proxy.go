package peers

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"sort"
	"sync"
	"time"

	"github.com/reconnect-go/reconnect/lab"
)

// PathFaults are the faults a Proxy applies to a connection when its
// first request arrives. The zero value is a healthy network.
type PathFaults struct {
	// RefuseWebSocket answers every websocket upgrade request 403 itself
	// (a proxy that refuses websockets); the server never sees it.
	RefuseWebSocket bool
	// BlackholeWebSocket reads every websocket upgrade request and never
	// answers it, until the client gives up (a proxy that swallows
	// websockets).
	BlackholeWebSocket bool
	// WebSocket and HTTP are round-trip latencies, one log-normal draw per
	// TCP connection (the lab's and the simulator's Dist) by the kind of
	// its first request: every byte the connection carries, either way,
	// is delayed by half the draw, so that each request and its answer
	// take the draw (the lab's "connect" latency) and a protocol's every
	// round trip on that connection costs it again. The zero Dist adds
	// nothing.
	WebSocket, HTTP lab.Dist
}

// Proxy is the lab's fault proxy: one 127.0.0.1 listener per host name,
// each forwarding TCP connections to the host's upstream server, with
// faults applied on the way. It reads each HTTP/1.1 request head (to tell
// a websocket upgrade from a plain request, to attribute the request to a
// client by its "client" query parameter, and to apply PathFaults), and
// forwards bytes unchanged; after an upgrade it forwards the raw stream.
// It knows no realtime protocol, so that every server sits behind the
// same faults.
//
// Make one with NewProxy and stop it with Close. Its methods are safe for
// concurrent use.
type Proxy struct {
	mu      sync.Mutex
	hosts   map[string]*proxyHost
	faults  PathFaults
	r       *rand.Rand
	conns   map[*pconn]struct{}
	traffic *Traffic
	closed  bool
	wg      sync.WaitGroup
}

// proxyHost is one host name's listener and upstream.
type proxyHost struct {
	name     string
	addr     string // 127.0.0.1:port, kept while the host is down
	upstream string
	ln       net.Listener
}

// NewProxy listens on 127.0.0.1 for every host of upstreams (host name →
// the upstream server's address) and forwards to it. seed seeds the
// latency draws.
func NewProxy(upstreams map[string]string, seed uint64) (*Proxy, error) {
	p := &Proxy{hosts: map[string]*proxyHost{}, r: rand.New(rand.NewPCG(seed, 0x9e3)),
		conns: map[*pconn]struct{}{}, traffic: newTraffic()}
	names := make([]string, 0, len(upstreams))
	for n := range upstreams {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		h := &proxyHost{name: n, addr: "127.0.0.1:0", upstream: upstreams[n]}
		p.hosts[n] = h
		if err := p.up(h); err != nil {
			p.Close()
			return nil, err
		}
	}
	return p, nil
}

// Addr returns the proxy's address for host name ("127.0.0.1:port"), or
// "" for an unknown name. It stays the same while the host is down.
func (p *Proxy) Addr(name string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h := p.hosts[name]; h != nil {
		return h.addr
	}
	return ""
}

// SetUpstream points host name at a new upstream address, for the
// connections accepted from now on.
func (p *Proxy) SetUpstream(name, addr string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h := p.hosts[name]; h != nil {
		h.upstream = addr
	}
}

// SetFaults sets the faults of the connections accepted from now on.
func (p *Proxy) SetFaults(f PathFaults) {
	p.mu.Lock()
	p.faults = f
	p.mu.Unlock()
}

// SetDown takes the named hosts down together (their listeners closed,
// so that connections to them are refused by the kernel, and then every
// connection they had dropped: no client can slip from one host to
// another meanwhile) or brings them back up on the same ports.
func (p *Proxy) SetDown(down bool, names ...string) error {
	p.mu.Lock()
	hs := make(map[*proxyHost]bool, len(names))
	for _, n := range names {
		h := p.hosts[n]
		if h == nil {
			p.mu.Unlock()
			return fmt.Errorf("peers: proxy has no host %q", n)
		}
		hs[h] = true
	}
	p.mu.Unlock()
	if !down {
		var errs []error
		for h := range hs {
			errs = append(errs, p.up(h))
		}
		return errors.Join(errs...)
	}
	p.mu.Lock()
	var lns []net.Listener
	for h := range hs {
		if h.ln != nil {
			lns = append(lns, h.ln)
			h.ln = nil
		}
	}
	p.mu.Unlock()
	for _, ln := range lns {
		_ = ln.Close()
	}
	p.mu.Lock()
	var drop []*pconn
	for c := range p.conns {
		if hs[c.host] {
			drop = append(drop, c)
		}
	}
	p.mu.Unlock()
	for _, c := range drop {
		c.drop()
	}
	return nil
}

// DropAll closes every connection the proxy holds, on both sides, as a
// network that resets them would (the client and the server each see
// the connection end).
func (p *Proxy) DropAll() {
	for _, c := range p.live() {
		c.drop()
	}
}

// StallAll stalls every connection the proxy holds now: from then on
// nothing more reaches either side and neither side sees the connection
// end (no FIN, no data), until one side closes it itself. Connections
// accepted later are not stalled.
func (p *Proxy) StallAll() {
	for _, c := range p.live() {
		c.stalled.Store(true)
	}
}

// Traffic returns the proxy's record of what each client opened and
// sent.
func (p *Proxy) Traffic() *Traffic { return p.traffic }

// Close closes every listener and connection and waits for the proxy's
// goroutines to end.
func (p *Proxy) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	var lns []net.Listener
	for _, h := range p.hosts {
		if h.ln != nil {
			lns = append(lns, h.ln)
			h.ln = nil
		}
	}
	p.mu.Unlock()
	for _, ln := range lns {
		_ = ln.Close()
	}
	p.DropAll()
	p.wg.Wait()
}

func (p *Proxy) live() []*pconn {
	p.mu.Lock()
	defer p.mu.Unlock()
	cs := make([]*pconn, 0, len(p.conns))
	for c := range p.conns {
		cs = append(cs, c)
	}
	return cs
}

// up opens h's listener (on its old port if it had one) and accepts on it.
func (p *Proxy) up(h *proxyHost) error {
	// The old port can be briefly taken by an outgoing connection's
	// ephemeral port; ListenTCP retries for a while.
	ln, err := lab.ListenTCP(h.addr)
	if err != nil {
		return fmt.Errorf("peers: proxy host %s: %w", h.name, err)
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		ln.Close()
		return errors.New("peers: proxy closed")
	}
	if h.ln != nil {
		p.mu.Unlock()
		ln.Close()
		return nil // already up
	}
	h.addr, h.ln = ln.Addr().String(), ln
	p.wg.Add(1)
	p.mu.Unlock()
	go p.accept(h, ln)
	return nil
}

// accept serves one listener until it is closed.
func (p *Proxy) accept(h *proxyHost, ln net.Listener) {
	defer p.wg.Done()
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		at := time.Now()
		p.mu.Lock()
		if p.closed || h.ln != ln {
			p.mu.Unlock()
			conn.Close()
			continue
		}
		c := newPconn(p, h, conn, h.upstream, p.faults)
		p.conns[c] = struct{}{}
		p.wg.Add(1)
		p.mu.Unlock()
		p.traffic.accepted(at, h.name)
		go func() {
			defer p.wg.Done()
			c.serve()
			p.mu.Lock()
			delete(p.conns, c)
			p.mu.Unlock()
		}()
	}
}

// draw is one connection's round-trip latency for its first request's
// kind.
func (p *Proxy) draw(f PathFaults, ws bool) time.Duration {
	d := f.HTTP
	if ws {
		d = f.WebSocket
	}
	if d == (lab.Dist{}) {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return sampleDist(d, p.r)
}
