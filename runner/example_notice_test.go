package runner_test

import (
	"context"
	"fmt"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

// noticed is a transport that follows the runner through the notices:
// it knows when it is the active transport, and why it stopped being it
// and why it is closed, with no state machine of its own.
type noticed struct {
	id     engine.TransportID
	report runner.Reporter
}

type noticeDialer struct{}

func (noticeDialer) Open(_ context.Context, req runner.OpenRequest, report runner.Reporter) runner.Transport {
	report.Viable()
	report.Connected()
	return &noticed{id: req.ID, report: report}
}

// Activated: from now on this transport carries the connection's
// messages (finish the CONNECTED processing here: subscriptions, the
// queued messages).
func (t *noticed) Activated() { fmt.Printf("T%d activated\n", t.id) }

// Deactivated: no longer the active transport; why says which close code
// to send, say.
func (t *noticed) Deactivated(why runner.Cause) { fmt.Printf("T%d deactivated: %v\n", t.id, why) }

// CloseFor replaces Close for a runner.CauseCloser.
func (t *noticed) CloseFor(why runner.Cause) { fmt.Printf("T%d closed: %v\n", t.id, why) }

func (t *noticed) RequestClose() {
	fmt.Printf("T%d sends CLOSE\n", t.id)
	t.report.Closed(reconnect.Failure{}) // the server's CLOSED
}

func (t *noticed) Close() {} // never called: CloseFor is

func ExampleNotified() {
	ctx, stop := context.WithCancel(context.Background())
	cfg := engine.Defaults()
	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: "rt.example.com"}
	r, err := runner.New(ctx, runner.Options{
		Config:            cfg,
		Dialer:            noticeDialer{},
		CheckConnectivity: runner.NoConnectivityCheck,
		OnStateChange: func(c runner.StateChange) {
			fmt.Println(c.From, "→", c.To, c.Reason, "transport", c.TransportID)
		},
		Inline: true, // this example's code keeps Inline's promises; it makes the output's order exact
	})
	if err != nil {
		panic(err)
	}
	r.Connect()
	r.Close()
	stop()
	<-r.Done()
	// Output:
	// initialized → connecting connect-requested transport 0
	// T1 activated
	// connecting → connected connected transport 1
	// T1 sends CLOSE
	// connected → closing close-requested transport 1
	// T1 deactivated: close-requested
	// T1 closed: close-requested
	// closing → closed closed transport 1
}
