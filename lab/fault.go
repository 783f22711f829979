package lab

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/reconnect-go/reconnect/internal/sim"
)

// Dist is a per-connection latency distribution: log-normal with median
// MedianMs milliseconds and log standard deviation Sigma (0 gives the
// median every time). It is the simulator's distribution, so one profile
// file drives both.
type Dist = sim.Dist

// sample draws one latency from d, capped at a day. It draws exactly as
// the simulator does.
func sample(d Dist, r *rand.Rand) time.Duration {
	ms := d.MedianMs
	if d.Sigma > 0 {
		ms *= math.Exp(d.Sigma * r.NormFloat64())
	}
	return time.Duration(min(max(ms, 0), 86_400_000) * float64(time.Millisecond))
}

// PathFault is how one transport kind (websocket or HTTP) fares on one
// host. Each new connection draws its fate once: with probability Reject
// the server answers the connect request with RejectStatus after
// RejectLatency; with probability Blackhole it accepts the TCP connection
// and never answers; with probability KillBeforeConnected it completes the
// handshake after Connect and then closes the connection without sending
// CONNECTED; otherwise the handshake completes after Connect (the
// transport is viable), CONNECTED follows ConnectedDelay later (by
// default a quarter of the connect latency, as in the simulator), and with
// probability KillAfterConnected the connection is closed right after
// CONNECTED.
//
// Probabilities are clamped into [0, 1] and tried in the order above; the
// zero PathFault is a healthy path with no added latency.
type PathFault struct {
	Reject              float64
	RejectStatus        int // 0 means 503
	RejectLatency       Dist
	Blackhole           float64
	KillBeforeConnected float64
	KillAfterConnected  float64
	Connect             Dist
	// ConnectedDelay is the time from the handshake to CONNECTED; the
	// zero Dist means a quarter of the connect latency.
	ConnectedDelay Dist
}

// HostFault is the faults of one host.
type HostFault struct {
	// Down closes the host's listener, so that connections to it are
	// refused by the kernel, and drops every connection it had. The
	// Network waits DownLatency before it dials a host that is down, so
	// that the refusal takes as long as a real one over a network would.
	Down        bool
	DownLatency Dist
	// WebSocket and HTTP are the two transports' paths.
	WebSocket, HTTP PathFault
	// DropAfter, if positive, drops every connection that reached
	// CONNECTED that long after CONNECTED (the server closes the
	// websocket, or ends the long-poll session, without a goodbye).
	DropAfter time.Duration
	// DisconnectStatus, if positive, makes a drop send a DISCONNECTED
	// message with this status first (e.g. 503, which qualifies for a
	// fallback host).
	DisconnectStatus int
	// Stall stalls every connection that reaches CONNECTED while it is
	// set: right after CONNECTED (and Options.Message) the server stops
	// sending and reading, without closing the socket, until the host
	// goes down or the server closes (a half-open connection: RTN23a's
	// idle timer is what notices). A long-poll session stalls as a whole:
	// its polls and its close request are never answered.
	Stall bool
}

// CheckFault is how the connectivity check answers: after Latency, "yes"
// unless Down (then "no"); never, while the request lasts, if Hang.
type CheckFault struct {
	Down    bool
	Hang    bool
	Latency Dist
}

// fate is what one connection will do.
type fate uint8

const (
	fateConnect fate = iota
	fateReject
	fateBlackhole
	fateKillBefore
	fateKillAfter
)

// draw decides a new connection's fate, its latency (to the rejection,
// or to the handshake) and the delay from the handshake to CONNECTED.
func (p PathFault) draw(r *rand.Rand) (fate, time.Duration, time.Duration) {
	f, l := p.drawFate(r)
	if p.ConnectedDelay == (Dist{}) {
		return f, l, l / 4
	}
	return f, l, sample(p.ConnectedDelay, r)
}

func (p PathFault) drawFate(r *rand.Rand) (fate, time.Duration) {
	u := r.Float64()
	clamp := func(v float64) float64 { return min(max(v, 0), 1) }
	acc := 0.0
	for _, c := range []struct {
		p float64
		f fate
	}{{p.Reject, fateReject}, {p.Blackhole, fateBlackhole}, {p.KillBeforeConnected, fateKillBefore}} {
		acc += clamp(c.p)
		if u < acc {
			if c.f == fateReject {
				return fateReject, sample(p.RejectLatency, r)
			}
			return c.f, sample(p.Connect, r)
		}
	}
	l := sample(p.Connect, r)
	if r.Float64() < clamp(p.KillAfterConnected) {
		return fateKillAfter, l
	}
	return fateConnect, l
}

// rejectStatus is the status of a rejected connect request.
func (p PathFault) rejectStatus() int {
	if p.RejectStatus < 100 || p.RejectStatus > 999 {
		return 503
	}
	return p.RejectStatus
}
