package runner

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// The tests of the Ably specification's Universal Test Specifications
// (ably/specification, uts/) that the runner owns
// (conformance/uts/catalogue.json, owner runner): autoConnect, connect
// and close as an SDK calls them, the connectivity check's URL, and the
// classification of a dropped connection. Each subtest is named after the
// UTS test's ID and carries its <file>#<id> in ref; docs/conformance.md
// counts them. autoConnect is the SDK's option: the runner has none, and an
// SDK with autoConnect calls Connect right after New, which is what the
// RTN3 and RTC1b translations do.

type utsRunnerCase struct {
	ref string // <file>#<id>
	run func(t *testing.T)
}

// utsID is the test ID of ref, the subtest's name.
func utsID(ref string) string {
	for i := len(ref) - 1; i >= 0; i-- {
		if ref[i] == '#' {
			return ref[i+1:]
		}
	}
	return ref
}

func TestUTS(t *testing.T) {
	for _, c := range []utsRunnerCase{
		{"uts/realtime/unit/connection/auto_connect_test.md#realtime/unit/RTN3/auto-connect-true-0", utsAutoConnectTrue},
		{"uts/realtime/unit/connection/auto_connect_test.md#realtime/unit/RTN3/auto-connect-false-1", utsAutoConnectFalse},
		{"uts/realtime/unit/connection/auto_connect_test.md#realtime/unit/RTN3/explicit-connect-after-false-2", utsExplicitConnectAfterFalse},
		{"uts/realtime/unit/client/realtime_client.md#realtime/unit/RTC1b/auto-connect-option-0", utsAutoConnectOption},
		{"uts/realtime/unit/client/realtime_client.md#realtime/unit/RTC15/connect-method-0", utsExplicitConnectAfterFalse},
		{"uts/realtime/unit/client/realtime_client.md#realtime/unit/RTC16/close-method-0", utsCloseMethod},
		{"uts/rest/unit/fallback.md#rest/unit/REC3a/default-connectivity-check-url-0", utsDefaultConnectivityCheckURL},
		{"uts/rest/unit/fallback.md#rest/unit/REC3b/custom-connectivity-check-url-0", utsCustomConnectivityCheckURL},
		{"uts/rest/integration/proxy/rest_fallback.md#rest/proxy/RSC15l/connection-drop-fallback-1", utsConnectionDropQualifies},
	} {
		t.Run(utsID(c.ref), c.run)
	}
}

// utsConnects makes the transport Connect opened connect, and checks the
// states on the way: CONNECTING with one websocket on the primary, clean,
// then CONNECTED.
func utsConnects(t *testing.T, r *Runner, d *memDialer) *memTransport {
	t.Helper()
	r.Connect()
	synctest.Wait()
	if s := r.State(); s != engine.Connecting {
		t.Fatalf("after Connect: state %v, want connecting", s)
	}
	tr := d.transport(1)
	if tr == nil || tr.req.Kind != reconnect.WebSocket || tr.req.Host != "main.realtime.ably.net" || tr.req.Mode != reconnect.ModeClean {
		t.Fatalf("first transport %+v, want a websocket to main.realtime.ably.net, clean", tr)
	}
	reportConnected(t, r, tr, engine.Details{})
	return tr
}

// RTN3: autoConnect true (the default): the client connects without a
// connect call — the SDK calls Connect right after New.
func utsAutoConnectTrue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, _, rec := newTestRunner(t, t.Context(), engine.AblyConfig())
		utsConnects(t, r, d)
		if got := utsStates(rec); len(got) != 2 || got[0] != engine.Connecting || got[1] != engine.Connected {
			t.Fatalf("changes to %v, want connecting, connected", got)
		}
	})
}

// RTN3: autoConnect false: no connection is opened; 500 ms later the state
// is still INITIALIZED.
func utsAutoConnectFalse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, _, rec := newTestRunner(t, t.Context(), engine.AblyConfig())
		time.Sleep(500 * time.Millisecond)
		synctest.Wait()
		if s := r.State(); s != engine.Initialized {
			t.Fatalf("state %v, want initialized", s)
		}
		if n := len(d.lines()); n != 0 || len(rec.all()) != 0 {
			t.Fatalf("%d transports opened, %d changes; want none", n, len(rec.all()))
		}
	})
}

// RTN3, RTC15: INITIALIZED without a transport; an explicit connect opens
// exactly one, and the connection is CONNECTED.
func utsExplicitConnectAfterFalse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, _, _ := newTestRunner(t, t.Context(), engine.AblyConfig())
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		if s := r.State(); s != engine.Initialized || len(d.lines()) != 0 {
			t.Fatalf("before connect: state %v, %d transports; want initialized, none", s, len(d.lines()))
		}
		utsConnects(t, r, d)
		if n := len(d.lines()); n != 1 {
			t.Fatalf("transport log %v, want one open", d.lines())
		}
	})
}

// RTC1b: the three cases of autoConnect: true connects at once, false
// stays INITIALIZED, and false then connect connects.
func utsAutoConnectOption(t *testing.T) {
	t.Run("true", utsAutoConnectTrue)
	t.Run("false", utsAutoConnectFalse)
	t.Run("false-then-connect", utsExplicitConnectAfterFalse)
}

// RTC16: close while CONNECTED: CLOSING (the runner asks the transport to
// send CLOSE), then CLOSED once the server's CLOSED closes the transport.
func utsCloseMethod(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, _, rec := newTestRunner(t, t.Context(), engine.AblyConfig())
		tr := utsConnects(t, r, d)
		r.Close()
		synctest.Wait()
		if s := r.State(); s != engine.Closing || !tr.closeRq {
			t.Fatalf("after Close: state %v, close requested %v; want closing, requested", s, tr.closeRq)
		}
		tr.report.Closed(reconnect.Failure{})
		synctest.Wait()
		if s := r.State(); s != engine.Closed {
			t.Fatalf("state %v, want closed", s)
		}
		got := utsStates(rec)
		if want := []engine.State{engine.Connecting, engine.Connected, engine.Closing, engine.Closed}; len(got) != len(want) || got[2] != want[2] || got[3] != want[3] {
			t.Fatalf("changes to %v, want %v", got, want)
		}
	})
}

// REC3a: the default connectivity check URL is
// https://internet-up.ably-realtime.com/is-the-internet-up.txt, and its
// answer "yes" is up. The preset for Ably's service checks that URL.
func utsDefaultConnectivityCheckURL(t *testing.T) {
	if reconnect.AblyConnectivityCheckURL != "https://internet-up.ably-realtime.com/is-the-internet-up.txt" {
		t.Fatalf("AblyConnectivityCheckURL = %q", reconnect.AblyConnectivityCheckURL)
	}
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.Path)
		mu.Unlock()
		_, _ = w.Write([]byte("yes"))
	}))
	defer srv.Close()
	if !HTTPConnectivityCheck(srv.Client(), srv.URL+"/is-the-internet-up.txt")(context.Background()) {
		t.Fatal("the answer yes is not up")
	}
	if len(paths) != 1 || paths[0] != "GET /is-the-internet-up.txt" {
		t.Fatalf("requests %v, want one GET of /is-the-internet-up.txt", paths)
	}
}

// REC3b: a custom connectivity check URL: the requests go to it, and none
// to the default.
func utsCustomConnectivityCheckURL(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		_, _ = w.Write([]byte("yes"))
	}))
	defer srv.Close()
	check := HTTPConnectivityCheck(srv.Client(), srv.URL+"/connectivity")
	for range 2 {
		if !check(context.Background()) {
			t.Fatal("the custom check's yes is not up")
		}
	}
	for _, p := range paths {
		if p != "/connectivity" {
			t.Fatalf("requests %v, want only /connectivity", paths)
		}
	}
	if len(paths) != 2 {
		t.Fatalf("requests %v, want two", paths)
	}
}

// RSC15l (the REST proxy test): a request whose connection is reset
// fails in a way that qualifies for a fallback host (RSC15l1, host
// unreachable), so a second request goes to another host.
func utsConnectionDropQualifies(t *testing.T) {
	err := &netOpError{err: syscall.ECONNRESET}
	f := Classify(err, nil)
	if !reconnect.ShouldFallback(f) {
		t.Fatalf("Classify(ECONNRESET) = %+v, which does not qualify for a fallback host", f)
	}
}

// utsStates is the state each recorded change went to, in order.
func utsStates(rec *recorder) []engine.State {
	var out []engine.State
	for _, c := range rec.all() {
		out = append(out, c.To)
	}
	return out
}

// netOpError wraps an errno as a network operation's error does.
type netOpError struct{ err error }

func (e *netOpError) Error() string { return "read tcp: " + e.err.Error() }
func (e *netOpError) Unwrap() error { return e.err }
