// Package protocol is the small realtime protocol the example SDK and its
// server speak: where each exchange happens and what its messages say.
// It stands in for your service's own protocol; replace it when you fork.
//
// A message is one websocket text message, or one line of an HTTP
// response body:
//
//	CONNECTED [<maxIdleInterval ms>]  server → client: the connection is up; the
//	                                  server sends something at least every
//	                                  maxIdleInterval (RTN21, RTN23a)
//	HEARTBEAT                         server → client: nothing to say, still here
//	MESSAGE <data>                    either way: a message for the application
//	CLOSE                             client → server: please close (RTN12a)
//	CLOSED                            server → client: closed as asked
//	DISCONNECTED <status> [<code>]    server → client: the connection ends; retry
//	                                  (401 with a code 40140–40149: a token error,
//	                                  renew the token first, RTN15h)
//	ERROR <status>                    server → client: a fatal error; do not retry
//
// The connect requests (both transports') carry the client's token in
// the query parameter "token".
package protocol

import (
	"strconv"
	"strings"
	"time"
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
	Heartbeat    = "HEARTBEAT"
)

// TokenErrorCode is the error code of a DISCONNECTED for a token that
// has expired (one of RTN15h's 40140–40149).
const TokenErrorCode = 40142

// Msg is one parsed message. Kind is "" for a malformed one.
type Msg struct {
	Kind   string
	Data   string // MESSAGE's data
	Status int    // DISCONNECTED's and ERROR's status, 0–999
	// Code is DISCONNECTED's error code (0: none given).
	Code int
	// MaxIdleInterval is CONNECTED's (0: none given), whole milliseconds.
	MaxIdleInterval time.Duration
}

// IsTokenError reports whether m is a token error: a DISCONNECTED with
// status 401 and a code from 40140 to 40149.
func (m Msg) IsTokenError() bool {
	return m.Kind == Disconnected && m.Status == 401 && m.Code >= 40140 && m.Code <= 40149
}

// Parse reads one message; surrounding white space is ignored.
func Parse(s string) Msg {
	kind, arg, _ := strings.Cut(strings.TrimSpace(s), " ")
	switch kind {
	case Close, Closed, Heartbeat:
		if arg == "" {
			return Msg{Kind: kind}
		}
	case Connected:
		if arg == "" {
			return Msg{Kind: kind}
		}
		if ms, err := strconv.ParseInt(arg, 10, 64); err == nil && ms > 0 && ms <= int64(24*time.Hour/time.Millisecond) {
			return Msg{Kind: kind, MaxIdleInterval: time.Duration(ms) * time.Millisecond}
		}
	case Message:
		return Msg{Kind: kind, Data: arg}
	case Disconnected, Error:
		st, code, _ := strings.Cut(arg, " ")
		n, err := strconv.Atoi(st)
		if err != nil || n < 0 || n > 999 {
			break
		}
		m := Msg{Kind: kind, Status: n}
		if code == "" {
			return m
		}
		if c, err := strconv.Atoi(code); kind == Disconnected && err == nil && c > 0 && c <= 99999 {
			m.Code = c
			return m
		}
	}
	return Msg{}
}

// Format renders a message as Parse reads it.
func Format(m Msg) string {
	switch m.Kind {
	case Message:
		return Message + " " + m.Data
	case Connected:
		if m.MaxIdleInterval > 0 {
			return Connected + " " + strconv.FormatInt(m.MaxIdleInterval.Milliseconds(), 10)
		}
	case Disconnected, Error:
		s := m.Kind + " " + strconv.Itoa(m.Status)
		if m.Code > 0 {
			s += " " + strconv.Itoa(m.Code)
		}
		return s
	}
	return m.Kind
}
