package peers

import (
	"time"

	"github.com/reconnect-go/reconnect/lab"
)

// backend is one kind's real server.
type backend interface {
	// hosts returns each host name the server answers as, with its
	// address: the realtime hosts, primary first, and for ours the
	// connectivity-check host last.
	hosts() []hostAddr
	// restart stops the server (every connection it holds ends) and
	// starts a fresh one on the same addresses; it returns once the new
	// one answers.
	restart() error
	// close stops the server.
	close()
}

// hostAddr is a host name and the address it is served on.
type hostAddr struct {
	name, addr string
	check      bool // the connectivity-check host: never faulted, never restarted
}

// The greeting every server sends as its application message.
const greeting = "hello"

// checkHost is the connectivity-check host's name (ours only).
const checkHost = lab.DefaultCheckHost

// peerHost is the host name of a peer's one server (the peers have no
// fallback hosts); their clients reach it by address.
const peerHost = "peer.realtime.test"

// labBackend is the lab's server: a primary, three fallback hosts and the
// connectivity-check host, with an application message after CONNECTED.
type labBackend struct {
	s *lab.Server
}

// newLabBackend starts the lab's server, whose CONNECTED messages carry
// maxIdleInterval (with HEARTBEATs that often): hb's interval when set,
// as the peers' servers ping at it, else Ably's 15 s.
func newLabBackend(seed uint64, hb Heartbeat) (*labBackend, error) {
	maxIdle := 15 * time.Second
	if hb.Interval > 0 {
		maxIdle = hb.Interval
	}
	s, err := lab.NewServer(lab.Options{Seed: seed, Message: greeting, MaxIdleInterval: maxIdle})
	if err != nil {
		return nil, err
	}
	return &labBackend{s: s}, nil
}

func (b *labBackend) hosts() []hostAddr {
	out := []hostAddr{{name: b.s.Primary(), addr: b.s.Addr(b.s.Primary())}}
	for _, h := range b.s.Fallbacks() {
		out = append(out, hostAddr{name: h, addr: b.s.Addr(h)})
	}
	return append(out, hostAddr{name: checkHost, addr: b.s.Addr(checkHost), check: true})
}

// restart drops every connection and session and serves again at once,
// on the same ports (the proxy keeps the hosts down meanwhile).
func (b *labBackend) restart() error { return b.s.Restart(0) }

func (b *labBackend) close() { b.s.Close() }
