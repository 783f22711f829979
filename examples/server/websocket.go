package server

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/reconnect-go/reconnect/examples/protocol"
)

// serveWebSocket accepts a websocket, sends CONNECTED (or, for an
// expired token, the token error), echoes each MESSAGE, sends a HEARTBEAT
// every MaxIdleInterval and answers CLOSE with CLOSED and a
// normal closure. DropAll closes the socket without a close frame;
// ExpireTokens sends the token error first. With Stall set it goes silent
// after CONNECTED.
func (s *Server) serveWebSocket(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	switch {
	case s.RejectWebSocket.Load():
		http.Error(w, "websockets are not allowed here", http.StatusForbidden)
		return
	case s.BlackholeWebSocket.Load():
		<-ctx.Done() // never answered: the client gives up first
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	if !s.validToken(r) {
		c.Write(ctx, websocket.MessageText, []byte(tokenError))
		return
	}
	// A cancelled context makes the library close the socket at once, so
	// dropping the connection is cancelling its context.
	ctx, drop := context.WithCancel(ctx)
	defer drop()
	var mu sync.Mutex // one writer at a time: the loop below, or ExpireTokens
	write := func(msg string) error {
		mu.Lock()
		defer mu.Unlock()
		return c.Write(ctx, websocket.MessageText, []byte(msg))
	}
	expire := func() {
		s.wg.Add(1)
		go func() { // ExpireTokens holds the server's lock: write elsewhere
			defer s.wg.Done()
			write(tokenError)
			drop()
		}()
	}
	defer s.addLive(drop, expire)()
	if write(s.connected()) != nil {
		return
	}
	if s.Stall.Load() {
		<-ctx.Done() // silent: nothing read, nothing sent, the socket open
		return
	}
	msgs := make(chan protocol.Msg)
	go func() { // the reader: the loop below writes
		defer close(msgs)
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return // the client went away, or the connection was dropped
			}
			select {
			case msgs <- protocol.Parse(string(data)):
			case <-ctx.Done():
				return
			}
		}
	}()
	var beat <-chan time.Time
	if s.MaxIdleInterval > 0 {
		t := time.NewTicker(s.MaxIdleInterval)
		defer t.Stop()
		beat = t.C
	}
	for {
		select {
		case m, ok := <-msgs:
			switch {
			case !ok:
				return
			case m.Kind == protocol.Message:
				if write(protocol.Format(m)) != nil {
					return
				}
			case m.Kind == protocol.Close:
				if write(protocol.Closed) == nil {
					c.Close(websocket.StatusNormalClosure, "")
				}
				return
			}
		case <-beat:
			if write(protocol.Heartbeat) != nil {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}
