package lab

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/reconnect-go/reconnect"
)

// session is one HTTP long-poll connection.
type session struct {
	id      string
	host    string
	end     chan struct{} // closed when the session ends
	once    sync.Once
	status  int  // DISCONNECTED status to deliver, if any
	client  bool // ended by the client's close
	stalled bool // a stall fault: nothing is answered any more (set before the session is added)
	timer   *time.Timer
}

// sessions is the server's live long-poll sessions.
type sessions struct {
	mu sync.Mutex
	m  map[string]*session
}

func (ss *sessions) add(x *session) {
	ss.mu.Lock()
	ss.m[x.id] = x
	ss.mu.Unlock()
}

func (ss *sessions) get(id string) *session {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.m[id]
}

// finish ends x once: status is the DISCONNECTED status to deliver (0 for
// none), client whether the client closed it.
func (ss *sessions) finish(x *session, status int, client bool) bool {
	done := false
	x.once.Do(func() {
		ss.mu.Lock()
		delete(ss.m, x.id)
		x.status, x.client = status, client
		if x.timer != nil {
			x.timer.Stop()
		}
		ss.mu.Unlock()
		close(x.end)
		done = true
	})
	return done
}

// endHost ends every session of a host that went down.
func (ss *sessions) endHost(name string) {
	ss.mu.Lock()
	var xs []*session
	for _, x := range ss.m {
		if x.host == name {
			xs = append(xs, x)
		}
	}
	ss.mu.Unlock()
	for _, x := range xs {
		ss.finish(x, 0, false)
	}
}

// serveConnect opens a long-poll session according to the host's HTTP
// fault: the response's headers (with the session id) are the handshake,
// its one body line is CONNECTED.
func (s *Server) serveConnect(h *host, w http.ResponseWriter, r *http.Request) {
	f, cd, hf, id, ev, ok := s.handshake(h, reconnect.HTTP, w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	x := &session{id: id, host: h.name, end: make(chan struct{}), stalled: hf.Stall}
	s.session.add(x)
	w.Header().Set(HeaderSession, id)
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(http.StatusOK)
	http.NewResponseController(w).Flush()
	ev("viable")
	if f == fateKillBefore {
		s.session.finish(x, 0, false)
		ev("killed")
		panic(http.ErrAbortHandler) // drops the connection mid-response
	}
	select {
	case <-x.end:
		ev("closed")
		return
	default:
	}
	if !s.wait(ctx, cd) {
		s.session.finish(x, 0, false)
		ev("closed")
		return
	}
	_, _ = w.Write([]byte(connectedText(id, s.details()) + "\n"))
	if s.opts.Message != "" {
		_, _ = w.Write([]byte(msgMessage + " " + s.opts.Message + "\n"))
	}
	ev("connected")
	if x.stalled {
		ev("stalled")
	}
	switch {
	case f == fateKillAfter:
		s.session.finish(x, 0, false)
		ev("killed")
	case hf.DropAfter > 0:
		s.session.mu.Lock()
		x.timer = time.AfterFunc(hf.DropAfter, func() {
			if s.session.finish(x, hf.DisconnectStatus, false) {
				ev("dropped")
			}
		})
		s.session.mu.Unlock()
	}
}

// serveRecv is a session's long poll: 204 after PollTimeout with nothing
// to say; 200 with a DISCONNECTED line when the server ends the session
// with a status; 410 for a session the client closed or that does not
// exist; a dropped connection when the server drops the session without a
// word.
func (s *Server) serveRecv(h *host, w http.ResponseWriter, r *http.Request) {
	x := s.session.get(r.URL.Query().Get("session"))
	if x == nil {
		http.Error(w, "no such session", http.StatusGone)
		return
	}
	if x.stalled {
		s.stallRequest(r)
	}
	t := time.NewTimer(s.opts.PollTimeout)
	defer t.Stop()
	select {
	case <-t.C:
		w.WriteHeader(http.StatusNoContent)
	case <-r.Context().Done():
		// The client went away: the session is over.
		if s.session.finish(x, 0, true) {
			s.event(h, reconnect.HTTP, x.id, "closed", "")
		}
	case <-s.stop:
		panic(http.ErrAbortHandler)
	case <-x.end:
		switch {
		case x.client:
			http.Error(w, "session closed", http.StatusGone)
		case x.status > 0:
			_, _ = w.Write([]byte(msgDisconnected + " " + strconv.Itoa(x.status) + "\n"))
		default:
			panic(http.ErrAbortHandler)
		}
	}
}

// serveClose ends a session at the client's request: with the CLOSED
// line, or with nothing for an abort ("abort=1").
func (s *Server) serveClose(h *host, w http.ResponseWriter, r *http.Request) {
	x := s.session.get(r.URL.Query().Get("session"))
	if x == nil {
		http.Error(w, "no such session", http.StatusGone)
		return
	}
	if x.stalled {
		s.stallRequest(r)
	}
	if s.session.finish(x, 0, true) {
		s.event(h, reconnect.HTTP, x.id, "closed", "")
	}
	if r.URL.Query().Get("abort") != "" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	_, _ = w.Write([]byte(msgClosed + "\n"))
}

// stallRequest is a request of a stalled session: its connection stops
// reading and writing, and the request is never answered; it ends (with
// the connection dropped) when the host goes down or the server closes.
func (s *Server) stallRequest(r *http.Request) {
	gone := stallConn(r)
	select {
	case <-gone:
	case <-s.stop:
	}
	panic(http.ErrAbortHandler)
}
