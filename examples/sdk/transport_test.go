package sdk

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/examples/protocol"
	"github.com/reconnect-go/reconnect/examples/server"
	"github.com/reconnect-go/reconnect/runner"
)

// report is one report a transport made.
type report struct {
	kind    string // viable, connected, failed, closed, fatal
	f       reconnect.Failure
	maxIdle time.Duration // connected's maxIdleInterval
}

// activityRecorder is a recorder that counts the Activity reports.
type activityRecorder struct {
	recorder
	n *atomic.Int64
}

func (r activityRecorder) Activity() { r.n.Add(1) }

// recorder is a reporter that records every report.
type recorder chan report

func (r recorder) Viable() { r <- report{kind: "viable"} }
func (r recorder) ConnectedWith(d engine.Details, _ reconnect.Failure) {
	r <- report{kind: "connected", maxIdle: d.MaxIdleInterval}
}
func (r recorder) Activity()                  {} // counted by activityRecorder
func (r recorder) Failed(f reconnect.Failure) { r <- report{kind: "failed", f: f} }
func (r recorder) Closed(f reconnect.Failure) { r <- report{kind: "closed", f: f} }
func (r recorder) Fatal(f reconnect.Failure)  { r <- report{kind: "fatal", f: f} }

// open opens a transport of kind k to host, every host name resolving to
// addr but "unknown.test", and returns it, its reports and a function that
// waits for its goroutines.
func open(t *testing.T, k reconnect.TransportKind, host, addr string) (runner.Transport, recorder, func()) {
	t.Helper()
	rec := make(recorder, 8)
	tr, wait := openWith(t, k, host, addr, rec)
	return tr, rec, wait
}

// openConnected opens a transport of kind k to the host "rt.test" at
// addr and waits for it to report viable, then connected.
func openConnected(t *testing.T, k reconnect.TransportKind, addr string) (runner.Transport, recorder, func()) {
	t.Helper()
	tr, rec, wait := open(t, k, "rt.test", addr)
	want(t, rec, report{kind: "viable"}, report{kind: "connected"})
	return tr, rec, wait
}

// openWith is open reporting to rep, with the example server's first
// token.
func openWith(t *testing.T, k reconnect.TransportKind, host, addr string, rep reporter) (runner.Transport, func()) {
	t.Helper()
	sh := &shared{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	tok := "tok-0"
	sh.token.Store(&tok)
	d := newDialer(func(h string) (string, bool) { return addr, h != "unknown.test" }, sh)
	tr := d.open(runner.OpenRequest{ID: 1, Kind: k, Host: host}, rep)
	t.Cleanup(tr.Close)
	return tr, sh.wg.Wait
}

// want checks the next reports.
func want(t *testing.T, rec recorder, reports ...report) {
	t.Helper()
	for _, w := range reports {
		select {
		case r := <-rec:
			// The failure is compared without the Go error it carries
			// (runner.Classify keeps it: the users' logs show it).
			if r.f = r.f.WithError(nil); r != w {
				t.Fatalf("reported %s %v %v, want %s %v %v", r.kind, r.f, r.maxIdle, w.kind, w.f, w.maxIdle)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no report; want %s %v", w.kind, w.f)
		}
	}
}

// exampleServer starts the example server on one loopback port.
func exampleServer(t *testing.T) (*server.Server, string) {
	t.Helper()
	s := &server.Server{}
	addr, _, err := s.Listen()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, addr
}

// refusing returns a loopback address where nothing listens.
func refusing(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	return ln.Addr().String()
}

// The websocket library wraps the dial's error with %w, so
// runner.Classify reads a refusal and an unknown host from websocket.Dial's
// error as it is: no transport needs to keep the dial's error beside it.
func TestClassifyReadsWebSocketDialErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, "ws://"+refusing(t)+"/ws", nil)
	if f := runner.Classify(err, resp); f.Kind != reconnect.FailureRefused {
		t.Errorf("refused: Classify(%v) = %v, want refused", err, f)
	}
	hc := &http.Client{Transport: &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
		return nil, &net.DNSError{Err: "no such host", Name: "unknown.test", IsNotFound: true}
	}}}
	_, resp, err = websocket.Dial(ctx, "ws://unknown.test/ws", &websocket.DialOptions{HTTPClient: hc})
	if f := runner.Classify(err, resp); f.Kind != reconnect.FailureDNS {
		t.Errorf("unknown host: Classify(%v) = %v, want dns", err, f)
	}
}

// Before Viable a transport ends with Failed, the failure classified.
func TestTransportsFailBeforeViable(t *testing.T) {
	s, addr := exampleServer(t)
	s.RejectWebSocket.Store(true)
	for _, tc := range []struct {
		name       string
		kind       reconnect.TransportKind
		host, addr string
		want       reconnect.Failure
	}{
		{"websocket refused", reconnect.WebSocket, "rt.test", refusing(t), reconnect.Failure{Kind: reconnect.FailureRefused}},
		{"websocket unknown host", reconnect.WebSocket, "unknown.test", addr, reconnect.Failure{Kind: reconnect.FailureDNS}},
		{"websocket 403", reconnect.WebSocket, "rt.test", addr, reconnect.Failure{Kind: reconnect.FailureHTTPStatus, Status: 403}},
		{"long-poll refused", reconnect.HTTP, "rt.test", refusing(t), reconnect.Failure{Kind: reconnect.FailureRefused}},
		{"long-poll unknown host", reconnect.HTTP, "unknown.test", addr, reconnect.Failure{Kind: reconnect.FailureDNS}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, rec, wait := open(t, tc.kind, tc.host, tc.addr)
			want(t, rec, report{"failed", tc.want, 0})
			wait()
		})
	}
}

// After Viable a transport ends with Closed, whether CONNECTED came or
// not: the zero Failure for the server's CLOSED, how it ended otherwise.
func TestTransportsCloseAfterViable(t *testing.T) {
	for _, k := range []reconnect.TransportKind{reconnect.WebSocket, reconnect.HTTP} {
		t.Run(k.String()+"/clean close", func(t *testing.T) {
			_, addr := exampleServer(t)
			tr, rec, wait := openConnected(t, k, addr)
			tr.RequestClose()
			want(t, rec, report{kind: "closed"})
			wait()
		})
		t.Run(k.String()+"/dropped after CONNECTED", func(t *testing.T) {
			s, addr := exampleServer(t)
			_, rec, wait := openConnected(t, k, addr)
			s.DropAll()
			r := <-rec
			if r.kind != "closed" || r.f.Kind == reconnect.FailureNone {
				t.Fatalf("reported %s %v, want closed with a failure", r.kind, r.f)
			}
			wait()
		})
	}
	// Viable, then the socket ends before CONNECTED: Closed, not Failed.
	for _, tc := range []struct {
		name string
		send string // what the server sends before it closes the socket
		want report
	}{
		{"cut before CONNECTED", "", report{"closed", reconnect.Failure{Kind: reconnect.FailureUnreachable}, 0}},
		{"DISCONNECTED before CONNECTED", "DISCONNECTED 503", report{"closed", reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: 503}, 0}},
		{"fatal ERROR", "ERROR 400", report{"fatal", reconnect.Failure{Kind: reconnect.FailureOther}, 0}},
	} {
		t.Run("websocket/"+tc.name, func(t *testing.T) {
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				c, err := websocket.Accept(w, r, nil)
				if err != nil {
					return
				}
				if tc.send != "" {
					c.Write(r.Context(), websocket.MessageText, []byte(tc.send))
				}
				c.CloseNow()
			}))
			defer hs.Close()
			_, rec, wait := open(t, reconnect.WebSocket, "rt.test", strings.TrimPrefix(hs.URL, "http://"))
			want(t, rec, report{kind: "viable"}, tc.want)
			wait()
		})
	}
	t.Run("long-poll/cut before CONNECTED", func(t *testing.T) {
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == protocol.PathConnect {
				w.Header().Set(protocol.HeaderSession, "s1")
				w.WriteHeader(http.StatusOK) // no CONNECTED yet: it would come in a poll
				return
			}
			panic(http.ErrAbortHandler) // the poll: the connection is cut
		}))
		defer hs.Close()
		_, rec, wait := open(t, reconnect.HTTP, "rt.test", strings.TrimPrefix(hs.URL, "http://"))
		want(t, rec, report{kind: "viable"}, report{"closed", reconnect.Failure{Kind: reconnect.FailureUnreachable}, 0})
		wait()
	})
}

// After Close a transport reports nothing, and its goroutines end.
func TestTransportsReportNothingAfterClose(t *testing.T) {
	for _, k := range []reconnect.TransportKind{reconnect.WebSocket, reconnect.HTTP} {
		t.Run(k.String(), func(t *testing.T) {
			_, addr := exampleServer(t)
			tr, rec, wait := openConnected(t, k, addr)
			tr.Close()
			wait()
			select {
			case r := <-rec:
				t.Fatalf("reported %s %v after Close", r.kind, r.f)
			default:
			}
		})
	}
}

// CONNECTED's maxIdleInterval reaches the runner with ConnectedWith, and
// every message after it (HEARTBEATs on a websocket, a long poll's
// answers) is reported as Activity, so that the idle timer keeps a live
// transport.
func TestTransportsReportDetailsAndActivity(t *testing.T) {
	for _, k := range []reconnect.TransportKind{reconnect.WebSocket, reconnect.HTTP} {
		t.Run(k.String(), func(t *testing.T) {
			s := &server.Server{MaxIdleInterval: 50 * time.Millisecond}
			addr, _, err := s.Listen()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s.Close)
			rec := activityRecorder{recorder: make(recorder, 8), n: new(atomic.Int64)}
			tr, wait := openWith(t, k, "rt.test", addr, rec)
			want(t, rec.recorder, report{kind: "viable"}, report{kind: "connected", maxIdle: 50 * time.Millisecond})
			deadline := time.Now().Add(10 * time.Second)
			for rec.n.Load() < 3 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if n := rec.n.Load(); n < 3 {
				t.Fatalf("%d activity reports in 10 s with a 50 ms maxIdleInterval, want at least 3", n)
			}
			tr.Close()
			wait()
		})
	}
}

// A token error (DISCONNECTED 401 40142) ends the transport with
// FailureToken, which the runner answers with Options.RenewToken; a
// connect request with the old token gets the same.
func TestTransportsReportTokenErrors(t *testing.T) {
	for _, k := range []reconnect.TransportKind{reconnect.WebSocket, reconnect.HTTP} {
		t.Run(k.String(), func(t *testing.T) {
			s, addr := exampleServer(t)
			_, rec, wait := openConnected(t, k, addr)
			if n := s.ExpireTokens(); n != 1 {
				t.Fatalf("ExpireTokens told %d connections, want 1", n)
			}
			token := reconnect.Failure{Kind: reconnect.FailureToken, Status: 401}
			want(t, rec, report{"closed", token, 0})
			wait()
			_, rec, wait = open(t, k, "rt.test", addr) // still tok-0: expired
			want(t, rec, report{kind: "viable"}, report{"closed", token, 0})
			wait()
		})
	}
}
