package engine

import (
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
)

// Only a token error asks for a renewal: every other failure, with
// CanRenewToken set, while connecting and while connected, never does.
func TestOnlyATokenErrorAsksForARenewal(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for k := reconnect.FailureNone; k < numFailureKinds; k++ {
		cfg := AblyConfig()
		cfg.CanRenewToken = true
		cfg.Source = constSource(0)
		e, _ := New(cfg)
		f := reconnect.Failure{Kind: k, Status: 401}
		out := e.Step(now, Event{Kind: EventConnect}, nil)
		out = e.Step(now, Event{Kind: EventTransportFailed, Transport: openedTransport(out), Failure: f}, nil)
		asked := false
		for _, a := range out {
			asked = asked || a.Kind == ActionRenewToken
		}
		if asked != (k == reconnect.FailureToken) {
			t.Errorf("failure %v while connecting: renewal asked %v", f, asked)
		}
	}
}

// A renewal answer that names another check, or comes with no renewal in
// flight, changes nothing.
func TestARenewalAnswerMustNameTheRenewal(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cfg := AblyConfig()
	cfg.CanRenewToken = true
	e, _ := New(cfg)
	out := e.Step(now, Event{Kind: EventConnect}, nil)
	out = e.Step(now, Event{Kind: EventTransportFailed, Transport: openedTransport(out), Failure: reconnect.Failure{Kind: reconnect.FailureToken}}, nil)
	var id CheckID
	for _, a := range out {
		if a.Kind == ActionRenewToken {
			id = a.Check
		}
	}
	for _, c := range []CheckID{0, id + 1} {
		if got := e.Step(now, Event{Kind: EventTokenRenewal, Check: c, Up: true}, nil); len(got) != 0 {
			t.Fatalf("an answer naming C%d gave %v", c, got)
		}
	}
	if got := e.Step(now, Event{Kind: EventTokenRenewal, Check: id, Up: true}, nil); len(got) == 0 {
		t.Fatal("the renewal's own answer did nothing")
	}
	if got := e.Step(now, Event{Kind: EventTokenRenewal, Check: id, Up: true}, nil); len(got) != 0 {
		t.Fatalf("a second answer gave %v", got)
	}
}
