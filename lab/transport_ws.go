package lab

import (
	"context"
	"net"
	"net/http"

	"github.com/coder/websocket"
	"github.com/reconnect-go/reconnect"
)

// openWebSocket dials ws://host/ws?mode=m. Viable: the server answered
// the upgrade with 101. Connected: its CONNECTED message arrived.
func (c *Client) openWebSocket(host string, m reconnect.Mode, report Report) Conn {
	l := newLifecycle(report)
	// The websocket library keeps the dial error only as text: keep the
	// error itself, so that a refusal reads as one.
	var dialErr error
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := c.Dial(ctx, network, addr)
			dialErr = err
			return conn, err
		}}}
	go func() {
		defer close(l.done)
		defer l.cancel()
		// A close before the handshake completes abandons it.
		go func() {
			select {
			case <-l.closeReq:
				l.cancel()
			case <-l.ctx.Done():
			}
		}()
		conn, resp, err := websocket.Dial(l.ctx, "ws://"+host+PathWebSocket+"?mode="+m.String(),
			&websocket.DialOptions{HTTPClient: hc})
		if resp != nil && resp.Body != nil {
			resp.Body.Close()
		}
		if err != nil {
			if dialErr != nil {
				err = dialErr
			}
			l.end(classify(err, resp))
			return
		}
		l.viable()
		l.end(readWebSocket(l, conn))
	}()
	return l
}

// readWebSocket reads the server's messages until the connection ends,
// and returns the failure that ended it.
func readWebSocket(l *lifecycle, conn *websocket.Conn) reconnect.Failure {
	// The reads use their own context: cancelling the lifecycle's would
	// drop the connection without the close handshake.
	rctx, rcancel := context.WithCancel(context.Background())
	defer rcancel()
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		select {
		case <-l.closeReq:
			_ = conn.Close(websocket.StatusNormalClosure, "")
		case <-rctx.Done():
		}
	}()
	defer func() { rcancel(); _ = conn.CloseNow(); <-closed }()
	var fail reconnect.Failure
	for {
		_, data, err := conn.Read(rctx)
		if err != nil {
			if fail.Kind == reconnect.FailureDisconnected {
				return fail
			}
			return reconnect.Failure{Kind: reconnect.FailureUnreachable}
		}
		switch msg := parseMessage(string(data)); msg.kind {
		case msgConnected:
			l.connectedNow()
		case msgDisconnected:
			fail = reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: msg.status}
		}
	}
}
