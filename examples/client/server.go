package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"

	"github.com/coder/websocket"
)

// server is the tiny realtime server the client talks to: a websocket at
// /ws and an HTTP long-poll at /comet, each answering CONNECTED at once
// and CLOSED to a CLOSE. With rejectWebSocket set it answers websocket
// requests 403, as a proxy that blocks websockets does.
type server struct {
	rejectWebSocket atomic.Bool
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/ws" && s.rejectWebSocket.Load():
		http.Error(w, "websockets are not allowed here", http.StatusForbidden)
	case r.URL.Path == "/ws":
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		if c.Write(ctx, websocket.MessageText, []byte("CONNECTED")) != nil {
			return
		}
		for {
			_, msg, err := c.Read(ctx)
			if err != nil {
				return
			}
			if string(msg) == "CLOSE" {
				c.Write(ctx, websocket.MessageText, []byte("CLOSED"))
				c.Close(websocket.StatusNormalClosure, "")
				return
			}
		}
	case r.URL.Path == "/comet/connect":
		fmt.Fprint(w, "CONNECTED")
	case r.URL.Path == "/comet/close" && r.Method == http.MethodPost:
		fmt.Fprint(w, "CLOSED")
	default:
		http.NotFound(w, r)
	}
}

// start serves s on a loopback port and returns its address and a stop
// function.
func (s *server) start() (string, func()) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	hs := &http.Server{Handler: s}
	go hs.Serve(ln)
	return ln.Addr().String(), func() { hs.Shutdown(context.Background()) }
}
