package peers

import (
	"encoding/json"
	"math"
	"sync"
	"time"
)

// What an Event records.
const (
	// EventStart: the client was created and asked to connect.
	EventStart = "start"
	// EventConnect: the client's library says it is connected.
	EventConnect = "connect"
	// EventMessage: the server's application message arrived.
	EventMessage = "message"
	// EventDisconnect: the library saw its connection lost.
	EventDisconnect = "disconnect"
	// EventError: an attempt or a transport failed.
	EventError = "error"
	// EventUpgrade: socket.io moved to another transport.
	EventUpgrade = "upgrade"
)

// Event is one thing that happened to one client, as its library reported
// it.
type Event struct {
	At     time.Time
	Client int
	What   string
	// Transport is the library's name of the transport, for a connect, a
	// message or an upgrade.
	Transport string
	// Detail is the reason of a disconnect or an error.
	Detail string
}

// recorder collects the events of one kind's clients. Its methods are
// safe for concurrent use.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) add(e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

// snapshot returns the events so far.
func (r *recorder) snapshot() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

// nodeLine is one line a Node client program prints.
type nodeLine struct {
	T      float64 `json:"t"`
	C      *int    `json:"c"`
	E      string  `json:"e"`
	Tr     string  `json:"tr"`
	Reason string  `json:"reason"`
	Msg    string  `json:"msg"`
}

// parseNodeLine reads one event line; ok is false for any other line.
func parseNodeLine(b []byte) (Event, bool) {
	var l nodeLine
	if json.Unmarshal(b, &l) != nil || l.C == nil || l.E == "" || !(l.T > 0) || math.IsInf(l.T, 0) {
		return Event{}, false
	}
	detail := l.Reason
	if detail == "" {
		detail = l.Msg
	}
	return Event{At: time.UnixMicro(int64(l.T * 1000)), Client: *l.C, What: l.E, Transport: l.Tr, Detail: detail}, true
}

// firstMessage returns when client c's first application message after
// from was delivered: the first message at or after from, but not before
// the first connect at or after from (no library hands its application a
// message before it says it is connected). ok is false if there is none.
func firstMessage(events []Event, c int, from time.Time) (at time.Time, transport string, ok bool) {
	var conn, msg *Event
	for i := range events {
		e := &events[i]
		if e.Client != c || e.At.Before(from) {
			continue
		}
		switch {
		case e.What == EventConnect && conn == nil:
			conn = e
		case e.What == EventMessage && msg == nil:
			msg = e
		}
	}
	if conn == nil || msg == nil {
		return time.Time{}, "", false
	}
	at = msg.At
	if conn.At.After(at) {
		at = conn.At
	}
	return at, msg.Transport, true
}

// firstEvent returns the first event what of client c at or after from.
func firstEvent(events []Event, c int, what string, from time.Time) (Event, bool) {
	for _, e := range events {
		if e.Client == c && e.What == what && !e.At.Before(from) {
			return e, true
		}
	}
	return Event{}, false
}
