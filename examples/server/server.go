// Package server is the realtime server the example SDK talks to, on
// loopback, with the faults the example runs under switched on and off
// while it serves: websockets refused by a proxy (403) or blackholed, a
// host that is down (its listener closed), and every live connection
// dropped at once. It speaks package protocol; it stands in for your
// service, which a fork points its host names at instead.
package server

import (
	"context"
	"net"
	"net/http"
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
	// PollWait is how long a long poll waits for a message before it is
	// answered 204; 0 means 20 s. Set it before Listen.
	PollWait time.Duration

	hs   http.Server
	once sync.Once
	base context.Context // ended by Close
	stop context.CancelFunc
	wg   sync.WaitGroup // the handlers running

	mu       sync.Mutex
	closed   bool
	nextID   int
	live     map[int]context.CancelFunc // each websocket and session: how to drop it
	sessions map[string]*session
}

// Listen serves s on a new loopback port, which stands for one host, and
// returns its address and a function that closes the listener: from then
// on the address refuses connections (the host is down), while the
// connections it accepted carry on.
func (s *Server) Listen() (addr string, down func(), err error) {
	s.once.Do(func() {
		s.hs.Handler = s.mux()
		s.base, s.stop = context.WithCancel(context.Background())
		s.live = map[int]context.CancelFunc{}
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
	n := len(s.live)
	for id, drop := range s.live {
		drop()
		delete(s.live, id)
	}
	return n
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
// drop; remove unregisters it.
func (s *Server) addLive(drop context.CancelFunc) (remove func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	id := s.nextID
	s.live[id] = drop
	return func() {
		s.mu.Lock()
		delete(s.live, id)
		s.mu.Unlock()
	}
}
