package lab

import (
	"context"
	"net"
	"net/http"
	"sync"

	"github.com/coder/websocket"
	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/runner"
)

// openWebSocket dials ws://host/ws?mode=m. Viable: the server answered
// the upgrade with 101. Connected: its CONNECTED message arrived.
func (c *Client) openWebSocket(host string, m reconnect.Mode, rep Reporter) Conn {
	l := newLifecycle(rep)
	l.onMessage = c.OnMessage
	// The websocket library keeps the dial error only as text: keep the
	// error itself, so that a refusal reads as one.
	var mu sync.Mutex
	var dialErr error
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := c.Dial(ctx, network, addr)
			mu.Lock()
			dialErr = err
			mu.Unlock()
			return conn, err
		}}}
	go func() {
		defer close(l.done)
		conn, resp, err := websocket.Dial(l.ctx, "ws://"+host+PathWebSocket+"?mode="+m.String()+c.query(),
			&websocket.DialOptions{HTTPClient: hc})
		if resp != nil && resp.Body != nil && err != nil {
			resp.Body.Close()
		}
		if err != nil {
			mu.Lock()
			if dialErr != nil {
				err = dialErr
			}
			mu.Unlock()
			l.end(runner.Classify(err, resp))
			return
		}
		defer conn.CloseNow()
		l.viable()
		l.end(readWebSocket(l, conn))
	}()
	return l
}

// readWebSocket reads the server's messages until the connection ends or
// the transport is closed, and returns the failure that ended it. A
// cancelled context makes the library drop the connection at once.
func readWebSocket(l *lifecycle, conn *websocket.Conn) reconnect.Failure {
	ctx, cancel := context.WithCancel(l.ctx)
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		select {
		case <-l.closeReq:
			_ = conn.Write(ctx, websocket.MessageText, []byte(msgClose))
		case <-ctx.Done():
		}
	}()
	defer func() { cancel(); <-sent }()
	var fail reconnect.Failure
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			if fail.Kind == reconnect.FailureDisconnected {
				return fail
			}
			return reconnect.Failure{Kind: reconnect.FailureUnreachable}
		}
		switch msg := parseMessage(string(data)); msg.kind {
		case msgConnected:
			l.connectedNow()
		case msgMessage:
			l.message(msg.text)
		case msgDisconnected:
			fail = reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: msg.status}
		case msgClosed:
			return reconnect.Failure{}
		}
	}
}
