// Package protocol is the cmdproto wire format the SDK (package sdk) and
// the server (package server) share: JSON text frames over one websocket
// at Path.
//
// The client speaks in commands, the server in replies and notices:
//
//	client → server   {"cmd":"connect","token":"t1"}      first frame after the handshake
//	server → client   {"ok":{"session":"s-1"}}            the reply: the session is up (CONNECTED)
//	                  {"error":{"code":4401,"message":"…"}} the reply: refused
//	server → client   {"type":"ping"}                     every PingInterval; no reply expected
//	client → server   {"cmd":"publish","data":"hi"}
//	server → client   {"type":"event","data":"hi"}        the echo of a publish
//	client → server   {"cmd":"close"}                     the server then closes with 1000
//
// The server never says how often it pings (no maxIdleInterval): the
// client decides by itself how long a silence it tolerates. Close statuses
// are RFC 6455's, plus the application's own 4000–4999 listed below.
package protocol

import (
	"encoding/json"
	"errors"
	"strconv"
)

// Path is the websocket's URL path.
const Path = "/v1/socket"

// Commands, the client's frames' "cmd".
const (
	CmdConnect = "connect"
	CmdPublish = "publish"
	CmdClose   = "close"
)

// Notice types, the server's frames' "type".
const (
	TypePing  = "ping"
	TypeEvent = "event"
)

// Error codes of an error reply ({"error":{"code":…}}).
const (
	// CodeUnauthorized: the token is not accepted. No retry can fix it.
	CodeUnauthorized = 4401
	// CodeBusy: the server cannot take the session now; try later.
	CodeBusy = 4503
)

// Close statuses of the application (RFC 6455 §7.4.2: 4000–4999).
const (
	// CloseEvicted: the server ended the session (sent by the server).
	CloseEvicted = 4100
	// ClosePingTimeout: the client heard nothing, not even a ping, for
	// its idle limit (sent by the client).
	ClosePingTimeout = 4008
	// CloseConnectTimeout: the server did not answer the connect command
	// in time (sent by the client).
	CloseConnectTimeout = 4009
	// CloseClientError: the client gave the session up for an error it
	// cannot recover from (sent by the client).
	CloseClientError = 4010
)

// Command is a client's frame.
type Command struct {
	Cmd   string `json:"cmd"`
	Token string `json:"token,omitempty"`
	Data  string `json:"data,omitempty"`
}

// Frame is a server's frame: exactly one of OK, Error or Type is set.
type Frame struct {
	OK    *Session `json:"ok,omitempty"`
	Error *Error   `json:"error,omitempty"`
	Type  string   `json:"type,omitempty"`
	Data  string   `json:"data,omitempty"`
}

// Session is the body of the ok reply to a connect command.
type Session struct {
	ID string `json:"session"`
}

// Error is the body of an error reply, and the SDK's error for it: a
// code of the list above and a message for people.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Error renders e as "cmdproto error 4401: bad token".
func (e *Error) Error() string {
	return "cmdproto error " + strconv.Itoa(e.Code) + ": " + e.Message
}

// ErrMalformed is ParseFrame's and ParseCommand's error for a frame that
// is not one of the protocol's.
var ErrMalformed = errors.New("cmdproto: malformed frame")

// ParseFrame reads a server frame. It returns ErrMalformed (wrapped with
// the JSON error, if any) for anything but a JSON object with exactly one
// of "ok", "error" or "type", an error with a code, or an unknown type.
func ParseFrame(b []byte) (Frame, error) {
	var f Frame
	if err := json.Unmarshal(b, &f); err != nil {
		return Frame{}, errors.Join(ErrMalformed, err)
	}
	n := 0
	for _, set := range []bool{f.OK != nil, f.Error != nil, f.Type != ""} {
		if set {
			n++
		}
	}
	switch {
	case n != 1,
		f.Error != nil && f.Error.Code == 0,
		f.Type != "" && f.Type != TypePing && f.Type != TypeEvent:
		return Frame{}, ErrMalformed
	}
	return f, nil
}

// ParseCommand reads a client frame; ErrMalformed for anything but a
// JSON object with a known "cmd".
func ParseCommand(b []byte) (Command, error) {
	var c Command
	if err := json.Unmarshal(b, &c); err != nil {
		return Command{}, errors.Join(ErrMalformed, err)
	}
	switch c.Cmd {
	case CmdConnect, CmdPublish, CmdClose:
		return c, nil
	}
	return Command{}, ErrMalformed
}

// EncodeCommand renders a client frame as JSON.
func EncodeCommand(c Command) []byte {
	b, _ := json.Marshal(c) // strings only: it cannot fail
	return b
}

// EncodeFrame renders a server frame as JSON.
func EncodeFrame(f Frame) []byte {
	b, _ := json.Marshal(f) // strings and ints only: it cannot fail
	return b
}
