package lab

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"
	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// ServerEvent is one thing the server did or saw on one connection.
type ServerEvent struct {
	At        time.Time
	Host      string
	Transport reconnect.TransportKind
	// Conn is the connection's id ("c1", "c2", …); for HTTP the session.
	Conn string
	// What is one of: "request" (a connect request arrived), "rejected",
	// "blackholed", "viable" (the handshake was answered), "killed" (closed
	// by a kill fault), "connected" (CONNECTED sent), "stalled" (silent
	// from now, by a stall fault), "dropped" (closed by DropAfter or a
	// host going down), "closed" (the client closed it or went away).
	What string
	// Mode is the connect request's mode.
	Mode string
}

func (s *Server) event(h *host, k reconnect.TransportKind, id, what, mode string) {
	if s.opts.OnEvent != nil {
		s.opts.OnEvent(ServerEvent{At: time.Now(), Host: h.name, Transport: k, Conn: id, What: what, Mode: mode})
	}
}

// handler serves one host: the check on the check host, the realtime
// endpoints on the others.
func (s *Server) handler(h *host) http.Handler {
	mux := http.NewServeMux()
	track := func(f func(*host, http.ResponseWriter, *http.Request)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			s.mu.Lock()
			if s.closed {
				s.mu.Unlock()
				http.Error(w, "closed", http.StatusServiceUnavailable)
				return
			}
			s.wg.Add(1)
			s.mu.Unlock()
			defer s.wg.Done()
			f(h, w, r)
		}
	}
	if h.name == s.opts.CheckHost {
		mux.HandleFunc("GET "+PathCheck, track(s.serveCheck))
		return mux
	}
	mux.HandleFunc("GET "+PathWebSocket, track(s.serveWS))
	mux.HandleFunc("GET "+PathConnect, track(s.serveConnect))
	mux.HandleFunc("GET "+PathRecv, track(s.serveRecv))
	mux.HandleFunc("POST "+PathClose, track(s.serveClose))
	return mux
}

// serveWS answers a websocket connect request according to the host's
// websocket fault.
func (s *Server) serveWS(h *host, w http.ResponseWriter, r *http.Request) {
	f, cd, hf, id, ev, ok := s.handshake(h, reconnect.WebSocket, w, r)
	if !ok {
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	ev("viable")
	if f == fateKillBefore {
		_ = c.CloseNow()
		ev("killed")
		return
	}
	// Read in the background: the client's CLOSE, or its going away.
	cctx, cancel := context.WithCancel(context.Background())
	closeAsked := make(chan struct{}, 1)
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		for {
			_, data, err := c.Read(cctx)
			if err != nil {
				cancel()
				return
			}
			if parseMessage(string(data)).kind == msgClose {
				closeAsked <- struct{}{}
				return
			}
		}
	}()
	defer func() { cancel(); _ = c.CloseNow(); <-readDone }()
	// pause waits d, sending a HEARTBEAT every maxIdleInterval once
	// connected; false means the connection ended meanwhile (and says
	// how).
	connected := false
	pause := func(d time.Duration) bool {
		t := time.NewTimer(d)
		defer t.Stop()
		var beat <-chan time.Time
		if mi := s.opts.MaxIdleInterval; mi > 0 && connected {
			tk := time.NewTicker(mi)
			defer tk.Stop()
			beat = tk.C
		}
	again:
		select {
		case <-t.C:
			return true
		case <-beat:
			if c.Write(cctx, websocket.MessageText, []byte(msgHeartbeat)) == nil {
				goto again
			}
			ev("closed")
		case <-closeAsked:
			_ = c.Write(cctx, websocket.MessageText, []byte(msgClosed))
			_ = c.Close(websocket.StatusNormalClosure, "")
			ev("closed")
		case <-cctx.Done():
			ev("closed")
		case <-s.stop:
			ev("dropped")
		}
		return false
	}
	if !pause(cd) {
		return
	}
	if c.Write(cctx, websocket.MessageText, []byte(connectedText(id, s.details()))) != nil {
		ev("closed")
		return
	}
	ev("connected")
	connected = true
	if s.opts.Message != "" && c.Write(cctx, websocket.MessageText, []byte(msgMessage+" "+s.opts.Message)) != nil {
		ev("closed")
		return
	}
	if hf.Stall {
		// Silence from now: the reading goroutine's read waits, and the
		// socket stays open until the host goes down or the server
		// closes (the deferred CloseNow then ends it).
		gone := stallConn(r)
		ev("stalled")
		select {
		case <-gone:
		case <-s.stop:
		}
		return
	}
	if f == fateKillAfter {
		ev("killed")
		return
	}
	dropAfter := hf.DropAfter
	if dropAfter <= 0 {
		dropAfter = time.Duration(1 << 62)
	}
	if !pause(dropAfter) {
		return
	}
	if hf.DisconnectStatus > 0 {
		_ = c.Write(cctx, websocket.MessageText, []byte(msgDisconnected+" "+strconv.Itoa(hf.DisconnectStatus)))
	}
	ev("dropped")
}

// details is the connection details every CONNECTED carries.
func (s *Server) details() engine.Details {
	return engine.Details{MaxIdleInterval: s.opts.MaxIdleInterval}
}

// handshake is the part of a connect request both transports share: it
// draws the connection's fate, applies the capacity, answers a reject,
// holds a blackhole, and waits out the latency. ok says the handshake is
// to be answered now; the rest is the fate, the delay to CONNECTED, the
// host's faults, the connection's id and its event reporter.
func (s *Server) handshake(h *host, k reconnect.TransportKind, w http.ResponseWriter, r *http.Request) (f fate, cd time.Duration, hf HostFault, id string, ev func(string), ok bool) {
	var l time.Duration
	f, l, cd, hf, id = s.draw(h, k == reconnect.WebSocket)
	mode := r.URL.Query().Get("mode")
	ev = func(what string) { s.event(h, k, id, what, mode) }
	ev("request")
	reject := func(status int) {
		w.Header().Set("Server", "lab")
		http.Error(w, k.String()+" rejected by the lab", status)
		ev("rejected")
	}
	if !s.admit() {
		reject(http.StatusServiceUnavailable)
		return
	}
	ctx := r.Context()
	switch f {
	case fateReject:
		if s.wait(ctx, l) {
			p := hf.HTTP
			if k == reconnect.WebSocket {
				p = hf.WebSocket
			}
			reject(p.rejectStatus())
			return
		}
	case fateBlackhole:
		ev("blackholed")
		s.wait(ctx, time.Duration(1<<62))
	default:
		if s.wait(ctx, l) {
			return f, cd, hf, id, ev, true
		}
	}
	ev("closed")
	return
}

// serveCheck answers the connectivity check.
func (s *Server) serveCheck(h *host, w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	cf := s.check
	l := sample(cf.Latency, s.r)
	s.mu.Unlock()
	if cf.Hang {
		s.wait(r.Context(), time.Duration(1<<62))
		return
	}
	if !s.wait(r.Context(), l) {
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	if cf.Down {
		_, _ = w.Write([]byte("no\n"))
		return
	}
	_, _ = w.Write([]byte("yes\n"))
}
