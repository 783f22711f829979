package runner_test

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

// refusing is a Dialer whose every transport is refused, as by a server
// that is down: the dial's error travels inside the Failure.
type refusing struct{}

func (refusing) Open(_ context.Context, _ runner.OpenRequest, report runner.Reporter) runner.Transport {
	err := fmt.Errorf("sdk: dial: %w", syscall.ECONNREFUSED)
	report.Failed(runner.Classify(err, nil))
	return refused{}
}

// refused is a transport with nothing to close.
type refused struct{}

func (refused) RequestClose() {}
func (refused) Close()        {}

// connect is the SDK's Connect: it connects and returns the first
// attempt's outcome, without polling the state.
func connect(ctx context.Context, r *runner.Runner) error {
	r.Connect()
	return r.WaitConnected(ctx)
}

func ExampleRunner_WaitConnected() {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	cfg := engine.Defaults()
	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: "rt.example.com"}

	r, _ := runner.New(ctx, runner.Options{Config: cfg, Dialer: loopback{}, CheckConnectivity: runner.NoConnectivityCheck})
	fmt.Println("loopback:", connect(ctx, r))

	r, _ = runner.New(ctx, runner.Options{Config: cfg, Dialer: refusing{}, CheckConnectivity: runner.NoConnectivityCheck})
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	err := connect(wctx, r)
	fmt.Println("refusing:", err)
	var ce *runner.ConnectError
	if errors.As(err, &ce) {
		fmt.Println(ce.State, ce.Failure.Kind, errors.Is(err, syscall.ECONNREFUSED), ce.RetryIn > 0)
	}
	// Output:
	// loopback: <nil>
	// refusing: runner: not connected: disconnected (connect-failed): refused: sdk: dial: connection refused
	// disconnected refused true true
}
