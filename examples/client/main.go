// Command client is a complete realtime client on the runner: a websocket
// (github.com/coder/websocket) and an HTTP transport, a tiny server it
// starts itself on loopback, host names mapped to addresses, Go errors
// classified into the failures the fallback rules read, every state change
// logged, and a clean close.
//
//	go run ./client                    # connects over the websocket
//	go run ./client -reject-websocket  # a proxy refuses websockets: HTTP connects
//	go run ./client -primary-down      # the primary host refuses: the fallback host connects
//	go run ./client -inline            # the runner calls this client's code inside its calls
//
// It exits 0 once it has connected and closed, 1 otherwise.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

func main() {
	reject := flag.Bool("reject-websocket", false, "answer websocket requests 403, as a proxy that blocks them does")
	primaryDown := flag.Bool("primary-down", false, "refuse connections to the primary host")
	inline := flag.Bool("inline", false, "runner.Options.Inline: this client's code holds no lock across its calls into the runner, its Close waits for no goroutine, and its code returns at once")
	flag.Parse()

	srv := &server{}
	srv.rejectWebSocket.Store(*reject)
	addr, stop := srv.start()
	defer stop()

	// Your own hosts (there is no default host), each mapped to
	// an address; with -primary-down the primary's address refuses.
	hosts := map[string]string{"realtime.example.test": addr, "fallback.example.test": addr}
	if *primaryDown {
		hosts["realtime.example.test"] = refusingAddress()
	}
	cfg := engine.Defaults()
	cfg.Endpoint = reconnect.EndpointOptions{
		Endpoint:      "realtime.example.test",
		FallbackHosts: []string{"fallback.example.test"},
	}
	cfg.ShortCircuit = 500 * time.Millisecond

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	changes := make(chan runner.StateChange, runner.MaxQueuedChanges)
	r, err := runner.New(ctx, runner.Options{
		Config: cfg,
		Dialer: dialer{hosts: hosts},
		// Required (runner.NoConnectivityCheck for none): asked before a
		// fallback host. Here the internet is "up" when our own server
		// answers.
		CheckConnectivity: func(ctx context.Context) bool { return ctx.Err() == nil },
		OnStateChange:     func(c runner.StateChange) { changes <- c }, // never blocks: room for every change the runner keeps
		Inline:            *inline,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err) // a *reconnect.FieldError naming the field
		os.Exit(1)
	}

	r.Connect()
	if !await(ctx, changes, engine.Connected) {
		os.Exit(1)
	}
	r.Close()
	if !await(ctx, changes, engine.Closed) {
		os.Exit(1)
	}
	cancel()
	<-r.Done() // every goroutine of the runner has ended
}

// await logs state changes until the connection reaches want, and
// reports whether it did before ctx ended.
func await(ctx context.Context, changes <-chan runner.StateChange, want engine.State) bool {
	for {
		select {
		case c := <-changes:
			line := fmt.Sprintf("%-12v → %-12v %v", c.From, c.To, c.Reason)
			if c.Failure.Kind != reconnect.FailureNone {
				line += fmt.Sprintf(" (%v)", c.Failure)
			}
			if c.To == engine.Connected {
				line += fmt.Sprintf(" over %v to %s", c.Transport, c.Host)
			}
			fmt.Println(line)
			if c.To == want {
				return true
			}
		case <-ctx.Done():
			fmt.Fprintln(os.Stderr, "gave up waiting for", want)
			return false
		}
	}
}

// refusingAddress returns a loopback address where nothing listens.
func refusingAddress() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
