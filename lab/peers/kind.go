package peers

import (
	"fmt"
	"strings"
	"time"
)

// Kind is a kind of client, with its own server.
type Kind uint8

const (
	// SocketIOPolling is socket.io-client with its defaults: HTTP long
	// polling first, then an upgrade to websocket. Its server is
	// socket.io's, in Node.
	SocketIOPolling Kind = iota
	// SocketIOWebSocket is socket.io-client with transports ["websocket",
	// "polling"] and tryAllTransports: websocket first, polling when the
	// websocket fails to open.
	SocketIOWebSocket
	// Centrifuge is the centrifuge JS client with websocket first and its
	// HTTP-streaming emulation second, against a server built on
	// github.com/centrifugal/centrifuge.
	Centrifuge
	// Ours is a runner-driven client on the lab's transports and server,
	// with engine.AblyConfig()'s settings (RTB1 after a failed immediate
	// reconnect, as Ably's SDKs) and the proposal's 2 s short circuit.
	Ours
	// OursShort is Ours with the short circuit docs/short-circuit.md
	// recommends (Options.ShortCircuit, 250 ms by default).
	OursShort
	// OursCentrifuge is a runner-driven client speaking Centrifugo's
	// protocol (websocket, and its HTTP-streaming emulation as the HTTP
	// transport) to the centrifuge server, with OursShort's short circuit
	// and, like the peers, no fallback host: the runner driving a protocol
	// nobody here designed.
	OursCentrifuge
	// OursDefaults is a runner-driven client on the lab's transports and
	// server with nothing tuned: engine.Defaults() (only the endpoint and
	// the fallback hosts set) and the runner's defaults, so it follows
	// every change of a default. It is the kind the ranking (Ranking)
	// compares with the peers.
	OursDefaults
	numKinds
)

var kindNames = [numKinds]string{"socketio-polling", "socketio-websocket", "centrifuge", "ours-2s", "ours-short", "ours-centrifuge", "ours-defaults"}

// Kinds returns every kind, in the order of their constants.
func Kinds() []Kind {
	out := make([]Kind, numKinds)
	for i := range out {
		out[i] = Kind(i)
	}
	return out
}

// String returns the kind's name as ParseKinds accepts it.
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// node reports whether the kind's clients run in Node.
func (k Kind) node() bool { return k <= Centrifuge }

// Peer reports whether the kind is one of the field's clients (not ours):
// the kinds the ranking compares ours with.
func (k Kind) Peer() bool { return k.node() }

// Fault is what the network (or the server) does to every kind alike.
type Fault uint8

const (
	// Healthy is no fault.
	Healthy Fault = iota
	// WebSocketRefused: the proxy answers every websocket upgrade 403.
	WebSocketRefused
	// WebSocketBlackholed: the proxy swallows every websocket upgrade.
	WebSocketBlackholed
	// Slow: every connection's round trip is drawn from the simulator's
	// slow-mobile latencies (websocket and HTTP), without its losses.
	Slow
	// PrimaryDown: the primary host refuses every connection; the
	// fallback hosts (ours only: the peers have none) are fine.
	PrimaryDown
	// Drop: once every client has its first message, the proxy closes
	// every connection (both sides see it end).
	Drop
	// Stall: once every client has its first message, every connection
	// stops carrying anything, with no FIN either way; a heartbeat or an
	// idle timer has to notice.
	Stall
	// Restart: once every client has its first message, the server
	// restarts: every connection is dropped, every host refuses for the
	// downtime, and a fresh server answers after it.
	Restart
	numFaults
)

var faultNames = [numFaults]string{"healthy", "websocket-refused", "websocket-blackholed", "slow", "primary-down", "drop", "stall", "restart"}

// Faults returns every fault, in the order of their constants.
func Faults() []Fault {
	out := make([]Fault, numFaults)
	for i := range out {
		out[i] = Fault(i)
	}
	return out
}

// String returns the fault's name as ParseFaults accepts it.
func (f Fault) String() string {
	if f < numFaults {
		return faultNames[f]
	}
	return fmt.Sprintf("Fault(%d)", f)
}

// afterConnected reports whether the fault strikes clients that have
// their first message (and is measured from then), rather than clients
// connecting.
func (f Fault) afterConnected() bool { return f >= Drop }

// ParseKinds reads a comma-separated list of kind names ("" or "all":
// every kind).
func ParseKinds(s string) ([]Kind, error) {
	if s == "" || s == "all" {
		return Kinds(), nil
	}
	var out []Kind
	for _, name := range strings.Split(s, ",") {
		i := indexOf(kindNames[:], strings.TrimSpace(name))
		if i < 0 {
			return nil, fmt.Errorf("unknown client kind %q; the kinds are %s", name, strings.Join(kindNames[:], ", "))
		}
		out = append(out, Kind(i))
	}
	return out, nil
}

// ParseFaults reads a comma-separated list of fault names ("" or "all":
// every fault).
func ParseFaults(s string) ([]Fault, error) {
	if s == "" || s == "all" {
		return Faults(), nil
	}
	var out []Fault
	for _, name := range strings.Split(s, ",") {
		i := indexOf(faultNames[:], strings.TrimSpace(name))
		if i < 0 {
			return nil, fmt.Errorf("unknown fault %q; the faults are %s", name, strings.Join(faultNames[:], ", "))
		}
		out = append(out, Fault(i))
	}
	return out, nil
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// Heartbeat is the servers' heartbeat settings; the zero value keeps
// every library's defaults (socket.io: a ping every 25 s, 20 s to answer;
// centrifuge: a ping every 25 s, 10 s pong timeout, and the JS client's
// 10 s maxServerPingDelay).
type Heartbeat struct {
	// Interval is the server's ping interval (socket.io pingInterval,
	// centrifuge PingInterval).
	Interval time.Duration
	// Timeout is socket.io's pingTimeout, centrifuge's PongTimeout and the
	// centrifuge JS client's maxServerPingDelay.
	Timeout time.Duration
}
