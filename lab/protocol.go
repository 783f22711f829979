package lab

import (
	"strconv"
	"strings"
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
	msgConnected    = "CONNECTED"    // CONNECTED <connection id>
	msgDisconnected = "DISCONNECTED" // DISCONNECTED <status>
	msgClose        = "CLOSE"        // client to server: please close
	msgClosed       = "CLOSED"       // server to client: closed as asked
	msgMessage      = "MESSAGE"      // MESSAGE <text>: an application message (Options.Message)
)

// message is a parsed protocol message.
type message struct {
	kind   string
	id     string
	status int
	text   string
}

// parseMessage reads one message; an unknown or malformed one has kind "".
func parseMessage(s string) message {
	kind, arg, _ := strings.Cut(strings.TrimSpace(s), " ")
	switch kind {
	case msgConnected:
		if arg != "" {
			return message{kind: kind, id: arg}
		}
	case msgClose, msgClosed:
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
