package lab

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The lab's default host names. They resolve only through a Server's
// DialContext, to 127.0.0.1.
const (
	DefaultPrimary   = "main.realtime.test"
	DefaultCheckHost = "internet-up.test"
)

// DefaultFallbacks are the lab's default fallback hosts.
var DefaultFallbacks = []string{"a.fallback.test", "b.fallback.test", "c.fallback.test"}

// Options configures a Server. The zero value serves the default names.
type Options struct {
	// Primary, Fallbacks and CheckHost name the hosts; empty means the
	// defaults (a nil Fallbacks means DefaultFallbacks).
	Primary   string
	Fallbacks []string
	CheckHost string
	// Seed seeds the per-connection draws of faults and latencies.
	Seed uint64
	// PollTimeout is how long a long poll waits before an empty answer;
	// 0 means 2 s.
	PollTimeout time.Duration
	// OnEvent, if set, is called for every server-side event, from the
	// server's goroutines (it must be safe for concurrent use and quick).
	OnEvent func(ServerEvent)
	// Message, if not empty, is an application message the server sends
	// right after every CONNECTED ("MESSAGE <Message>"), so that a client
	// can time the first message delivered, not only CONNECTED. It must
	// be one line.
	Message string
	// MaxIdleInterval, if positive, is the maxIdleInterval every
	// CONNECTED message carries in its connection details ("CONNECTED
	// <id> maxIdleInterval=<ms>", RTN21, whole milliseconds, at least
	// 1 ms), and the server then keeps a healthy connection from being
	// idle that long: a HEARTBEAT message every MaxIdleInterval on a
	// websocket, a long poll answered within MaxIdleInterval.
	MaxIdleInterval time.Duration
}

// Server is the lab's loopback server: one 127.0.0.1 listener per host
// name. Make it with NewServer, stop it with Close. Its methods are safe
// for concurrent use.
type Server struct {
	opts    Options
	mu      sync.Mutex
	hosts   map[string]*host
	order   []string
	r       *rand.Rand
	check   CheckFault
	nextID  uint64
	stop    chan struct{}
	closed  bool
	wg      sync.WaitGroup // serve loops, handlers and drop timers
	dialer  net.Dialer
	session sessions
	// The accept capacity (SetCapacity).
	capacity    int
	capFrom     time.Time
	capWindow   int64
	capAccepted int
}

// host is one host name's listener and the connections it accepted.
type host struct {
	name  string
	addr  string // 127.0.0.1:port, kept while the host is down
	fault HostFault
	srv   *http.Server
	ln    net.Listener
	conns map[net.Conn]struct{}
}

// NewServer starts listeners for every host of opts on 127.0.0.1.
func NewServer(opts Options) (*Server, error) {
	if opts.Primary == "" {
		opts.Primary = DefaultPrimary
	}
	if opts.Fallbacks == nil {
		opts.Fallbacks = DefaultFallbacks
	}
	if opts.CheckHost == "" {
		opts.CheckHost = DefaultCheckHost
	}
	if strings.ContainsAny(opts.Message, "\r\n") {
		return nil, errors.New("lab: Options.Message must be one line")
	}
	if opts.PollTimeout <= 0 {
		opts.PollTimeout = 2 * time.Second
	}
	if opts.MaxIdleInterval > 0 {
		opts.MaxIdleInterval = max(opts.MaxIdleInterval.Round(time.Millisecond), time.Millisecond)
		opts.PollTimeout = min(opts.PollTimeout, opts.MaxIdleInterval)
	}
	s := &Server{opts: opts, hosts: map[string]*host{}, stop: make(chan struct{}),
		r: rand.New(rand.NewPCG(opts.Seed, 0x1ab)), session: sessions{m: map[string]*session{}}}
	names := append(append([]string{opts.Primary}, opts.Fallbacks...), opts.CheckHost)
	for _, n := range names {
		if _, dup := s.hosts[n]; dup {
			s.Close()
			return nil, fmt.Errorf("lab: host %q named twice", n)
		}
		h := &host{name: n, addr: "127.0.0.1:0", conns: map[net.Conn]struct{}{}}
		s.hosts[n] = h
		s.order = append(s.order, n)
		if err := s.up(h); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// Primary returns the primary host's name.
func (s *Server) Primary() string { return s.opts.Primary }

// Fallbacks returns the fallback hosts' names.
func (s *Server) Fallbacks() []string { return append([]string(nil), s.opts.Fallbacks...) }

// CheckURL returns the connectivity check's URL on the check host.
func (s *Server) CheckURL() string { return "http://" + s.opts.CheckHost + PathCheck }

// Addr returns the loopback address behind a host name, or "".
func (s *Server) Addr(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h := s.hosts[name]; h != nil {
		return h.addr
	}
	return ""
}

// SetFault replaces the faults of host name (taking it down or up as
// fault.Down says); it returns an error for an unknown name or a listener
// that cannot be reopened.
func (s *Server) SetFault(name string, f HostFault) error {
	s.mu.Lock()
	h := s.hosts[name]
	if h == nil || s.closed {
		s.mu.Unlock()
		return fmt.Errorf("lab: no host %q", name)
	}
	was := h.fault.Down
	h.fault = f
	s.mu.Unlock()
	switch {
	case f.Down && !was:
		s.down(h)
	case !f.Down && was:
		return s.up(h)
	}
	return nil
}

// SetCheck sets how the connectivity check answers.
func (s *Server) SetCheck(f CheckFault) {
	s.mu.Lock()
	s.check = f
	s.mu.Unlock()
}

// SetCapacity limits the server to perSecond accepted connect requests
// (websocket upgrades and long-poll sessions, on all hosts together) in
// each one-second window counted from from; the requests over it are
// answered 503 at once. 0 means no limit.
func (s *Server) SetCapacity(perSecond int, from time.Time) {
	s.mu.Lock()
	s.capacity, s.capFrom, s.capWindow, s.capAccepted = max(perSecond, 0), from, -1, 0
	s.mu.Unlock()
}

// admit reports whether a connect request fits the capacity, and counts
// it if it does.
func (s *Server) admit() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.capacity == 0 {
		return true
	}
	if w := int64(time.Since(s.capFrom) / time.Second); w != s.capWindow {
		s.capWindow, s.capAccepted = w, 0
	}
	if s.capAccepted >= s.capacity {
		return false
	}
	s.capAccepted++
	return true
}

// Restart takes every realtime host down, drops all their connections,
// and brings them back up downFor after the call (with their faults
// otherwise unchanged). It returns when the hosts are back.
func (s *Server) Restart(downFor time.Duration) error {
	back := time.Now().Add(downFor) // dropping many connections takes a while: count from now
	var hs []*host
	s.mu.Lock()
	for _, n := range s.order {
		if n != s.opts.CheckHost && !s.hosts[n].fault.Down {
			hs = append(hs, s.hosts[n])
		}
	}
	s.mu.Unlock()
	for _, h := range hs {
		s.down(h)
	}
	select {
	case <-time.After(time.Until(back)):
	case <-s.stop:
		return errors.New("lab: server closed")
	}
	var errs []error
	for _, h := range hs {
		errs = append(errs, s.up(h))
	}
	return errors.Join(errs...)
}

// Close stops every listener, drops every connection and waits for the
// server's goroutines to end.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.stop)
	hs := make([]*host, 0, len(s.hosts))
	for _, h := range s.hosts {
		hs = append(hs, h)
	}
	s.mu.Unlock()
	for _, h := range hs {
		s.down(h)
	}
	s.wg.Wait()
}

// up opens h's listener (on its old port if it had one) and serves it.
func (s *Server) up(h *host) error {
	// The old port can be briefly taken by an outgoing connection's
	// ephemeral port; ListenTCP retries for a while.
	ln, err := ListenTCP(h.addr)
	if err != nil {
		return fmt.Errorf("lab: host %s: %w", h.name, err)
	}
	srv := &http.Server{Handler: s.handler(h), ReadHeaderTimeout: 10 * time.Second,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context { return context.WithValue(ctx, connKey{}, c) }}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ln.Close()
		return errors.New("lab: server closed")
	}
	h.addr, h.ln, h.srv = ln.Addr().String(), ln, srv
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		_ = srv.Serve(&trackingListener{Listener: ln, s: s, h: h})
	}()
	return nil
}

// down closes h's listener and every connection it accepted.
func (s *Server) down(h *host) {
	s.mu.Lock()
	srv, ln, conns := h.srv, h.ln, h.conns
	h.srv, h.ln, h.conns = nil, nil, map[net.Conn]struct{}{}
	s.mu.Unlock()
	if ln != nil {
		// Close it here too: Serve may not have started yet.
		_ = ln.Close()
	}
	if srv != nil {
		_ = srv.Close()
	}
	for c := range conns {
		_ = c.Close()
	}
	s.session.endHost(h.name)
}

// trackingListener records the connections a host accepted, so that a
// host going down drops them all, websockets included.
type trackingListener struct {
	net.Listener
	s *Server
	h *host
}

func (l *trackingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.s.mu.Lock()
	if l.h.ln != l.Listener {
		l.s.mu.Unlock()
		c.Close()
		return nil, net.ErrClosed
	}
	l.h.conns[c] = struct{}{}
	l.s.mu.Unlock()
	return &trackedConn{Conn: c, s: l.s, h: l.h, gone: make(chan struct{})}, nil
}

type trackedConn struct {
	net.Conn
	s    *Server
	h    *host
	once sync.Once
	// stalled: the server neither reads nor writes any more (a stall
	// fault); gone is closed by Close.
	stalled atomic.Bool
	gone    chan struct{}
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.s.mu.Lock()
		delete(c.h.conns, c.Conn)
		c.s.mu.Unlock()
		close(c.gone)
	})
	return c.Conn.Close()
}

// stall makes the connection stop reading and writing without closing
// it: a read or write in progress or to come waits until the connection
// is closed (by the server going down or closing). The socket stays open,
// so the client sees no FIN and no RST, only silence.
func (c *trackedConn) stall() {
	c.stalled.Store(true)
	_ = c.Conn.SetReadDeadline(time.Unix(1, 0)) // wakes a read in progress, which then waits
}

// Read reads, or waits for Close once the connection is stalled.
func (c *trackedConn) Read(b []byte) (int, error) {
	for {
		if c.stalled.Load() {
			<-c.gone
			return 0, net.ErrClosed
		}
		n, err := c.Conn.Read(b)
		var ne net.Error
		if n == 0 && err != nil && c.stalled.Load() && errors.As(err, &ne) && ne.Timeout() {
			continue // woken by stall
		}
		return n, err
	}
}

// Write writes, or waits for Close once the connection is stalled.
func (c *trackedConn) Write(b []byte) (int, error) {
	if c.stalled.Load() {
		<-c.gone
		return 0, net.ErrClosed
	}
	return c.Conn.Write(b)
}

// connKey is the request context's key for the connection a request
// arrived on (a *trackedConn).
type connKey struct{}

// stallConn stalls the connection request r arrived on and returns a
// channel closed when that connection is closed.
func stallConn(r *http.Request) <-chan struct{} {
	c, ok := r.Context().Value(connKey{}).(*trackedConn)
	if !ok {
		return nil // not the server's own listener: waits for the server's stop
	}
	c.stall()
	return c.gone
}

// Sockets returns how many TCP connections the realtime hosts (the check
// host excluded) hold open now: accepted and not yet closed by either
// side as far as the server has seen. A client that closes a socket is
// seen once the server's read of it ends, usually within a millisecond on
// loopback.
func (s *Server) Sockets() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for name, h := range s.hosts {
		if name != s.opts.CheckHost {
			n += len(h.conns)
		}
	}
	return n
}

// DialContext is the lab's resolver and dialer: it connects to the
// loopback listener behind the host name in address ("name:port"; the
// port is ignored). An unknown name fails as a DNS error; a host that is
// down is dialled after its DownLatency, and the kernel refuses it.
func (s *Server) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	name, _, err := net.SplitHostPort(address)
	if err != nil {
		name = address
	}
	s.mu.Lock()
	h := s.hosts[name]
	var addr string
	var delay time.Duration
	if h != nil {
		addr = h.addr
		if h.fault.Down {
			delay = sample(h.fault.DownLatency, s.r)
		}
	}
	s.mu.Unlock()
	if h == nil {
		return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such lab host", Name: name, IsNotFound: true}}
	}
	if delay > 0 {
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
	}
	return s.dialer.DialContext(ctx, "tcp", addr)
}

// draw decides a new connection's fate on h's path of kind ws or HTTP,
// with its latencies (see PathFault.draw), and names the connection.
func (s *Server) draw(h *host, ws bool) (fate, time.Duration, time.Duration, HostFault, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := h.fault.HTTP
	if ws {
		p = h.fault.WebSocket
	}
	f, l, cd := p.draw(s.r)
	s.nextID++
	return f, l, cd, h.fault, fmt.Sprintf("c%d", s.nextID)
}

// wait sleeps for d, or until ctx ends or the server stops; it reports
// whether the whole d passed.
func (s *Server) wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
	case <-s.stop:
	}
	return false
}
