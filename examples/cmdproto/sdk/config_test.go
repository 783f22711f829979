package sdk

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

// silentDialer opens transports that connect at once and then hear
// nothing: a server that stalls after the ok reply.
type silentDialer struct{}

func (silentDialer) Open(_ context.Context, _ runner.OpenRequest, rep runner.Reporter) runner.Transport {
	rep.Viable()
	rep.Connected()
	return silentTransport{}
}

type silentTransport struct{}

func (silentTransport) RequestClose() {}
func (silentTransport) Close()        {}

// TestConfigUnderAStall runs the SDK's engine configuration on the runner
// in a synctest bubble against a server that never pings: the idle limit
// drops each connection exactly IdleLimit after CONNECTED; the first drop
// reconnects at once, the second (within ImmediateInterval) waits for the
// full-jitter backoff's first delay, in [0, 200 ms).
func TestConfigUnderAStall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		changes := make(chan runner.StateChange, 64)
		r, err := runner.New(ctx, runner.Options{
			Config:            config(Options{Endpoints: []string{"localhost:8080"}}),
			Dialer:            silentDialer{},
			CheckConnectivity: runner.NoConnectivityCheck,
			OnStateChange:     func(c runner.StateChange) { changes <- c },
		})
		if err != nil {
			t.Fatal(err)
		}
		next := func(want engine.State) (runner.StateChange, time.Time) {
			for {
				c := <-changes
				if c.To == want && !c.Update {
					return c, time.Now()
				}
			}
		}
		r.Connect()
		_, connectedAt := next(engine.Connected)
		d, droppedAt := next(engine.Disconnected)
		if got := droppedAt.Sub(connectedAt); got != 3*time.Second || d.Failure.Kind != reconnect.FailureTimeout {
			t.Fatalf("dropped %v after CONNECTED with %v, want 3s and timeout", got, d.Failure.Error())
		}
		if d.RetryIn != 0 {
			t.Errorf("the first drop waits %v, want an immediate reconnect", d.RetryIn)
		}
		_, connectedAt = next(engine.Connected)
		d, droppedAt = next(engine.Disconnected)
		if got := droppedAt.Sub(connectedAt); got != 3*time.Second {
			t.Errorf("second drop %v after CONNECTED, want 3s", got)
		}
		if d.RetryIn < 0 || d.RetryIn >= 200*time.Millisecond {
			t.Errorf("the second drop within %v: retry in %v, want a backoff delay in [0, 200ms)", ImmediateInterval, d.RetryIn)
		}
		c, retriedAt := next(engine.Connecting)
		if c.Reason != engine.ReasonRetry || retriedAt.Sub(droppedAt) != d.RetryIn {
			t.Errorf("CONNECTING again after %v (%v), want after the retry delay %v (retry)", retriedAt.Sub(droppedAt), c.Reason, d.RetryIn)
		}
		cancel()
		<-r.Done()
	})
}
