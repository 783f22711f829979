package sdk

import (
	"context"
	"net"
	"net/http"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/runner"
)

// dialer is the runner's Dialer: it opens websocket and long-poll
// transports, every connection through dialContext.
type dialer struct {
	resolve func(host string) (string, bool)
	sh      *shared
	ws      *http.Client // the websocket handshakes'
}

func newDialer(resolve func(string) (string, bool), sh *shared) *dialer {
	d := &dialer{resolve: resolve, sh: sh}
	d.ws = &http.Client{Transport: &http.Transport{DialContext: d.dialContext}}
	return d
}

// dialContext is the one place a connection starts: the host name the
// engine chose is mapped to an address by Options.Resolve (a real SDK
// resolves it, or maps it to a proxy, here), and an unknown one fails as
// a DNS lookup does, so that runner.Classify reads FailureDNS.
func (d *dialer) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	if d.resolve != nil {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		to, ok := d.resolve(host)
		if !ok {
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		}
		addr = to
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, addr)
}

// Open starts the transport req asks for on a goroutine of its own and
// returns at once: it never dials here (the runner, and with Inline the
// SDK's own call, would wait for it).
func (d *dialer) Open(_ context.Context, req runner.OpenRequest, report runner.Reporter) runner.Transport {
	return d.open(req, report)
}

// open is Open for any reporter: a test's as well as the runner's.
func (d *dialer) open(req runner.OpenRequest, report reporter) runner.Transport {
	c := newConn(req, report, d.sh)
	d.sh.wg.Add(1)
	if req.Kind == reconnect.WebSocket {
		t := &webSocket{conn: c, hc: d.ws}
		go t.run()
		return t
	}
	t := newLongPoll(c, d.dialContext)
	go t.run()
	return t
}
