package lab

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

func TestTransportsConnectAndClose(t *testing.T) {
	for _, k := range []reconnect.TransportKind{reconnect.WebSocket, reconnect.HTTP} {
		t.Run(k.String(), func(t *testing.T) {
			s, c := newServer(t, Options{})
			rep, ch := recorder()
			conn := c.Open(k, s.Primary(), reconnect.ModeClean, rep)
			for _, want := range []engine.EventKind{engine.EventTransportViable, engine.EventTransportConnected} {
				if r := next(t, ch); r.kind != want {
					t.Fatalf("got %v %v, want %v", r.kind, r.f, want)
				}
			}
			conn.RequestClose()
			if r := next(t, ch); r.kind != engine.EventTransportClosed || r.f != (reconnect.Failure{}) {
				t.Fatalf("after RequestClose: %v %+v, want a clean close", r.kind, r.f)
			}
			conn.Close()
			waitDone(t, conn)
		})
	}
}

func TestCloseClosesOnTheWire(t *testing.T) {
	for _, k := range []reconnect.TransportKind{reconnect.WebSocket, reconnect.HTTP} {
		t.Run(k.String(), func(t *testing.T) {
			events := make(chan ServerEvent, 64)
			s, c := newServer(t, Options{OnEvent: func(e ServerEvent) { events <- e }})
			rep, ch := recorder()
			conn := c.Open(k, s.Primary(), reconnect.ModeClean, rep)
			next(t, ch)
			next(t, ch)
			conn.Close()
			waitDone(t, conn)
			deadline := time.After(5 * time.Second)
			for seen := false; !seen; {
				select {
				case e := <-events:
					seen = e.What == "closed"
				case <-deadline:
					t.Fatal("the server never saw the transport close")
				}
			}
			select {
			case r := <-ch:
				t.Fatalf("a report after Close: %v", r.kind)
			default:
			}
		})
	}
}

func TestTransportFailures(t *testing.T) {
	cases := []struct {
		name  string
		kind  reconnect.TransportKind
		host  string
		fault HostFault
		want  reconnect.Failure
	}{
		{"websocket rejected 403", reconnect.WebSocket, "", HostFault{WebSocket: PathFault{Reject: 1, RejectStatus: 403}},
			reconnect.Failure{Kind: reconnect.FailureHTTPStatus, Status: 403, Server: "lab"}},
		{"http rejected 503", reconnect.HTTP, "", HostFault{HTTP: PathFault{Reject: 1}},
			reconnect.Failure{Kind: reconnect.FailureHTTPStatus, Status: 503, Server: "lab"}},
		{"websocket refused", reconnect.WebSocket, "", HostFault{Down: true}, reconnect.Failure{Kind: reconnect.FailureRefused}},
		{"http refused", reconnect.HTTP, "", HostFault{Down: true}, reconnect.Failure{Kind: reconnect.FailureRefused}},
		{"unknown host", reconnect.HTTP, "nowhere.test", HostFault{}, reconnect.Failure{Kind: reconnect.FailureDNS}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, c := newServer(t, Options{})
			if err := s.SetFault(s.Primary(), tc.fault); err != nil {
				t.Fatal(err)
			}
			host := tc.host
			if host == "" {
				host = s.Primary()
			}
			rep, ch := recorder()
			conn := c.Open(tc.kind, host, reconnect.ModeClean, rep)
			if r := next(t, ch); r.kind != engine.EventTransportFailed || r.f.WithError(nil) != tc.want { // the Go error the failure carries aside
				t.Fatalf("got %v %+v, want failed %+v", r.kind, r.f, tc.want)
			}
			waitDone(t, conn)
		})
	}
}

func TestTransportKilledAndDropped(t *testing.T) {
	for _, k := range []reconnect.TransportKind{reconnect.WebSocket, reconnect.HTTP} {
		t.Run(k.String()+"/before CONNECTED", func(t *testing.T) {
			s, c := newServer(t, Options{})
			_ = s.SetFault(s.Primary(), HostFault{WebSocket: PathFault{KillBeforeConnected: 1}, HTTP: PathFault{KillBeforeConnected: 1}})
			rep, ch := recorder()
			conn := c.Open(k, s.Primary(), reconnect.ModeClean, rep)
			if r := next(t, ch); r.kind != engine.EventTransportViable {
				t.Fatalf("got %v, want viable", r.kind)
			}
			if r := next(t, ch); r.kind != engine.EventTransportClosed || r.f.Kind != reconnect.FailureUnreachable {
				t.Fatalf("got %v %v, want closed, unreachable", r.kind, r.f)
			}
			waitDone(t, conn)
		})
		t.Run(k.String()+"/dropped with DISCONNECTED 503", func(t *testing.T) {
			s, c := newServer(t, Options{})
			_ = s.SetFault(s.Primary(), HostFault{DropAfter: 50 * time.Millisecond, DisconnectStatus: 503})
			rep, ch := recorder()
			conn := c.Open(k, s.Primary(), reconnect.ModeClean, rep)
			next(t, ch)
			if r := next(t, ch); r.kind != engine.EventTransportConnected {
				t.Fatalf("got %v, want connected", r.kind)
			}
			want := reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: 503}
			if r := next(t, ch); r.kind != engine.EventTransportClosed || r.f != want {
				t.Fatalf("got %v %+v, want closed %+v", r.kind, r.f, want)
			}
			waitDone(t, conn)
		})
	}
}

func TestBlackholedTransportClosesOnRequest(t *testing.T) {
	for _, k := range []reconnect.TransportKind{reconnect.WebSocket, reconnect.HTTP} {
		t.Run(k.String(), func(t *testing.T) {
			s, c := newServer(t, Options{})
			_ = s.SetFault(s.Primary(), HostFault{WebSocket: PathFault{Blackhole: 1}, HTTP: PathFault{Blackhole: 1}})
			rep, ch := recorder()
			conn := c.Open(k, s.Primary(), reconnect.ModeClean, rep)
			select {
			case r := <-ch:
				t.Fatalf("blackholed transport reported %v", r.kind)
			case <-time.After(100 * time.Millisecond):
			}
			conn.Close()
			waitDone(t, conn)
		})
	}
}

func TestConnectivityCheck(t *testing.T) {
	s, c := newServer(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if !c.CheckConnectivity(ctx, s.CheckURL()) {
		t.Fatal("healthy check said down")
	}
	s.SetCheck(CheckFault{Down: true})
	if c.CheckConnectivity(ctx, s.CheckURL()) {
		t.Fatal("down check said up")
	}
	s.SetCheck(CheckFault{Hang: true})
	hctx, hcancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer hcancel()
	if c.CheckConnectivity(hctx, s.CheckURL()) {
		t.Fatal("hanging check said up")
	}
}

// With Options.Message the server sends an application message right
// after CONNECTED on both transports; the client hands it to OnMessage,
// and every request it makes carries Client.Query.
func TestMessageAndQuery(t *testing.T) {
	for _, k := range []reconnect.TransportKind{reconnect.WebSocket, reconnect.HTTP} {
		t.Run(k.String(), func(t *testing.T) {
			queries := make(chan string, 64)
			s, err := NewServer(Options{Message: "hello there"})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			msgs := make(chan string, 4)
			c := &Client{Query: "client=7", OnMessage: func(text string) { msgs <- text },
				Dial: func(ctx context.Context, network, address string) (net.Conn, error) {
					conn, err := s.DialContext(ctx, network, address)
					if err != nil {
						return nil, err
					}
					return &sniffConn{Conn: conn, first: queries}, nil
				}}
			rep, ch := recorder()
			conn := c.Open(k, s.Primary(), reconnect.ModeClean, rep)
			next(t, ch)
			next(t, ch)
			select {
			case m := <-msgs:
				if m != "hello there" {
					t.Fatalf("message %q, want %q", m, "hello there")
				}
			case <-time.After(5 * time.Second):
				t.Fatal("no application message after CONNECTED")
			}
			conn.Close()
			waitDone(t, conn)
			close(queries)
			n := 0
			for q := range queries {
				n++
				if !strings.Contains(q, "client=7") {
					t.Fatalf("a request without the client's query: %q", q)
				}
			}
			if n == 0 {
				t.Fatal("no request seen")
			}
		})
	}
	if _, err := NewServer(Options{Message: "two\nlines"}); err == nil {
		t.Fatal("a two-line Message was accepted")
	}
}

// sniffConn sends the request line of each request written on it.
type sniffConn struct {
	net.Conn
	first chan<- string
}

func (c *sniffConn) Write(b []byte) (int, error) {
	if line, _, ok := strings.Cut(string(b), "\r\n"); ok && strings.Contains(line, " HTTP/1.1") {
		select {
		case c.first <- line:
		default:
		}
	}
	return c.Conn.Write(b)
}
