// Package server is the realtime server the example SDK talks to, on
// loopback, with the faults the example runs under switched on and off
// while it serves: websockets refused by a proxy (403) or blackholed, a
// host that is down (its listener closed), every live connection dropped
// at once, connections that go silent after CONNECTED (a stall), and
// tokens that expire on demand. It speaks package protocol; it stands in
// for your service, which a fork points its host names at instead.
package server

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reconnect-go/reconnect/examples/protocol"
)

// Server serves the realtime endpoints and the connectivity check on every
// listener Listen opens. Its methods are safe for concurrent use; the zero
// Server is ready.
type Server struct {
	// RejectWebSocket makes the websocket endpoint answer 403, as a proxy
	// that blocks websockets does.
	RejectWebSocket atomic.Bool
	// BlackholeWebSocket makes the websocket endpoint never answer: the
	// upgrade request hangs until the client gives up, as behind a proxy
	// that swallows websockets.
	BlackholeWebSocket atomic.Bool
	// Stall makes every connection that reaches CONNECTED while it is set
	// go silent right after CONNECTED: the server sends nothing more and
	// reads nothing more, and leaves the socket open (a half-open
	// connection; only the client's idle timer notices, RTN23a).
	Stall atomic.Bool
	// PollWait is how long a long poll waits for a message before it is
	// answered 204; 0 means 20 s, or MaxIdleInterval when that is
	// shorter. Set it before Listen.
	PollWait time.Duration
	// MaxIdleInterval, if positive, is sent in every CONNECTED (RTN21),
	// and the server then sends something at least that often: a
	// HEARTBEAT on an idle websocket, a poll's answer. Set it before
	// Listen.
	MaxIdleInterval time.Duration

	hs   http.Server
	once sync.Once
	base context.Context // ended by Close
	stop context.CancelFunc
	wg   sync.WaitGroup // the handlers running

	mu       sync.Mutex
	closed   bool
	nextID   int
	live     map[int]liveConn // each websocket and session
	sessions map[string]*session
	tokenGen int // a token "tok-<n>" is valid for n ≥ tokenGen (ExpireTokens)
}

// liveConn is how to end one websocket or session: drop it without a
// word, or tell it its token has expired (and end it).
type liveConn struct {
	drop, expire func()
}

// Listen serves s on a new loopback port, which stands for one host, and
// returns its address and a function that closes the listener: from then
// on the address refuses connections (the host is down), while the
// connections it accepted carry on.
func (s *Server) Listen() (addr string, down func(), err error) {
	s.once.Do(func() {
		s.hs.Handler = s.mux()
		s.base, s.stop = context.WithCancel(context.Background())
		s.live = map[int]liveConn{}
		s.sessions = map[string]*session{}
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	go s.hs.Serve(ln) // returns once the listener is closed
	return ln.Addr().String(), func() { ln.Close() }, nil
}

// DropAll drops every websocket and long-poll session at once, without a
// word to the client (a server restart or a network cut looks like this
// to it), and returns how many it dropped.
func (s *Server) DropAll() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.endLive(func(lc liveConn) { lc.drop() })
}

// ExpireTokens makes every token issued so far invalid: every live
// websocket and session receives DISCONNECTED 401 40142 (a token error,
// RTN15h) and ends, and a connect request with an old token is answered
// the same way. It returns how many connections it told. A client then
// renews its token (runner.Options.RenewToken) and connects again.
func (s *Server) ExpireTokens() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokenGen++
	return s.endLive(func(lc liveConn) { lc.expire() })
}

// endLive ends every live websocket and session with end, forgets them,
// and returns how many there were. s.mu is held.
func (s *Server) endLive(end func(liveConn)) int {
	n := len(s.live)
	for id, lc := range s.live {
		end(lc)
		delete(s.live, id)
	}
	return n
}

// Token returns the token valid now, as a client's token request would
// (the example's stand-in for your auth server).
func (s *Server) Token() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return "tok-" + strconv.Itoa(s.tokenGen)
}

// validToken reports whether a connect request's token is valid now.
func (s *Server) validToken(r *http.Request) bool {
	n, ok := strings.CutPrefix(r.URL.Query().Get("token"), "tok-")
	gen, err := strconv.Atoi(n)
	s.mu.Lock()
	defer s.mu.Unlock()
	return ok && err == nil && gen >= s.tokenGen
}

// tokenError is the DISCONNECTED of an expired token.
var tokenError = protocol.Format(protocol.Msg{Kind: protocol.Disconnected, Status: 401, Code: protocol.TokenErrorCode})

// connected is the CONNECTED message, with the server's maxIdleInterval.
func (s *Server) connected() string {
	return protocol.Format(protocol.Msg{Kind: protocol.Connected, MaxIdleInterval: s.MaxIdleInterval})
}

// Close drops every connection, closes every listener and returns once
// every handler has returned.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	if s.stop != nil {
		s.stop()
	}
	s.DropAll()
	s.hs.Close()
	s.wg.Wait()
}

func (s *Server) mux() *http.ServeMux {
	m := http.NewServeMux()
	m.HandleFunc("GET "+protocol.PathWebSocket, s.track(s.serveWebSocket))
	m.HandleFunc("GET "+protocol.PathConnect, s.track(s.serveConnect))
	m.HandleFunc("GET "+protocol.PathRecv, s.track(s.serveRecv))
	m.HandleFunc("POST "+protocol.PathSend, s.track(s.serveSend))
	m.HandleFunc("GET "+protocol.PathCheck, func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("yes\n")) })
	return m
}

// track runs a handler with a context that Close ends as well as the
// request's, and counts it for Close.
func (s *Server) track(h func(context.Context, http.ResponseWriter, *http.Request)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			http.Error(w, "shutting down", http.StatusServiceUnavailable)
			return
		}
		s.wg.Add(1)
		s.mu.Unlock()
		defer s.wg.Done()
		ctx, cancel := context.WithCancel(r.Context())
		defer context.AfterFunc(s.base, cancel)()
		defer cancel()
		h(ctx, w, r)
	}
}

// addLive registers a websocket or session that DropAll drops by calling
// drop and ExpireTokens ends by calling expire; remove unregisters it.
func (s *Server) addLive(drop, expire func()) (remove func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	id := s.nextID
	s.live[id] = liveConn{drop: drop, expire: expire}
	return func() {
		s.mu.Lock()
		delete(s.live, id)
		s.mu.Unlock()
	}
}
