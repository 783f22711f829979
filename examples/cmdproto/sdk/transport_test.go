package sdk

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/examples/cmdproto/protocol"
	"github.com/reconnect-go/reconnect/examples/cmdproto/server"
	"github.com/reconnect-go/reconnect/runner"
)

// report is one call a transport made into its reporter.
type report struct {
	call string // "viable", "connected", "activity", "failed", "closed", "fatal"
	f    reconnect.Failure
}

// fakeReporter stands in for the runner: it records every report.
type fakeReporter chan report

func (r fakeReporter) Viable()                    { r <- report{call: "viable"} }
func (r fakeReporter) Connected()                 { r <- report{call: "connected"} }
func (r fakeReporter) Activity()                  { r <- report{call: "activity"} }
func (r fakeReporter) Failed(f reconnect.Failure) { r <- report{call: "failed", f: f} }
func (r fakeReporter) Closed(f reconnect.Failure) { r <- report{call: "closed", f: f} }
func (r fakeReporter) Fatal(f reconnect.Failure)  { r <- report{call: "fatal", f: f} }

// next returns the next report, failing the test after 5 s.
func (r fakeReporter) next(t *testing.T) report {
	t.Helper()
	select {
	case rp := <-r:
		return rp
	case <-time.After(5 * time.Second):
		t.Fatal("no report within 5 s")
		return report{}
	}
}

func (r fakeReporter) expect(t *testing.T, calls ...string) report {
	t.Helper()
	var rp report
	for _, want := range calls {
		if rp = r.next(t); rp.call != want {
			t.Fatalf("report %q (%v), want %q", rp.call, rp.f.Error(), want)
		}
	}
	return rp
}

func newShared(onMessage func(string)) *shared {
	return &shared{log: slog.New(slog.NewTextHandler(io.Discard, nil)), token: "t1", onMessage: onMessage}
}

func startServer(t *testing.T) *server.Server {
	t.Helper()
	s := &server.Server{PingInterval: 20 * time.Millisecond, Token: "t1"}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}

func TestViableOnHandshakeConnectedOnReplyThenPingsAsActivity(t *testing.T) {
	s := startServer(t)
	rep, sh := make(fakeReporter, 16), newShared(nil)
	tr := start(s.Addr(), rep, sh)
	rep.expect(t, "viable", "connected", "activity") // the ok reply, then a ping
	tr.CloseFor(runner.CauseStopped)
	sh.wg.Wait()
}

func TestRefusedHandshakeFailsWithTheStatus(t *testing.T) {
	s := startServer(t)
	s.Refuse.Store(true)
	rep, sh := make(fakeReporter, 16), newShared(nil)
	start(s.Addr(), rep, sh)
	rp := rep.expect(t, "failed")
	if rp.f.Kind != reconnect.FailureHTTPStatus || rp.f.Status != 503 {
		t.Errorf("failure %v, want http-status:503", rp.f.Error())
	}
	sh.wg.Wait()
}

func TestUnauthorizedReplyIsFatalWithTheServersError(t *testing.T) {
	s := startServer(t)
	rep, sh := make(fakeReporter, 16), newShared(nil)
	sh.token = "wrong"
	start(s.Addr(), rep, sh)
	rp := rep.expect(t, "viable", "fatal")
	var pe *protocol.Error
	if !errors.As(rp.f, &pe) || pe.Code != protocol.CodeUnauthorized || rp.f.Code != protocol.CodeUnauthorized {
		t.Errorf("fatal failure %v (code %d), want the server's *protocol.Error %d", rp.f.Error(), rp.f.Code, protocol.CodeUnauthorized)
	}
	sh.wg.Wait()
}

func TestEvictionIsClosedWithTheCloseError(t *testing.T) {
	s := startServer(t)
	rep, sh := make(fakeReporter, 64), newShared(nil)
	start(s.Addr(), rep, sh)
	rep.expect(t, "viable", "connected")
	s.DropAll()
	for {
		rp := rep.next(t)
		if rp.call == "activity" {
			continue
		}
		var ce *CloseError
		if rp.call != "closed" || !errors.As(rp.f, &ce) || ce.Code != protocol.CloseEvicted || rp.f.Code != protocol.CloseEvicted {
			t.Fatalf("report %s %v, want closed with the server's %d", rp.call, rp.f.Error(), protocol.CloseEvicted)
		}
		break
	}
	sh.wg.Wait()
}

// earlyEvent is a server that sends an event right after the ok reply,
// before the client can have been activated, then waits.
func earlyEvent(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	if _, _, err := c.Read(r.Context()); err != nil {
		return
	}
	c.Write(r.Context(), websocket.MessageText, protocol.EncodeFrame(protocol.Frame{OK: &protocol.Session{ID: "s"}}))
	c.Write(r.Context(), websocket.MessageText, protocol.EncodeFrame(protocol.Frame{Type: protocol.TypeEvent, Data: "early"}))
	c.Read(r.Context()) // until the client goes
}

func TestEventsAndSendsWaitForActivated(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(earlyEvent))
	defer hs.Close()
	got := make(chan string, 4)
	rep, sh := make(fakeReporter, 16), newShared(func(d string) { got <- d })
	tr := start(strings.TrimPrefix(hs.URL, "http://"), rep, sh)
	rep.expect(t, "viable", "connected", "activity") // the event has been read
	select {
	case d := <-got:
		t.Fatalf("event %q delivered before Activated", d)
	default:
	}
	if err := tr.send(protocol.Command{Cmd: protocol.CmdPublish, Data: "x"}); !errors.Is(err, ErrNotConnected) {
		t.Errorf("send before Activated: %v, want ErrNotConnected", err)
	}
	tr.Activated()
	if d := <-got; d != "early" { // delivered within Activated
		t.Errorf("delivered %q, want early", d)
	}
	if err := tr.send(protocol.Command{Cmd: protocol.CmdPublish, Data: "x"}); err != nil {
		t.Errorf("send once active: %v", err)
	}
	tr.Deactivated(runner.CauseSuperseded)
	if err := tr.send(protocol.Command{Cmd: protocol.CmdPublish, Data: "x"}); !errors.Is(err, ErrNotConnected) {
		t.Errorf("send after Deactivated: %v, want ErrNotConnected", err)
	}
	tr.CloseFor(runner.CauseSuperseded)
	sh.wg.Wait()
}

func TestCloseForSendsTheCausesStatusAndReportsNothingMore(t *testing.T) {
	s := startServer(t)
	s.StallNext.Store(true)
	rep, sh := make(fakeReporter, 16), newShared(nil)
	tr := start(s.Addr(), rep, sh)
	rep.expect(t, "viable", "connected")
	tr.Activated()
	tr.Deactivated(runner.CauseIdleTimeout)
	tr.CloseFor(runner.CauseIdleTimeout)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if !s.WaitClose(ctx, protocol.ClosePingTimeout) {
		t.Fatalf("the server never saw close status %d", protocol.ClosePingTimeout)
	}
	sh.wg.Wait()
	select {
	case rp := <-rep:
		t.Errorf("report %q after CloseFor", rp.call)
	default:
	}
}

// TestCloseStatusFor: the table the package promises, written out.
func TestCloseStatusFor(t *testing.T) {
	want := map[runner.Cause]websocket.StatusCode{
		runner.CauseIdleTimeout:    4008,
		runner.CauseConnectTimeout: 4009,
		runner.CauseFatal:          4010,
		runner.CauseSuperseded:     1001,
		runner.CauseAbandoned:      1001,
		runner.CauseNetworkDown:    1001,
		runner.CauseCloseRequested: 1000,
		runner.CauseStopped:        1000,
		runner.CauseEnded:          1000,
		runner.CauseNone:           1000,
		runner.Cause(200):          1000,
	}
	for why, code := range want {
		if got, reason := CloseStatusFor(why); got != code || reason == "" {
			t.Errorf("CloseStatusFor(%v) = %d %q, want %d and a reason", why, got, reason, code)
		}
	}
}

// busy is a server that answers the connect command with CodeBusy.
func busy(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	if _, _, err := c.Read(r.Context()); err != nil {
		return
	}
	c.Write(r.Context(), websocket.MessageText, protocol.EncodeFrame(protocol.Frame{Error: &protocol.Error{Code: protocol.CodeBusy, Message: "try later"}}))
	c.Read(r.Context()) // until the client goes
}

func TestBusyReplyEndsTheAttemptWithTheServersError(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(busy))
	defer hs.Close()
	rep, sh := make(fakeReporter, 16), newShared(nil)
	tr := start(strings.TrimPrefix(hs.URL, "http://"), rep, sh)
	rp := rep.expect(t, "viable", "closed") // after Viable: Closed, and the runner retries
	var pe *protocol.Error
	if !errors.As(rp.f, &pe) || pe.Code != protocol.CodeBusy || rp.f.Code != protocol.CodeBusy || rp.f.Kind != reconnect.FailureDisconnected {
		t.Errorf("failure %v (code %d), want disconnected with the server's *protocol.Error %d", rp.f.Error(), rp.f.Code, protocol.CodeBusy)
	}
	tr.CloseFor(runner.CauseEnded)
	sh.wg.Wait()
}
