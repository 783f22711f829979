package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// renewer is an Options.RenewToken double that answers with err and
// records the check IDs it was called for.
type renewer struct {
	mu    sync.Mutex
	err   error
	block bool // wait for the context instead
	ids   []engine.CheckID
}

func (rn *renewer) renew(ctx context.Context) error {
	id, _ := CheckIDFrom(ctx)
	rn.mu.Lock()
	rn.ids = append(rn.ids, id)
	err, block := rn.err, rn.block
	rn.mu.Unlock()
	if block {
		<-ctx.Done()
		return ctx.Err()
	}
	return err
}

func (rn *renewer) calls() []engine.CheckID {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return append([]engine.CheckID(nil), rn.ids...)
}

func newRenewRunner(t *testing.T, rn *renewer) (*Runner, *memDialer, *recorder) {
	t.Helper()
	d, rec := newMemDialer(), &recorder{}
	o := Options{Config: engine.AblyConfig(), Dialer: d, CheckConnectivity: NoConnectivityCheck, OnStateChange: rec.add}
	if rn != nil {
		o.RenewToken = rn.renew
	}
	r, err := New(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	return r, d, rec
}

var tokenErr = reconnect.Failure{Kind: reconnect.FailureToken, Status: 401}

func TestTokenErrorWhileConnectingRenewsAndConnectsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rn := &renewer{}
		r, d, rec := newRenewRunner(t, rn)
		r.Connect()
		synctest.Wait()
		d.transport(1).report.Failed(tokenErr) // RTN14b
		synctest.Wait()
		if ids := rn.calls(); len(ids) != 1 || ids[0] == 0 {
			t.Fatalf("RenewToken calls %v, want one carrying its check ID", ids)
		}
		again := d.transport(2)
		if again == nil {
			t.Fatal("no new transport once the token was renewed")
		}
		again.report.Viable()
		again.report.Connected()
		synctest.Wait()
		cs := rec.all()
		if len(cs) != 2 || cs[1].To != engine.Connected {
			t.Fatalf("changes %+v, want CONNECTING then CONNECTED with no state change for the renewal", cs)
		}
	})
}

func TestTokenRenewalRefusedWith403Fails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rn := &renewer{err: fmt.Errorf("auth url: %w", &StatusError{Status: 403})}
		r, d, rec := newRenewRunner(t, rn)
		tr := connectNow(t, r, d)
		tr.report.Closed(tokenErr) // RTN15h: a token DISCONNECTED while connected
		synctest.Wait()
		cs := rec.all()
		last := cs[len(cs)-1]
		want := reconnect.Failure{Kind: reconnect.FailureHTTPStatus, Status: 403}
		var se *StatusError
		if last.To != engine.Failed || last.Failure.WithError(nil) != want || !errors.As(last.Failure, &se) || se.Status != 403 {
			t.Fatalf("last change %+v, want FAILED with %v carrying the *StatusError (RSA4d)", last, want)
		}
		if len(rn.calls()) != 1 {
			t.Fatalf("RenewToken calls %v, want one", rn.calls())
		}
	})
}

func TestTokenRenewalThatFailsRetriesLater(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rn := &renewer{err: errors.New("auth server said no")}
		r, d, rec := newRenewRunner(t, rn)
		r.Connect()
		synctest.Wait()
		d.transport(1).report.Failed(tokenErr)
		synctest.Wait()
		cs := rec.all()
		last := cs[len(cs)-1]
		if last.To != engine.Disconnected || last.Failure.Kind != reconnect.FailureOther || last.RetryIn <= 0 {
			t.Fatalf("last change %+v, want DISCONNECTED with the renewal's failure and a retry", last)
		}
	})
}

func TestTokenRenewalThatHangsTimesOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rn := &renewer{block: true}
		r, d, rec := newRenewRunner(t, rn)
		r.Connect()
		synctest.Wait()
		d.transport(1).report.Failed(tokenErr)
		synctest.Wait()
		if n := len(rec.all()); n != 1 {
			t.Fatalf("changes %+v while the renewal runs, want only CONNECTING", rec.all())
		}
		start := time.Now()
		time.Sleep(engine.AblyConfig().Timeouts.RealtimeRequest)
		synctest.Wait()
		cs := rec.all()
		if len(cs) != 2 {
			t.Fatalf("changes %+v, want DISCONNECTED once realtimeRequestTimeout has passed", cs)
		}
		c := cs[1]
		if c.To != engine.Disconnected || c.Failure.Kind != reconnect.FailureTimeout ||
			c.At.Sub(start) != engine.AblyConfig().Timeouts.RealtimeRequest {
			t.Fatalf("change %+v, want DISCONNECTED with a timeout realtimeRequestTimeout later (RSA4c)", c)
		}
	})
}

func TestTokenErrorWithoutRenewTokenFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, rec := newRenewRunner(t, nil)
		tr := connectNow(t, r, d)
		tr.report.Closed(tokenErr)
		synctest.Wait()
		cs := rec.all()
		if last := cs[len(cs)-1]; last.To != engine.Failed || last.Failure != tokenErr {
			t.Fatalf("last change %+v, want FAILED with the token error (RTN15h1)", last)
		}
	})
}

func TestRenewalFailure(t *testing.T) {
	for _, c := range []struct {
		err  error
		want reconnect.Failure
	}{
		{nil, reconnect.Failure{}},
		{&StatusError{Status: 403}, reconnect.Failure{Kind: reconnect.FailureHTTPStatus, Status: 403}},
		{fmt.Errorf("wrapped: %w", &StatusError{Status: 500, Err: errors.New("boom")}), reconnect.Failure{Kind: reconnect.FailureHTTPStatus, Status: 500}},
		{context.DeadlineExceeded, reconnect.Failure{Kind: reconnect.FailureTimeout}},
		{errors.New("no"), reconnect.Failure{Kind: reconnect.FailureOther}},
		{ErrNoRenewToken, reconnect.Failure{Kind: reconnect.FailureOther}},
	} {
		got := RenewalFailure(c.err)
		if got.WithError(nil) != c.want || got.Unwrap() != c.err {
			t.Errorf("RenewalFailure(%v) = %#v, want %v carrying the error", c.err, got, c.want)
		}
	}
}
