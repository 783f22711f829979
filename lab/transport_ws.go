package lab

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/coder/websocket"
	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/runner"
)

// dialReporter is the optional report of a transport's dial
// (runner.Reporter.Dialed): its TCP connection is up, after rtt.
type dialReporter interface{ Dialed(rtt time.Duration) }

// openWebSocket dials ws://host/ws?mode=m. Dialed (when rep has it): the
// TCP connection is up, before the upgrade, with the time the dial took.
// Viable: the server answered the upgrade with 101. Connected: its
// CONNECTED message arrived.
func (c *Client) openWebSocket(host string, m reconnect.Mode, rep Reporter) Conn {
	l := newLifecycle(rep)
	l.onMessage = c.OnMessage
	dial := c.Dial
	if dr, ok := rep.(dialReporter); ok {
		start := time.Now()
		dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := c.Dial(ctx, network, addr)
			if err == nil {
				dr.Dialed(time.Since(start))
			}
			return conn, err
		}
	}
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true, DialContext: dial}}
	go func() {
		defer close(l.done)
		conn, resp, err := websocket.Dial(l.ctx, "ws://"+host+PathWebSocket+"?mode="+m.String()+c.query(),
			&websocket.DialOptions{HTTPClient: hc})
		if resp != nil && resp.Body != nil && err != nil {
			resp.Body.Close()
		}
		if err != nil {
			// The library wraps the dial's error (%w): Classify reads a
			// refusal or an unknown host from it as it is.
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
		msg := parseMessage(string(data))
		if msg.kind != msgConnected {
			l.activity() // anything from the server but CONNECTED itself
		}
		switch msg.kind {
		case msgConnected:
			l.connectedNow(msg.details)
		case msgMessage:
			l.message(msg.text)
		case msgDisconnected:
			fail = reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: msg.status}
		case msgClosed:
			return reconnect.Failure{}
		}
	}
}
