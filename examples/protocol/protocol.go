// Package protocol is the small realtime protocol the example SDK and its
// server speak: where each exchange happens and what its messages say.
// It stands in for your service's own protocol; replace it when you fork.
//
// A message is one websocket text message, or one line of an HTTP
// response body:
//
//	CONNECTED                 server → client: the connection is up
//	MESSAGE <data>            either way: a message for the application
//	CLOSE                     client → server: please close (RTN12a)
//	CLOSED                    server → client: closed as asked
//	DISCONNECTED <status>     server → client: the connection ends; retry
//	ERROR <status>            server → client: a fatal error; do not retry
package protocol

import (
	"strconv"
	"strings"
)

// The paths, served on every realtime host.
const (
	// PathWebSocket is the websocket endpoint: GET with an upgrade, query
	// "mode" = the reconnect.Mode the transport was opened in.
	PathWebSocket = "/ws"
	// PathConnect opens an HTTP long-poll session (GET, query "mode"): a
	// 200 response carries the session's id in HeaderSession and
	// CONNECTED as its body.
	PathConnect = "/comet/connect"
	// PathRecv is a session's long poll (GET, query "session"): 200 with
	// one message a line once there is any, 204 when PollWait passes
	// with none, 404 for a session that has ended.
	PathRecv = "/comet/recv"
	// PathSend carries one message from the client (POST, query
	// "session"; the body is the message, CLOSE included); 204.
	PathSend = "/comet/send"
	// PathCheck is the connectivity check: it answers "yes" (see
	// reconnect.ConnectivityUp).
	PathCheck = "/is-the-internet-up.txt"
	// HeaderSession carries the session id in PathConnect's response.
	HeaderSession = "Example-Session"
)

// The kinds of message.
const (
	Connected    = "CONNECTED"
	Message      = "MESSAGE"
	Close        = "CLOSE"
	Closed       = "CLOSED"
	Disconnected = "DISCONNECTED"
	Error        = "ERROR"
)

// Msg is one parsed message. Kind is "" for a malformed one.
type Msg struct {
	Kind   string
	Data   string // MESSAGE's data
	Status int    // DISCONNECTED's and ERROR's status, 0–999
}

// Parse reads one message; surrounding white space is ignored.
func Parse(s string) Msg {
	kind, arg, _ := strings.Cut(strings.TrimSpace(s), " ")
	switch kind {
	case Connected, Close, Closed:
		if arg == "" {
			return Msg{Kind: kind}
		}
	case Message:
		return Msg{Kind: kind, Data: arg}
	case Disconnected, Error:
		if st, err := strconv.Atoi(arg); err == nil && st >= 0 && st <= 999 {
			return Msg{Kind: kind, Status: st}
		}
	}
	return Msg{}
}

// Format renders a message as Parse reads it.
func Format(m Msg) string {
	switch m.Kind {
	case Message:
		return Message + " " + m.Data
	case Disconnected, Error:
		return m.Kind + " " + strconv.Itoa(m.Status)
	}
	return m.Kind
}
