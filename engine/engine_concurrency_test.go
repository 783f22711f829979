package engine

import (
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
)

// lockedSource is the safe way to share one generator between engines on
// several goroutines: every draw under a mutex.
type lockedSource struct {
	mu sync.Mutex
	r  *rand.Rand
}

func (s *lockedSource) Float64() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Float64()
}

// TestEnginesOnSeveralGoroutinesShareOneConfig is the documented safe
// pattern, checked by the race detector (go test -race): one Config value
// with its fallback host slice serves engines stepped on several
// goroutines, with a Source safe for concurrent use (a locked generator,
// the default, or one generator per engine), while the caller writes to
// the slice it configured (once New has returned) and each engine's
// goroutine to the Hosts it was given.
func TestEnginesOnSeveralGoroutinesShareOneConfig(t *testing.T) {
	shared := &lockedSource{r: rand.New(rand.NewPCG(1, 2))}
	for _, c := range []struct {
		name   string
		source func(i int) reconnect.Source
	}{
		{"one locked generator", func(int) reconnect.Source { return shared }},
		{"the default source", func(int) reconnect.Source { return nil }},
		{"a generator per engine", func(i int) reconnect.Source { return rand.New(rand.NewPCG(7, uint64(i))) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := AblyConfig()
			cfg.Endpoint.FallbackHosts = []string{"a.example.com", "b.example.com", "c.example.com"}
			const engines = 8
			var wg sync.WaitGroup
			errs := make(chan string, engines)
			es := make([]*Engine, engines)
			for i := range engines {
				cfg := cfg // each engine's copy shares the slice
				cfg.Source = c.source(i)
				var err error
				if es[i], err = New(cfg); err != nil {
					t.Fatal(err)
				}
			}
			for _, e := range es {
				wg.Go(func() {
					if msg := churn(e); msg != "" {
						errs <- msg
					}
				})
			}
			for range 100 {
				cfg.Endpoint.FallbackHosts[0] = "changed.example.com" // the caller's own slice, after New
			}
			wg.Wait()
			close(errs)
			for msg := range errs {
				t.Error(msg)
			}
		})
	}
}

// churn drives one engine through failures, fallback hosts and retries,
// and reports a broken expectation.
func churn(e *Engine) string {
	h := e.Hosts()
	h.Fallbacks[1] = "mine.example.com" // a copy: the engine does not see it
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	out := make([]Action, 0, 16)
	out = e.Step(now, Event{Kind: EventConnect}, out[:0])
	for round := range 200 {
		now = now.Add(time.Second)
		var id TransportID
		var timer TimerID
		check := askedCheck(out)
		for _, a := range out {
			switch {
			case a.Kind == ActionOpenTransport:
				id = a.Transport
				if a.Host == "mine.example.com" || a.Host == "changed.example.com" {
					return "the engine opened a host written after New: " + a.Host
				}
			case a.Kind == ActionStartTimer && a.TimerKind == TimerRetry:
				timer = a.Timer
			}
		}
		switch {
		case e.State() == Disconnected && timer != 0:
			out = e.Step(now, Event{Kind: EventTimerFired, Timer: timer}, out[:0])
		case round%5 == 4 && id != 0:
			out = e.Step(now, Event{Kind: EventTransportConnected, Transport: id}, out[:0])
			out = e.Step(now.Add(time.Minute), Event{Kind: EventTransportClosed, Transport: id}, out[:0])
		case e.State() == Connecting && id != 0:
			out = e.Step(now, Event{Kind: EventTransportFailed, Transport: id, Failure: reconnect.Failure{Kind: reconnect.FailureDNS}}, out[:0])
		default:
			out = e.Step(now, Event{Kind: EventConnectivity, Check: check, Up: true}, out[:0])
		}
	}
	return ""
}
