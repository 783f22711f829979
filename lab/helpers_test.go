package lab

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// report is one transport report, as a test sees it.
type report struct {
	kind engine.EventKind
	f    reconnect.Failure
}

// chanReporter is a Reporter that forwards to a channel.
type chanReporter chan report

func (c chanReporter) Viable() { c <- report{kind: engine.EventTransportViable} }
func (c chanReporter) ConnectedWith(engine.Details, reconnect.Failure) {
	c <- report{kind: engine.EventTransportConnected}
}
func (c chanReporter) Activity() {}
func (c chanReporter) Failed(f reconnect.Failure) {
	c <- report{engine.EventTransportFailed, f}
}
func (c chanReporter) Closed(f reconnect.Failure) {
	c <- report{engine.EventTransportClosed, f}
}
func (c chanReporter) Fatal(f reconnect.Failure) { c <- report{engine.EventFatal, f} }

// recorder returns a Reporter that forwards to a channel.
func recorder() (Reporter, chan report) {
	ch := make(chan report, 16)
	return chanReporter(ch), ch
}

// next waits for the next report (at most 5 s: generous for a loaded
// machine; the tests' timing assertions are elsewhere).
func next(t *testing.T, ch chan report) report {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(5 * time.Second):
		t.Fatal("no report within 5 s")
	}
	return report{}
}

// newServer starts a lab server that the test closes, and checks that no
// goroutine outlives the test.
func newServer(t *testing.T, opts Options) (*Server, *Client) {
	t.Helper()
	noLeaks(t)
	s, err := NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, &Client{Dial: s.DialContext}
}

// noLeaks fails the test if, a few seconds after it ends, more goroutines
// run than when it started.
func noLeaks(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Errorf("%d goroutines left behind (before %d):\n%s", n-before, before, leaked(string(buf)))
		}
	})
}

// leaked keeps the stacks that mention this module.
func leaked(all string) string {
	var keep []string
	for _, g := range strings.Split(all, "\n\n") {
		if strings.Contains(g, "reconnect/lab") || strings.Contains(g, "net/http") || strings.Contains(g, "websocket") {
			keep = append(keep, g)
		}
	}
	return strings.Join(keep, "\n\n")
}

// wait waits for a Conn to finish.
func waitDone(t *testing.T, c Conn) {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("transport did not finish within 5 s")
	}
}
