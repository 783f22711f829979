package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// waitResult runs WaitConnected on a goroutine of its own and returns the
// channel its answer arrives on.
func waitResult(r *Runner, ctx context.Context) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- r.WaitConnected(ctx) }()
	return ch
}

// answered returns WaitConnected's answer once everything has settled, or
// fails the test when it is still waiting.
func answered(t *testing.T, ch <-chan error) error {
	t.Helper()
	synctest.Wait()
	select {
	case err := <-ch:
		return err
	default:
		t.Fatal("WaitConnected still waits")
		return nil
	}
}

func stillWaiting(t *testing.T, ch <-chan error) {
	t.Helper()
	synctest.Wait()
	select {
	case err := <-ch:
		t.Fatalf("WaitConnected returned %v, want it still waiting", err)
	default:
	}
}

func connectErr(t *testing.T, err error) *ConnectError {
	t.Helper()
	var ce *ConnectError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v (%T), want a *ConnectError", err, err)
	}
	return ce
}

func TestWaitConnectedReturnsNilOnceConnectedAndActive(t *testing.T) {
	for _, inline := range []bool{false, true} {
		t.Run(fmt.Sprintf("inline=%v", inline), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r, d := newNoteRunner(t, t.Context(), inline, false)
				r.Connect()
				ch := waitResult(r, t.Context())
				stillWaiting(t, ch)
				tr := d.transport(1)
				tr.report.Viable()
				stillWaiting(t, ch) // viable is not connected
				tr.report.Connected()
				if err := answered(t, ch); err != nil {
					t.Fatalf("WaitConnected = %v, want nil", err)
				}
				if r.Active() != Transport(tr) {
					t.Fatal("WaitConnected returned before Active returns the transport")
				}
				// Already CONNECTED: nil at once.
				if err := r.WaitConnected(t.Context()); err != nil {
					t.Fatalf("WaitConnected while connected = %v", err)
				}
			})
		})
	}
}

// The first failure that ends the attempt counts, not a transport's
// failure while another is still to be tried; the SDK's error is inside.
func TestWaitConnectedReturnsTheAttemptsFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, _, _ := newTestRunner(t, t.Context(), engine.AblyConfig())
		r.Connect()
		ch := waitResult(r, t.Context())
		synctest.Wait()
		readErr := fmt.Errorf("sdk: %w", io.ErrUnexpectedEOF)
		refused := reconnect.Failure{Kind: reconnect.FailureOther, Code: 4003}.WithError(readErr)
		d.transport(1).report.Failed(refused) // the websocket: HTTP is still to be tried
		stillWaiting(t, ch)
		d.transport(2).report.Failed(refused) // HTTP too: the attempt has failed
		err := answered(t, ch)
		ce := connectErr(t, err)
		if ce.State != engine.Disconnected || ce.Reason != engine.ReasonConnectFailed || ce.Failure != refused || ce.RetryIn <= 0 || ce.Stopped {
			t.Fatalf("ConnectError %+v, want DISCONNECTED connect-failed with the transport's failure and a retry", ce)
		}
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("errors.Is(%v, io.ErrUnexpectedEOF) = false: the SDK's error is lost", err)
		}
		if got := err.Error(); got != "runner: not connected: disconnected (connect-failed): other code 4003: sdk: unexpected EOF" {
			t.Errorf("Error() = %q", got)
		}
		// DISCONNECTED now: the failure at once, with the errorReason; no
		// wait for the retry.
		ce = connectErr(t, r.WaitConnected(t.Context()))
		if ce.State != engine.Disconnected || ce.Failure != refused || ce.Reason != engine.ReasonConnectFailed {
			t.Fatalf("WaitConnected while DISCONNECTED: %+v", ce)
		}
	})
}

func TestWaitConnectedEndsOnEveryOtherWayOut(t *testing.T) {
	fatal := reconnect.Failure{Kind: reconnect.FailureOther, Status: 400}
	for _, c := range []struct {
		name   string
		end    func(r *Runner, cancel func())
		want   engine.State
		reason engine.Reason
		f      reconnect.Failure
		stop   bool
	}{
		{"close", func(r *Runner, _ func()) { r.Close() }, engine.Closing, engine.ReasonCloseRequested, reconnect.Failure{}, false},
		{"fatal", func(r *Runner, _ func()) { r.Fatal(fatal) }, engine.Failed, engine.ReasonFatal, fatal, false},
		{"network down", func(r *Runner, _ func()) { r.NetworkDown() }, engine.Disconnected, engine.ReasonNetworkDown,
			reconnect.Failure{Kind: reconnect.FailureUnreachable}, false},
		{"stop", func(_ *Runner, cancel func()) { cancel() }, engine.Closed, engine.ReasonClosed, reconnect.Failure{}, true},
	} {
		for _, inline := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/inline=%v", c.name, inline), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					ctx, cancel := context.WithCancel(t.Context())
					defer cancel()
					r, _ := newNoteRunner(t, ctx, inline, false)
					r.Connect()
					ch := waitResult(r, t.Context())
					stillWaiting(t, ch)
					c.end(r, cancel)
					ce := connectErr(t, answered(t, ch))
					if ce.State != c.want || ce.Reason != c.reason || ce.Failure != c.f || ce.Stopped != c.stop {
						t.Fatalf("ConnectError %+v, want %v %v %v stopped=%v", ce, c.want, c.reason, c.f, c.stop)
					}
				})
			})
		}
	}
}

func TestWaitConnectedWithoutAnAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		r, _, _, _ := newTestRunner(t, ctx, engine.AblyConfig())
		// INITIALIZED, nothing asked: at once.
		ce := connectErr(t, r.WaitConnected(t.Context()))
		if ce.State != engine.Initialized || ce.Stopped {
			t.Fatalf("WaitConnected before Connect: %+v", ce)
		}
		// The context's deadline while CONNECTING: its error.
		r.Connect()
		wctx, wcancel := context.WithTimeout(t.Context(), time.Second)
		defer wcancel()
		if err := r.WaitConnected(wctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("WaitConnected past its deadline = %v", err)
		}
		// After the stop: at once, Stopped.
		cancel()
		<-r.Done()
		ce = connectErr(t, r.WaitConnected(t.Context()))
		if !ce.Stopped || ce.State != engine.Closed || ce.Error() != "runner: not connected: the runner has stopped" {
			t.Fatalf("WaitConnected after the stop: %+v (%v)", ce, ce)
		}
	})
}
