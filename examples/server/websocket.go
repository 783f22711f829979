package server

import (
	"context"
	"net/http"

	"github.com/coder/websocket"

	"github.com/reconnect-go/reconnect/examples/protocol"
)

// serveWebSocket accepts a websocket, sends CONNECTED, echoes each
// MESSAGE and answers CLOSE with CLOSED and a normal closure. DropAll
// closes the socket without a close frame.
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
	// A cancelled context makes the library close the socket at once, so
	// dropping the connection is cancelling its context.
	ctx, drop := context.WithCancel(ctx)
	defer drop()
	defer s.addLive(drop)()
	if c.Write(ctx, websocket.MessageText, []byte(protocol.Connected)) != nil {
		return
	}
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return // the client went away, or the connection was dropped
		}
		switch m := protocol.Parse(string(data)); m.Kind {
		case protocol.Message:
			if c.Write(ctx, websocket.MessageText, []byte(protocol.Format(m))) != nil {
				return
			}
		case protocol.Close:
			if c.Write(ctx, websocket.MessageText, []byte(protocol.Closed)) == nil {
				c.Close(websocket.StatusNormalClosure, "")
			}
			return
		}
	}
}
