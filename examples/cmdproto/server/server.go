// Package server is a cmdproto server on one loopback port, with the
// faults the example client runs the SDK against switched on and off
// while it serves: Refuse (handshakes answered 503), StallNext (silent
// after the ok reply), DropAll (every session closed with CloseEvicted) and
// Restart (the listener and every session gone for a while, then back on
// the same port).
package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/reconnect-go/reconnect/examples/cmdproto/protocol"
)

// Server serves cmdproto on Addr ("127.0.0.1:port").
type Server struct {
	// PingInterval is how often a session is pinged; set before Start.
	PingInterval time.Duration
	// Token is the token the connect command must carry ("" accepts any).
	Token string
	// Refuse: handshakes are answered 503 Service Unavailable.
	Refuse atomic.Bool
	// StallNext: the next session goes silent after the ok reply: no
	// ping, no echo (the socket stays open and close frames are still
	// answered); the sessions after it are healthy.
	StallNext atomic.Bool

	refused  atomic.Int64 // handshakes refused
	accepted atomic.Int64 // sessions that got the ok reply

	mu      sync.Mutex
	stopped bool
	addr    string
	ln      net.Listener
	hs      *http.Server
	live    map[*session]struct{}
	closes  []websocket.StatusCode // the close statuses clients sent
	changed chan struct{}          // closed and replaced when closes grows
	wg      sync.WaitGroup
}

type session struct {
	c    *websocket.Conn
	stop context.CancelFunc
}

// Start listens on a free loopback port and serves until Stop.
func (s *Server) Start() error {
	if s.PingInterval <= 0 {
		return errors.New("server: PingInterval must be positive")
	}
	s.live = map[*session]struct{}{}
	s.changed = make(chan struct{})
	return s.listen("127.0.0.1:0")
}

// Addr returns "localhost:port", the endpoint as the SDK names it.
func (s *Server) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, port, _ := net.SplitHostPort(s.addr)
	return "localhost:" + port
}

func (s *Server) listen(addr string) error {
	ln, err := net.Listen("tcp4", addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: http.HandlerFunc(s.serve)}
	s.mu.Lock()
	if s.stopped { // Stop came while a Restart was down
		s.mu.Unlock()
		ln.Close()
		return nil
	}
	s.addr, s.ln, s.hs = ln.Addr().String(), ln, hs
	s.mu.Unlock()
	s.wg.Add(1)
	go func() { defer s.wg.Done(); hs.Serve(ln) }()
	return nil
}

// DropAll closes every session with CloseEvicted.
func (s *Server) DropAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for se := range s.live {
		go se.c.Close(protocol.CloseEvicted, "evicted")
	}
}

// Restart takes the server away for down, as a process that exits and is
// started again: the listener closes (new connections are refused) and
// every session's socket is dropped without a close frame; then it
// listens again on the same port. It returns at once; the server is back
// after down.
func (s *Server) Restart(down time.Duration) {
	s.mu.Lock()
	hs, addr := s.hs, s.addr
	for se := range s.live {
		se.stop() // the socket goes at once, as a process that exits
	}
	s.mu.Unlock()
	hs.Close()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		time.Sleep(down)
		for range 50 { // the port may take a moment to be free again
			if s.listen(addr) == nil {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
}

// Refused returns how many handshakes were refused, Accepted how many
// sessions got the ok reply.
func (s *Server) Refused() int64  { return s.refused.Load() }
func (s *Server) Accepted() int64 { return s.accepted.Load() }

// WaitClose waits until a client has closed a session with status, or
// ctx is done, and reports whether it had.
func (s *Server) WaitClose(ctx context.Context, status websocket.StatusCode) bool {
	for {
		s.mu.Lock()
		ch := s.changed
		for _, c := range s.closes {
			if c == status {
				s.mu.Unlock()
				return true
			}
		}
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// Stop closes the listener and every session, and waits for them.
func (s *Server) Stop() {
	s.mu.Lock()
	s.stopped = true
	hs := s.hs
	for se := range s.live {
		se.stop()
	}
	s.mu.Unlock()
	hs.Close()
	s.wg.Wait()
}

func (s *Server) noteClose(err error) {
	st := websocket.CloseStatus(err)
	if st == -1 {
		return
	}
	s.mu.Lock()
	s.closes = append(s.closes, st)
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != protocol.Path {
		http.NotFound(w, r)
		return
	}
	if s.Refuse.Load() {
		s.refused.Add(1)
		w.Header().Set("Retry-After", "1")
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	ctx, stop := context.WithCancel(r.Context())
	defer stop()
	se := &session{c: c, stop: stop}
	s.mu.Lock()
	s.live[se] = struct{}{}
	s.mu.Unlock()
	defer func() { s.mu.Lock(); delete(s.live, se); s.mu.Unlock() }()
	s.run(ctx, c)
}

// run is one session: the connect command and its reply, then pings, an
// echo per publish, and a close with 1000 for the close command.
func (s *Server) run(ctx context.Context, c *websocket.Conn) {
	var wmu sync.Mutex
	write := func(f protocol.Frame) error {
		wmu.Lock()
		defer wmu.Unlock()
		return c.Write(ctx, websocket.MessageText, protocol.EncodeFrame(f))
	}
	_, data, err := c.Read(ctx)
	if err != nil {
		s.noteClose(err)
		return
	}
	cmd, err := protocol.ParseCommand(data)
	switch {
	case err != nil || cmd.Cmd != protocol.CmdConnect:
		c.Close(websocket.StatusPolicyViolation, "connect first")
		return
	case s.Token != "" && cmd.Token != s.Token:
		write(protocol.Frame{Error: &protocol.Error{Code: protocol.CodeUnauthorized, Message: "token not accepted"}})
		c.Close(websocket.StatusPolicyViolation, "unauthorized")
		return
	}
	n := s.accepted.Add(1)
	if write(protocol.Frame{OK: &protocol.Session{ID: "s-" + strconv.FormatInt(n, 10)}}) != nil {
		return
	}
	stall := s.StallNext.CompareAndSwap(true, false)
	if !stall {
		s.wg.Add(1)
		go func() { // the pinger
			defer s.wg.Done()
			t := time.NewTicker(s.PingInterval)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					if write(protocol.Frame{Type: protocol.TypePing}) != nil {
						return
					}
				}
			}
		}()
	}
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			s.noteClose(err)
			return
		}
		cmd, err := protocol.ParseCommand(data)
		switch {
		case stall:
			// silent: read (so close frames are answered), never write
		case err != nil:
			c.Close(websocket.StatusPolicyViolation, "malformed command")
			return
		case cmd.Cmd == protocol.CmdPublish:
			write(protocol.Frame{Type: protocol.TypeEvent, Data: cmd.Data})
		case cmd.Cmd == protocol.CmdClose:
			c.Close(websocket.StatusNormalClosure, "bye")
			return
		}
	}
}
