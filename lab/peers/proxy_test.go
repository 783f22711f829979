package peers

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/reconnect-go/reconnect/lab"
)

// echoServer is an upstream with a plain endpoint (/hello answers
// "hello"; POST /echo echoes its body) and a websocket endpoint (/ws
// sends "hi", then echoes).
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/hello", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") })
	mux.HandleFunc("POST /echo", func(w http.ResponseWriter, r *http.Request) { io.Copy(w, r.Body) })
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		if c.Write(ctx, websocket.MessageText, []byte("hi")) != nil {
			return
		}
		for {
			typ, b, err := c.Read(ctx)
			if err != nil {
				return
			}
			if c.Write(ctx, typ, b) != nil {
				return
			}
		}
	})
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

func newTestProxy(t *testing.T, f PathFaults) *Proxy {
	t.Helper()
	p, err := NewProxy(map[string]string{"main": echoServer(t)}, 1)
	if err != nil {
		t.Fatal(err)
	}
	p.SetFaults(f)
	t.Cleanup(p.Close)
	return p
}

func get(t *testing.T, url string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

func dialWS(ctx context.Context, p *Proxy, client string) (*websocket.Conn, *http.Response, error) {
	return websocket.Dial(ctx, "ws://"+p.Addr("main")+"/ws?client="+client, &websocket.DialOptions{HTTPClient: &http.Client{Transport: &http.Transport{}}})
}

func TestProxyForwardsAndCounts(t *testing.T) {
	p := newTestProxy(t, PathFaults{})
	start := time.Now()
	if body, err := get(t, "http://"+p.Addr("main")+"/hello?client=3"); err != nil || body != "hello" {
		t.Fatalf("GET through the proxy: %q, %v", body, err)
	}
	resp, err := http.Post("http://"+p.Addr("main")+"/echo?client=3", "text/plain", strings.NewReader("ping"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "ping" {
		t.Fatalf("POST echoed %q", b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := dialWS(ctx, p, "3")
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if _, m, err := c.Read(ctx); err != nil || string(m) != "hi" {
		t.Fatalf("websocket greeting %q, %v", m, err)
	}
	if c.Write(ctx, websocket.MessageText, []byte("x")) != nil {
		t.Fatal("write")
	}
	if _, m, err := c.Read(ctx); err != nil || string(m) != "x" {
		t.Fatalf("websocket echo %q, %v", m, err)
	}
	u := p.Traffic().Usage(3, start, time.Now())
	if u.Sockets < 2 || u.Sockets > 3 || u.Requests != 3 || u.Bytes < 200 {
		t.Fatalf("usage %+v: want 2 or 3 sockets (the POST may reuse the GET's), 3 requests, some bytes", u)
	}
	if p.Traffic().Usage(4, start, time.Now()) != (Usage{}) {
		t.Fatal("another client's usage is not zero")
	}
}

func TestProxyRefusesWebSocket(t *testing.T) {
	p := newTestProxy(t, PathFaults{RefuseWebSocket: true})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, resp, err := dialWS(ctx, p, "1")
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("websocket through a refusing proxy: %v, %v", resp, err)
	}
	if body, err := get(t, "http://"+p.Addr("main")+"/hello"); err != nil || body != "hello" {
		t.Fatalf("plain HTTP must pass: %q, %v", body, err)
	}
}

func TestProxyBlackholesWebSocket(t *testing.T) {
	p := newTestProxy(t, PathFaults{BlackholeWebSocket: true})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, _, err := dialWS(ctx, p, "1"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("websocket through a blackholing proxy: %v, want the deadline", err)
	}
}

func TestProxyLatency(t *testing.T) {
	p := newTestProxy(t, PathFaults{HTTP: lab.Dist{MedianMs: 200}})
	start := time.Now()
	if _, err := get(t, "http://"+p.Addr("main")+"/hello"); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 200*time.Millisecond || d > 2*time.Second {
		t.Fatalf("a request with a 200 ms round trip took %v", d)
	}
}

func TestProxyDropStallDown(t *testing.T) {
	p := newTestProxy(t, PathFaults{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	open := func() *websocket.Conn {
		c, _, err := dialWS(ctx, p, "1")
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Read(ctx); err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := open()
	p.DropAll()
	if _, _, err := c.Read(ctx); err == nil {
		t.Fatal("read after a drop succeeded")
	}
	c.CloseNow()

	c = open()
	defer c.CloseNow()
	p.StallAll()
	if c.Write(ctx, websocket.MessageText, []byte("x")) != nil {
		t.Fatal("write on a stalled connection failed at once")
	}
	sctx, scancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer scancel()
	if _, _, err := c.Read(sctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("read on a stalled connection: %v, want nothing until the deadline", err)
	}
	// New connections are not stalled.
	open().CloseNow()

	if err := p.SetDown(true, "main"); err != nil {
		t.Fatal(err)
	}
	if _, err := net.Dial("tcp", p.Addr("main")); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("dial to a host that is down: %v, want refused", err)
	}
	if err := p.SetDown(false, "main"); err != nil {
		t.Fatal(err)
	}
	open().CloseNow()
}

func TestAcceptPeak(t *testing.T) {
	tr := newTraffic()
	t0 := time.Now()
	for _, ms := range []int{0, 100, 900, 1000, 1050, 1800, 3000} {
		tr.accepted(t0.Add(time.Duration(ms)*time.Millisecond), "main")
	}
	tr.accepted(t0.Add(950*time.Millisecond), "check")
	n, at := tr.AcceptPeak(t0, "check")
	if n != 4 || !at.Equal(t0.Add(100*time.Millisecond)) {
		t.Fatalf("peak %d at %v, want 4 from 100ms (100, 900, 1000, 1050)", n, at.Sub(t0))
	}
}
