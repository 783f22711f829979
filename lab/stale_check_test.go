package lab

import (
	"context"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

// TestLateCheckAnswerFromAnEndedAttemptChangesNothing: an SDK whose
// connectivity check cannot be cancelled (its HTTP request runs to the end
// whatever the context says) reports every answer, late or not, with its
// check's ID. The primary refuses everything, each refusal after 500 ms,
// and the check host answers "no" after 2 s. The first attempt's check C1
// is in flight when the OS reports the network down; the reconnect that
// follows at once (RTN20a) is refused in its turn and asks its own check
// C2 about 600 ms later; C1's late "no" arrives while C2 is in flight and
// changes nothing: the connection goes DISCONNECTED for connectivity-down
// only when C2 answers. (Taking C1's answer as C2's would end the second
// attempt some 600 ms early, on an answer about a network that has changed
// since.)
func TestLateCheckAnswerFromAnEndedAttemptChangesNothing(t *testing.T) {
	s, client := newServer(t, Options{})
	if err := s.SetFault(s.Primary(), HostFault{Down: true, DownLatency: ms(500)}); err != nil {
		t.Fatal(err)
	}
	const latency = 2 * time.Second
	s.SetCheck(CheckFault{Down: true, Latency: ms(float64(latency.Milliseconds()))})
	cfg := scaled()
	cfg.Timeouts.HTTPRequest = 5 * time.Second
	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: s.Primary(), FallbackHosts: s.Fallbacks()}

	type answer struct {
		id engine.CheckID
		up bool
		at time.Time
	}
	asked, answered := make(chan answer, 8), make(chan answer, 8)
	check := func(ctx context.Context) bool {
		id, _ := runner.CheckIDFrom(ctx)
		asked <- answer{id: id, at: time.Now()}
		up := client.CheckConnectivity(context.WithoutCancel(ctx), s.CheckURL()) // not cancellable
		answered <- answer{id: id, up: up, at: time.Now()}
		return up
	}
	changes := make(chan runner.StateChange, 64)
	ctx, cancel := context.WithCancel(context.Background())
	dialer := NewDialer(client)
	r, err := runner.New(ctx, runner.Options{Config: cfg, Dialer: dialer, CheckConnectivity: check,
		CheckWebSocket: check, OnStateChange: func(c runner.StateChange) { changes <- c }})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		<-r.Done()
		_ = dialer.Wait(context.Background())
	})
	recv := func(ch chan answer, what string) answer {
		t.Helper()
		select {
		case a := <-ch:
			return a
		case <-time.After(10 * time.Second):
			t.Fatalf("no %s within 10 s", what)
		}
		return answer{}
	}

	r.Connect()
	c1 := recv(asked, "first check")
	r.NetworkDown()
	c2 := recv(asked, "second check")
	a1 := recv(answered, "answer to the first check")
	a2 := recv(answered, "answer to the second check")
	if c1.id == 0 || c2.id <= c1.id || a1.id != c1.id || a2.id != c2.id {
		t.Fatalf("checks C%d, C%d answered as C%d, C%d: want two distinct IDs, answered in order", c1.id, c2.id, a1.id, a2.id)
	}
	if !c2.at.Before(a1.at) {
		t.Fatalf("the second check was asked %v after the first answered: nothing was late", c2.at.Sub(a1.at))
	}
	var seen []string
	for {
		var c runner.StateChange
		select {
		case c = <-changes:
		case <-time.After(10 * time.Second):
			t.Fatalf("no DISCONNECTED for connectivity-down; changes: %v", seen)
		}
		seen = append(seen, c.To.String()+"/"+c.Reason.String())
		if c.To == engine.Disconnected && c.Reason == engine.ReasonConnectivityDown {
			if c.At.Before(a2.at) {
				t.Fatalf("DISCONNECTED for connectivity-down %v before C%d answered, %v after the stale C%d did: the stale answer was taken",
					a2.at.Sub(c.At), c2.id, c.At.Sub(a1.at), c1.id)
			}
			break
		}
	}
	want := []string{"connecting/connect-requested", "disconnected/network-down", "connecting/reconnect", "disconnected/connectivity-down"}
	if len(seen) != len(want) {
		t.Fatalf("state changes %v, want %v", seen, want)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("state changes %v, want %v", seen, want)
		}
	}
}
