package engine

import (
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
)

// seqSource returns its draws in order, then 0.
type seqSource struct{ draws []float64 }

func (s *seqSource) Float64() float64 {
	if len(s.draws) == 0 {
		return 0
	}
	u := s.draws[0]
	s.draws = s.draws[1:]
	return u
}

// firstRetryRig drives an engine on one host with no fallback host (so
// no connectivity check): every transport opened is refused unless up.
type firstRetryRig struct {
	t     *testing.T
	e     *Engine
	now   time.Time
	up    bool
	retry TimerID
	waits []time.Duration // retryIn of each DISCONNECTED with a delay
	count []int           // the retry count after each
}

func newFirstRetryRig(t *testing.T, cfg Config, draws ...float64) *firstRetryRig {
	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: "rt.example.com"}
	cfg.Source = &seqSource{draws: draws}
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &firstRetryRig{t: t, e: e, now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
}

// step runs ev at the rig's time and answers what the engine opens:
// connected when up, refused otherwise, 10 ms later each.
func (r *firstRetryRig) step(ev Event) {
	queue := []Event{ev}
	for len(queue) > 0 {
		out := r.e.Step(r.now, queue[0], nil)
		queue = queue[1:]
		for _, a := range out {
			switch {
			case a.Kind == ActionOpenTransport && r.up:
				queue = append(queue, Event{Kind: EventTransportViable, Transport: a.Transport}, Event{Kind: EventTransportConnected, Transport: a.Transport})
			case a.Kind == ActionOpenTransport:
				queue = append(queue, Event{Kind: EventTransportFailed, Transport: a.Transport, Failure: reconnect.Failure{Kind: reconnect.FailureRefused}})
			case a.Kind == ActionStartTimer && a.TimerKind == TimerRetry:
				r.retry = a.Timer
			case a.Kind == ActionStateChange && a.To == Disconnected && a.RetryIn > 0:
				r.waits = append(r.waits, a.RetryIn)
				r.count = append(r.count, r.e.RetryCount())
			}
		}
		r.now = r.now.Add(10 * time.Millisecond)
	}
}

// retryAfter lets the last retry's wait pass and fires its timer.
func (r *firstRetryRig) retryAfter() {
	r.now = r.now.Add(r.waits[len(r.waits)-1])
	r.step(Event{Kind: EventTimerFired, Timer: r.retry})
}

// The rule, from its definition: a drop's immediate reconnect refused,
// the first retry waits FirstRetry × u (one draw), the later ones
// FirstRetry exactly (no draw) while less than disconnectedRetryTimeout
// has passed since the immediate reconnect, then RTB1 from retry 1
// (15 s × (1 − 0.2u)); the early retries take no retry number.
func TestFirstRetryAfterAFailedImmediateReconnect(t *testing.T) {
	cfg := Defaults()
	r := newFirstRetryRig(t, cfg, 0.4, 0.5)
	r.up = true
	r.step(Event{Kind: EventConnect})
	if r.e.State() != Connected {
		t.Fatalf("state %v", r.e.State())
	}
	r.up = false
	r.now = r.now.Add(time.Minute)
	dropAt := r.now
	r.step(Event{Kind: EventTransportClosed, Transport: 1})
	// 3.5 s × 0.4 = 1.4 s, then 3.5 s until 15 s after the drop.
	for r.now.Sub(dropAt) < 15*time.Second {
		r.retryAfter()
	}
	want := []time.Duration{1400 * time.Millisecond, 3500 * time.Millisecond, 3500 * time.Millisecond, 3500 * time.Millisecond, 3500 * time.Millisecond, 13500 * time.Millisecond}
	if len(r.waits) != len(want) {
		t.Fatalf("waits %v, want %v", r.waits, want)
	}
	for i, w := range want {
		if r.waits[i] != w {
			t.Fatalf("waits %v, want %v", r.waits, want)
		}
	}
	if c := r.count; c[0] != 0 || c[4] != 0 || c[5] != 1 {
		t.Fatalf("retry counts %v: the early retries take no number, RTB1 starts at 1", c)
	}
	// Back: CONNECTED ends the rule; the next drop starts it again.
	r.up = true
	r.retryAfter()
	if r.e.State() != Connected || r.e.RetryCount() != 0 {
		t.Fatalf("state %v, retry count %d", r.e.State(), r.e.RetryCount())
	}
}

// The rule follows only an immediate reconnect: a first connect that
// fails waits RTB1; so does every retry when FirstRetry is 0 (the zero
// Config, AblyConfig).
func TestFirstRetryOnlyAfterADrop(t *testing.T) {
	r := newFirstRetryRig(t, Defaults(), 0.5)
	r.step(Event{Kind: EventConnect})
	if len(r.waits) != 1 || r.waits[0] != 13500*time.Millisecond || r.count[0] != 1 {
		t.Fatalf("a failed first connect waits %v (retry counts %v), want RTB1's 13.5 s, retry 1", r.waits, r.count)
	}
	r = newFirstRetryRig(t, AblyConfig(), 0.5)
	r.up = true
	r.step(Event{Kind: EventConnect})
	r.up = false
	r.now = r.now.Add(time.Minute)
	r.step(Event{Kind: EventTransportClosed, Transport: 1})
	if len(r.waits) != 1 || r.waits[0] != 13500*time.Millisecond {
		t.Fatalf("AblyConfig after a drop waits %v, want RTB1's 13.5 s", r.waits)
	}
	if AblyConfig().FirstRetry != 0 || Defaults().FirstRetry != DefaultFirstRetry || (Config{}).FirstRetry != 0 {
		t.Fatal("FirstRetry: Defaults on, AblyConfig and the zero Config off")
	}
}

func TestConfigValidateRejectsABadFirstRetry(t *testing.T) {
	for _, d := range []time.Duration{-time.Millisecond, 15*time.Second + 1} {
		cfg := Defaults()
		cfg.Endpoint.Endpoint = "rt.example.com"
		cfg.FirstRetry = d
		wantFieldError(t, cfg, "Config.FirstRetry", d)
	}
	cfg := Defaults()
	cfg.Endpoint.Endpoint = "rt.example.com"
	cfg.FirstRetry = 15 * time.Second
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
}
