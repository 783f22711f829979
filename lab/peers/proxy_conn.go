package peers

import (
	"bufio"
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httputil"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reconnect-go/reconnect/lab"
)

// maxHead bounds a request head the proxy reads.
const maxHead = 64 << 10

// pconn is one proxied TCP connection: the client's side, the upstream
// side (dialled at the first request that is forwarded), and the two
// delay lines that carry bytes between them.
type pconn struct {
	p        *Proxy
	host     *proxyHost
	client   net.Conn
	upstream string
	faults   PathFaults
	stalled  atomic.Bool
	done     chan struct{}
	once     sync.Once

	mu     sync.Mutex
	up     net.Conn
	id     int // the client it is attributed to; -1 until a request names one
	toUp   *line
	toDown *line
}

func newPconn(p *Proxy, h *proxyHost, c net.Conn, upstream string, f PathFaults) *pconn {
	return &pconn{p: p, host: h, client: c, upstream: upstream, faults: f, done: make(chan struct{}), id: -1}
}

// drop closes both sides at once.
func (c *pconn) drop() {
	c.once.Do(func() {
		close(c.done)
		_ = c.client.Close()
		c.mu.Lock()
		up := c.up
		c.mu.Unlock()
		if up != nil {
			_ = up.Close()
		}
	})
}

// client returns the id the connection is attributed to.
func (c *pconn) clientID() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.id
}

// serve reads the client's requests and forwards them until the
// connection ends.
func (c *pconn) serve() {
	defer c.drop()
	br := bufio.NewReaderSize(c.client, 16<<10)
	first := true
	for {
		raw, req, err := readHead(br)
		if err != nil {
			return
		}
		ws := strings.EqualFold(req.Header.Get("Upgrade"), "websocket")
		c.attribute(req)
		c.p.traffic.request(c.clientID(), time.Now())
		if first {
			first = false
			half := c.p.draw(c.faults, ws) / 2
			c.toDown = newLine(c, c.client, half, true)
		}
		switch {
		case ws && c.faults.RefuseWebSocket:
			body := "websocket refused by the lab's proxy\n"
			c.toDown.send([]byte("HTTP/1.1 403 Forbidden\r\nServer: lab-proxy\r\nContent-Type: text/plain\r\nContent-Length: " +
				strconv.Itoa(len(body)) + "\r\nConnection: close\r\n\r\n" + body))
			c.toDown.closeAfter()
			c.hold(br)
			return
		case ws && c.faults.BlackholeWebSocket:
			c.hold(br)
			return
		}
		if c.toUp == nil {
			up, err := net.DialTimeout("tcp", c.upstream, 5*time.Second)
			if err != nil {
				return
			}
			c.mu.Lock()
			c.up = up
			c.mu.Unlock()
			select {
			case <-c.done:
				up.Close()
				return
			default:
			}
			c.toUp = newLine(c, up, c.toDown.delay, false)
			go c.pumpDown(up)
		}
		c.countUp(len(raw))
		c.toUp.send(raw)
		switch {
		case ws:
			c.copyUp(br, -1) // from now on a raw stream
			return
		case len(req.TransferEncoding) > 0:
			if !c.copyChunked(br) {
				return
			}
		case req.ContentLength > 0:
			if !c.copyUp(br, req.ContentLength) {
				return
			}
		}
	}
}

// attribute records the client the request names in its "client" query
// parameter, if the connection has none yet.
func (c *pconn) attribute(req *http.Request) {
	id, err := strconv.Atoi(req.URL.Query().Get("client"))
	if err != nil || id < 0 {
		return
	}
	c.mu.Lock()
	was := c.id
	if was < 0 {
		c.id = id
	}
	c.mu.Unlock()
	if was < 0 {
		c.p.traffic.socket(id, time.Now())
	}
}

func (c *pconn) countUp(n int) { c.p.traffic.bytes(c.clientID(), time.Now(), n) }

// hold reads and discards what the client sends until it closes the
// connection (a request the proxy swallows).
func (c *pconn) hold(br *bufio.Reader) {
	buf := make([]byte, 4096)
	for {
		n, err := br.Read(buf)
		c.countUp(n)
		if err != nil {
			return
		}
	}
}

// copyUp forwards n bytes of the client's stream upstream (n < 0: until
// it ends); false means the connection ended.
func (c *pconn) copyUp(br *bufio.Reader, n int64) bool {
	buf := make([]byte, 16<<10)
	for n != 0 {
		want := int64(len(buf))
		if n > 0 {
			want = min(want, n)
		}
		k, err := br.Read(buf[:want])
		if k > 0 {
			c.countUp(k)
			c.toUp.send(bytes.Clone(buf[:k]))
			if n > 0 {
				n -= int64(k)
			}
		}
		if err != nil {
			return false
		}
	}
	return true
}

// copyChunked forwards a chunked request body, re-encoded, with its
// trailer.
func (c *pconn) copyChunked(br *bufio.Reader) bool {
	var out bytes.Buffer
	w := httputil.NewChunkedWriter(&out)
	if _, err := io.Copy(w, httputil.NewChunkedReader(br)); err != nil {
		return false
	}
	w.Close()
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return false
		}
		out.Write(line)
		if len(bytes.TrimSpace(line)) == 0 {
			break
		}
	}
	c.countUp(out.Len())
	c.toUp.send(out.Bytes())
	return true
}

// pumpDown forwards the upstream's bytes to the client. When the
// upstream ends the connection the client's side is closed too, unless
// the connection is stalled: a stalled network carries no FIN.
func (c *pconn) pumpDown(up net.Conn) {
	buf := make([]byte, 16<<10)
	for {
		k, err := up.Read(buf)
		if k > 0 {
			c.toDown.send(bytes.Clone(buf[:k]))
		}
		if err != nil {
			if !c.stalled.Load() {
				c.toDown.closeAfter()
			}
			return
		}
	}
}

// readHead reads one request head: its raw bytes and the parsed request
// (whose body, if any, is still in br).
func readHead(br *bufio.Reader) ([]byte, *http.Request, error) {
	var raw []byte
	for {
		line, err := br.ReadSlice('\n')
		if err != nil && err != bufio.ErrBufferFull {
			return nil, nil, err
		}
		raw = append(raw, line...)
		if len(raw) > maxHead {
			return nil, nil, io.ErrShortBuffer
		}
		if err == nil && (string(line) == "\r\n" || string(line) == "\n") && len(raw) > len(line) {
			break
		}
	}
	req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
	return raw, req, err
}

// chunk is a piece of one direction's stream, due at a time.
type chunk struct {
	due   time.Time
	b     []byte
	close bool
}

// line carries one direction's bytes to dst, each delay after it was
// read, in order; a stalled connection's bytes are dropped.
type line struct {
	c     *pconn
	dst   net.Conn
	delay time.Duration
	down  bool // toward the client: counted as its received bytes
	ch    chan chunk
}

func newLine(c *pconn, dst net.Conn, delay time.Duration, down bool) *line {
	l := &line{c: c, dst: dst, delay: delay, down: down, ch: make(chan chunk, 256)}
	c.p.wg.Add(1)
	go l.run()
	return l
}

func (l *line) send(b []byte) {
	select {
	case l.ch <- chunk{due: time.Now().Add(l.delay), b: b}:
	case <-l.c.done:
	}
}

// closeAfter closes the connection once what was sent before is
// delivered.
func (l *line) closeAfter() {
	select {
	case l.ch <- chunk{due: time.Now().Add(l.delay), close: true}:
	case <-l.c.done:
	}
}

func (l *line) run() {
	defer l.c.p.wg.Done()
	for {
		var ck chunk
		select {
		case ck = <-l.ch:
		case <-l.c.done:
			return
		}
		if d := time.Until(ck.due); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-t.C:
			case <-l.c.done:
				t.Stop()
				return
			}
		}
		if ck.close {
			l.c.drop()
			return
		}
		if l.c.stalled.Load() {
			continue
		}
		if _, err := l.dst.Write(ck.b); err != nil {
			l.c.drop()
			return
		}
		if l.down {
			l.c.p.traffic.bytes(l.c.clientID(), time.Now(), len(ck.b))
		}
	}
}

// sampleDist draws one latency from d, as the lab and the simulator do
// (capped at a minute here: no request of the lab waits longer).
func sampleDist(d lab.Dist, r *rand.Rand) time.Duration {
	ms := d.MedianMs
	if d.Sigma > 0 {
		ms *= math.Exp(d.Sigma * r.NormFloat64())
	}
	return time.Duration(min(max(ms, 0), 60_000) * float64(time.Millisecond))
}
