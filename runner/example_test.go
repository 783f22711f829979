package runner_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

// loopback is a Dialer whose transports connect at once and close cleanly
// when asked to: a stand-in for an SDK's websocket and HTTP transports.
type loopback struct{}

type loopbackTransport struct{ report runner.Reporter }

func (loopback) Open(_ context.Context, req runner.OpenRequest, report runner.Reporter) runner.Transport {
	// A real transport dials here, on its own goroutine, and reports when
	// the handshake completes (viable) and CONNECTED arrives (connected).
	report.Viable()
	report.Connected()
	return &loopbackTransport{report: report}
}

// Send is what the SDK adds for its messages.
func (t *loopbackTransport) Send(msg string) { fmt.Println("send", msg) }

// RequestClose sends CLOSE; the server answers CLOSED and the transport
// closes cleanly.
func (t *loopbackTransport) RequestClose() { t.report.Closed(reconnect.Failure{}) }

func (t *loopbackTransport) Close() {}

func Example() {
	ctx, stop := context.WithCancel(context.Background())
	changes := make(chan runner.StateChange, 8)
	cfg := engine.Defaults()
	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: "rt.example.com"}
	r, err := runner.New(ctx, runner.Options{
		Config:            cfg,
		Dialer:            loopback{},
		CheckConnectivity: runner.NoConnectivityCheck, // no fallback host to check for
		OnStateChange:     func(c runner.StateChange) { changes <- c },
	})
	if err != nil {
		panic(err)
	}
	r.Connect()
	for c := <-changes; ; c = <-changes {
		if c.To == engine.Connected {
			fmt.Println(c.From, "→", c.To, "by", c.TransportKind, "to", c.Host)
			break
		}
		fmt.Println(c.From, "→", c.To, c.Reason)
	}
	r.Active().(*loopbackTransport).Send("hello")
	r.Close()
	for c := <-changes; ; c = <-changes {
		fmt.Println(c.From, "→", c.To, c.Reason)
		if c.To == engine.Closed {
			break
		}
	}
	stop()
	<-r.Done()
	// Output:
	// initialized → connecting connect-requested
	// connecting → connected by websocket to rt.example.com
	// send hello
	// connected → closing close-requested
	// closing → closed closed
}

// HTTPConnectivityCheck is the connectivity check of RTN17j; an SDK passes
// it, with its own HTTP client and check URL, as Options.CheckConnectivity.
func ExampleHTTPConnectivityCheck() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "yes")
	}))
	defer srv.Close()
	check := runner.HTTPConnectivityCheck(srv.Client(), srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), reconnect.DefaultTimeouts().HTTPRequest)
	defer cancel()
	fmt.Println("up:", check(ctx))
	// Output: up: true
}
