package server

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/reconnect-go/reconnect/examples/protocol"
)

// session is one long-poll connection: the messages waiting for the next
// poll. It ends once its CLOSED has been delivered, or when it is dropped.
type session struct {
	ctx    context.Context // done once the session has ended or was dropped
	end    context.CancelFunc
	remove func() // unregisters it from DropAll

	stalled bool // Stall was set at CONNECTED: nothing is answered any more

	mu      sync.Mutex
	queue   []string
	closing bool          // CLOSED or a token error is queued: the session ends once it is delivered
	wake    chan struct{} // signalled when a message is queued
}

func (ss *session) push(msg string) {
	ss.mu.Lock()
	ss.queue = append(ss.queue, msg)
	ss.closing = ss.closing || msg == protocol.Closed || msg == tokenError
	ss.mu.Unlock()
	select {
	case ss.wake <- struct{}{}:
	default:
	}
}

// take returns the queued messages and whether CLOSED is among them.
func (ss *session) take() ([]string, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	q := ss.queue
	ss.queue = nil
	return q, ss.closing
}

// serveConnect opens a session and answers CONNECTED at once: the client
// reports viable on the 200 and connected on the CONNECTED line. An
// expired token gets the token error instead, and no session.
func (s *Server) serveConnect(_ context.Context, w http.ResponseWriter, r *http.Request) {
	if !s.validToken(r) {
		w.Write([]byte(tokenError + "\n"))
		return
	}
	ss := &session{wake: make(chan struct{}, 1), stalled: s.Stall.Load()}
	ss.ctx, ss.end = context.WithCancel(s.base)
	ss.remove = s.addLive(ss.end, func() { ss.push(tokenError) })
	s.mu.Lock()
	s.nextID++
	id := "s" + strconv.Itoa(s.nextID)
	s.sessions[id] = ss
	s.mu.Unlock()
	w.Header().Set(protocol.HeaderSession, id)
	w.Write([]byte(s.connected() + "\n"))
}

// session returns the live session r names, or nil.
func (s *Server) session(r *http.Request) *session {
	id := r.URL.Query().Get("session")
	s.mu.Lock()
	ss := s.sessions[id]
	ended := ss != nil && ss.ctx.Err() != nil
	if ended {
		delete(s.sessions, id)
	}
	s.mu.Unlock()
	if ended {
		ss.remove()
		return nil
	}
	return ss
}

// serveRecv answers a poll with the messages waiting, one a line, as soon
// as there is one; 204 after PollWait with none; 404 for a session that
// has ended. A dropped session's poll is cut off without an answer.
func (s *Server) serveRecv(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	ss := s.session(r)
	if ss == nil {
		http.Error(w, "no such session", http.StatusNotFound)
		return
	}
	if ss.stalled {
		<-ctx.Done() // never answered: the client's idle timer notices
		return
	}
	wait := s.PollWait
	if wait <= 0 {
		wait = 20 * time.Second
	}
	if s.MaxIdleInterval > 0 {
		wait = min(wait, s.MaxIdleInterval)
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		if msgs, last := ss.take(); len(msgs) > 0 {
			if last {
				ss.end()
			}
			w.Write([]byte(strings.Join(msgs, "\n") + "\n"))
			return
		}
		select {
		case <-ss.wake:
		case <-t.C:
			w.WriteHeader(http.StatusNoContent)
			return
		case <-ss.ctx.Done():
			panic(http.ErrAbortHandler) // dropped: net/http cuts the connection
		case <-ctx.Done():
			return
		}
	}
}

// serveSend takes one message from the client: a MESSAGE is echoed to the
// session's next poll, a CLOSE answered with CLOSED there.
func (s *Server) serveSend(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	ss := s.session(r)
	if ss == nil {
		http.Error(w, "no such session", http.StatusNotFound)
		return
	}
	if ss.stalled {
		<-ctx.Done() // never answered
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	if err != nil {
		return
	}
	switch m := protocol.Parse(string(body)); m.Kind {
	case protocol.Message:
		ss.push(protocol.Format(m))
	case protocol.Close:
		ss.push(protocol.Closed)
	default:
		http.Error(w, "not a message", http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
