package lab

import (
	"strconv"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// The lab protocol's paths, served on every realtime host (the check path
// on the check host). README.md describes each exchange.
const (
	// PathWebSocket is the websocket endpoint: GET with an upgrade,
	// query "mode" = clean, resume, recover or upgrade.
	PathWebSocket = "/ws"
	// PathConnect opens an HTTP long-poll session (query "mode").
	PathConnect = "/comet/connect"
	// PathRecv is a session's long poll (query "session").
	PathRecv = "/comet/recv"
	// PathClose closes a session (POST, query "session").
	PathClose = "/comet/close"
	// PathCheck is the connectivity check; it answers "yes".
	PathCheck = "/is-the-internet-up.txt"
	// HeaderSession carries the session id in PathConnect's response.
	HeaderSession = "Lab-Session"
)

// The protocol's messages: one per websocket text message, or one per
// line of an HTTP response body.
const (
	msgConnected    = "CONNECTED"    // CONNECTED <connection id>[ maxIdleInterval=<ms>]
	msgDisconnected = "DISCONNECTED" // DISCONNECTED <status>
	msgClose        = "CLOSE"        // client to server: please close
	msgClosed       = "CLOSED"       // server to client: closed as asked
	msgMessage      = "MESSAGE"      // MESSAGE <text>: an application message (Options.Message)
	msgHeartbeat    = "HEARTBEAT"    // server to client, every maxIdleInterval on an idle websocket
)

// connectedText is the CONNECTED message of connection id, with the
// connection details d (only a positive maxIdleInterval is written).
func connectedText(id string, d engine.Details) string {
	s := msgConnected + " " + id
	if d.MaxIdleInterval > 0 {
		s += " maxIdleInterval=" + strconv.FormatInt(d.MaxIdleInterval.Milliseconds(), 10)
	}
	return s
}

// message is a parsed protocol message.
type message struct {
	kind    string
	id      string
	status  int
	text    string
	details engine.Details // CONNECTED's connection details
}

// parseMessage reads one message; an unknown or malformed one has kind "".
func parseMessage(s string) message {
	kind, arg, _ := strings.Cut(strings.TrimSpace(s), " ")
	switch kind {
	case msgConnected:
		id, opt, _ := strings.Cut(arg, " ")
		if id == "" {
			break
		}
		m := message{kind: kind, id: id}
		if opt == "" {
			return m
		}
		v, ok := strings.CutPrefix(opt, "maxIdleInterval=")
		ms, err := strconv.ParseInt(v, 10, 64)
		if ok && err == nil && ms > 0 && ms <= int64(24*time.Hour/time.Millisecond) {
			m.details.MaxIdleInterval = time.Duration(ms) * time.Millisecond
			return m
		}
	case msgClose, msgClosed, msgHeartbeat:
		if arg == "" {
			return message{kind: kind}
		}
	case msgMessage:
		if arg != "" {
			return message{kind: kind, text: arg}
		}
	case msgDisconnected:
		if st, err := strconv.Atoi(arg); err == nil && st >= 0 && st <= 999 {
			return message{kind: kind, status: st}
		}
	}
	return message{}
}
