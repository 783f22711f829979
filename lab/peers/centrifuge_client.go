package peers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

// The runner driving a protocol nobody here designed: transports for
// Centrifugo's client protocol (JSON, one reply per line), websocket and
// the HTTP-streaming emulation, written from the protocol's messages as a
// centrifuge server sends them. Viable: the websocket's 101, or the
// stream's 200. Connected: the reply to the connect command. A server
// ping ({}) is answered with a pong ({}) when the connect reply asks for
// it (on the stream, through the emulation endpoint). A push with a
// message is the application message. There is no close command: the
// client ends the connection.

// centrifugeConnect is the connect command every transport sends first.
const centrifugeConnect = `{"id":1,"connect":{"name":"lab-runner"}}`

// centrifugeReply is the part of a reply the transports read.
type centrifugeReply struct {
	ID    uint32 `json:"id"`
	Error *struct {
		Code    uint32 `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Connect *struct {
		Pong    bool   `json:"pong"`
		Ping    uint32 `json:"ping"` // the server's ping interval, seconds (0: no pings)
		Session string `json:"session"`
		Node    string `json:"node"`
	} `json:"connect"`
	Push *struct {
		Message json.RawMessage `json:"message"`
	} `json:"push"`
}

// centrifugeDialer opens one client's centrifuge transports (a
// runner.Dialer) through dial, to the host's websocket and HTTP-streaming
// endpoints, with query added to every URL.
type centrifugeDialer struct {
	dial      func(ctx context.Context, network, address string) (net.Conn, error)
	query     string
	onMessage func(kind reconnect.TransportKind)
	mu        sync.Mutex
	live      map[*cfConn]struct{}
	wg        sync.WaitGroup
}

// cfConn is one centrifuge transport.
type cfConn struct {
	rep       runner.Reporter
	ctx       context.Context
	cancel    context.CancelFunc
	closeReq  chan struct{}
	once      sync.Once
	mu        sync.Mutex
	viableNow bool
	connected bool
	ended     bool
}

// RequestClose implements runner.Transport: the client ends the
// connection, which is a clean close in this protocol.
func (c *cfConn) RequestClose() { c.once.Do(func() { close(c.closeReq) }) }

// Close implements runner.Transport.
func (c *cfConn) Close() {
	c.mu.Lock()
	c.ended = true
	c.mu.Unlock()
	c.cancel()
}

// viable reports Viable once, unless the transport has ended.
func (c *cfConn) viable() {
	c.mu.Lock()
	do := !c.ended && !c.viableNow
	c.viableNow = c.viableNow || do
	c.mu.Unlock()
	if do {
		c.rep.Viable()
	}
}

// connectedNow reports Connected once (Viable first), unless the
// transport has ended, with the server's ping interval as the
// maxIdleInterval of the connection details: the server sends something
// at least that often, so the runner's idle timer (RTN23a) drops the
// transport after the interval plus realtimeRequestTimeout of silence.
func (c *cfConn) connectedNow(ping time.Duration) {
	c.viable()
	c.mu.Lock()
	do := !c.ended && !c.connected
	c.connected = c.connected || do
	c.mu.Unlock()
	if do {
		c.rep.ConnectedWith(engine.Details{MaxIdleInterval: ping}, reconnect.Failure{})
	}
}

// activity reports a reply or ping received after the connect reply.
func (c *cfConn) activity() {
	c.mu.Lock()
	do := !c.ended && c.connected
	c.mu.Unlock()
	if do {
		c.rep.Activity()
	}
}

// live reports whether the transport has not ended.
func (c *cfConn) live() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.ended
}

// end reports the final event once: Failed before viable, Closed after.
func (c *cfConn) end(f reconnect.Failure) {
	c.mu.Lock()
	do, viable := !c.ended, c.viableNow
	c.ended = true
	c.mu.Unlock()
	switch {
	case !do:
	case viable:
		c.rep.Closed(f)
	default:
		c.rep.Failed(f)
	}
}

// Open implements runner.Dialer.
func (d *centrifugeDialer) Open(_ context.Context, req runner.OpenRequest, rep runner.Reporter) runner.Transport {
	ctx, cancel := context.WithCancel(context.Background())
	c := &cfConn{rep: rep, ctx: ctx, cancel: cancel, closeReq: make(chan struct{})}
	d.mu.Lock()
	if d.live == nil {
		d.live = map[*cfConn]struct{}{}
	}
	d.live[c] = struct{}{}
	d.wg.Add(1)
	d.mu.Unlock()
	go func() {
		defer d.wg.Done()
		defer func() {
			d.mu.Lock()
			delete(d.live, c)
			d.mu.Unlock()
			cancel()
		}()
		if req.Kind == reconnect.WebSocket {
			d.runWebSocket(c, req.Host)
		} else {
			d.runStream(c, req.Host)
		}
	}()
	return c
}

// wait closes every transport still open and waits for them to end.
func (d *centrifugeDialer) wait() {
	d.mu.Lock()
	for c := range d.live {
		c.Close()
	}
	d.mu.Unlock()
	d.wg.Wait()
}

func (d *centrifugeDialer) httpClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: d.dial, DisableKeepAlives: true}}
}

// handle reads one frame or stream chunk of replies; it returns false when
// a reply ends the connection.
func (d *centrifugeDialer) handle(c *cfConn, kind reconnect.TransportKind, data []byte, pong func()) bool {
	for _, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if string(line) == "{}" {
			c.activity()
			pong()
			continue
		}
		var r centrifugeReply
		if json.Unmarshal(line, &r) != nil {
			continue
		}
		if r.ID != 1 || r.Connect == nil {
			c.activity()
		}
		switch {
		case r.ID == 1 && r.Error != nil:
			c.end(reconnect.Failure{Kind: reconnect.FailureOther})
			return false
		case r.ID == 1 && r.Connect != nil:
			c.connectedNow(time.Duration(r.Connect.Ping) * time.Second)
		case r.Push != nil && len(r.Push.Message) > 0 && d.onMessage != nil && c.live():
			d.onMessage(kind)
		}
	}
	return true
}

// runWebSocket is the websocket transport.
func (d *centrifugeDialer) runWebSocket(c *cfConn, host string) {
	ws, resp, err := websocket.Dial(c.ctx, "ws://"+host+"/connection/websocket?"+d.query, &websocket.DialOptions{HTTPClient: d.httpClient()})
	if resp != nil && resp.Body != nil && err != nil {
		resp.Body.Close()
	}
	if err != nil {
		c.end(runner.Classify(err, resp))
		return
	}
	defer ws.CloseNow()
	c.viable()
	if ws.Write(c.ctx, websocket.MessageText, []byte(centrifugeConnect)) != nil {
		c.end(reconnect.Failure{Kind: reconnect.FailureUnreachable})
		return
	}
	go func() {
		select {
		case <-c.closeReq:
			_ = ws.Close(websocket.StatusNormalClosure, "")
		case <-c.ctx.Done():
		}
	}()
	pong := func() { _ = ws.Write(c.ctx, websocket.MessageText, []byte("{}")) }
	for {
		_, data, err := ws.Read(c.ctx)
		if err != nil {
			select {
			case <-c.closeReq:
				c.end(reconnect.Failure{})
			default:
				c.end(reconnect.Failure{Kind: reconnect.FailureUnreachable})
			}
			return
		}
		if !d.handle(c, reconnect.WebSocket, data, pong) {
			return
		}
	}
}

// runStream is the HTTP-streaming transport: the connect command is the
// stream request's body, the replies its response's lines; a pong goes
// through the emulation endpoint with the session the connect reply named.
func (d *centrifugeDialer) runStream(c *cfConn, host string) {
	hc := d.httpClient()
	req, err := http.NewRequestWithContext(c.ctx, http.MethodPost, "http://"+host+"/connection/http_stream?"+d.query, strings.NewReader(centrifugeConnect))
	if err != nil {
		c.end(reconnect.Failure{Kind: reconnect.FailureOther})
		return
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		if resp != nil {
			resp.Body.Close()
		}
		c.end(runner.Classify(err, resp))
		return
	}
	defer resp.Body.Close()
	c.viable()
	go func() {
		select {
		case <-c.closeReq:
			c.end(reconnect.Failure{})
			c.cancel()
		case <-c.ctx.Done():
		}
	}()
	var session, node string
	pong := func() {
		body, _ := json.Marshal(map[string]string{"session": session, "node": node, "data": "{}"})
		preq, err := http.NewRequestWithContext(c.ctx, http.MethodPost, "http://"+host+"/emulation?"+d.query, bytes.NewReader(body))
		if err != nil {
			return
		}
		preq.Header.Set("Content-Type", "application/json")
		go func() {
			if presp, err := hc.Do(preq); err == nil {
				presp.Body.Close()
			}
		}()
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var r centrifugeReply
		if json.Unmarshal(line, &r) == nil && r.Connect != nil {
			session, node = r.Connect.Session, r.Connect.Node
		}
		if !d.handle(c, reconnect.HTTP, line, pong) {
			return
		}
	}
	c.end(reconnect.Failure{Kind: reconnect.FailureUnreachable})
}
