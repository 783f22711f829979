package parity

import (
	"container/heap"
	"fmt"
	"math"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// zeroSource draws 0 every time, as the driver's Math.random does.
type zeroSource struct{}

func (zeroSource) Float64() float64 { return 0 }

// Config is the engine configuration a timeline runs with: the defaults,
// PolicyWebSocketCheck, the timeline's transports and a source that draws 0.
func Config(tl Timeline) engine.Config {
	c := engine.AblyConfig()
	c.Policy = engine.PolicyWebSocketCheck
	c.Source = zeroSource{}
	if tl.ConnectionStateTTL > 0 {
		c.Timeouts.ConnectionStateTTL = time.Duration(tl.ConnectionStateTTL) * time.Millisecond
	}
	// An API key or an authCallback can renew a token (RSA4a); a token
	// alone cannot.
	c.CanRenewToken = tl.Auth != "token"
	if len(tl.Transports) > 0 {
		c.Transports = reconnect.Availability{}
		for _, t := range tl.Transports {
			switch t {
			case "web_socket":
				c.Transports.WebSocket = true
			case "comet":
				c.Transports.HTTP = true
			}
		}
	}
	return c
}

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

type task struct {
	due int64
	seq uint64
	fn  func()
}

type queue []task

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	return q[i].due < q[j].due || q[i].due == q[j].due && q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(task)) }
func (q *queue) Pop() any {
	old := *q
	t := old[len(old)-1]
	*q = old[:len(old)-1]
	return t
}

type conn struct {
	id        engine.TransportID
	kind      string
	host      string
	closed    bool
	connected bool
	active    bool
}

// run is one engine (one client life) on the shared virtual clock.
type life struct {
	eng    *engine.Engine
	conns  map[engine.TransportID]*conn
	timers map[engine.TimerID]bool
}

type runner struct {
	tl      Timeline
	now     int64
	seq     uint64
	q       queue
	trace   []Entry
	offline bool
	cur     *life
	out     []engine.Action
}

// Run runs the engine on tl and returns its trace.
func Run(tl Timeline) ([]Entry, error) {
	r := &runner{tl: tl}
	for _, e := range tl.Events {
		r.at(e.At, func() { r.event(e) })
	}
	if err := r.newLife(); err != nil {
		return nil, err
	}
	until := tl.Until
	if until == 0 {
		until = 300000
	}
	for r.q.Len() > 0 {
		t := heap.Pop(&r.q).(task)
		if t.due > until {
			break
		}
		r.now = t.due
		t.fn()
	}
	return r.trace, nil
}

// at schedules fn at the absolute time t (or now, if t has passed).
func (r *runner) at(t int64, fn func()) {
	r.seq++
	heap.Push(&r.q, task{due: max(t, r.now), seq: r.seq, fn: fn})
}

func (r *runner) after(d int64, fn func()) { r.at(r.now+d, fn) }

// newLife starts a new client life, which starts with the transport
// preference the last one persisted (as the driver's storage keeps it).
func (r *runner) newLife() error {
	c := Config(r.tl)
	if r.cur != nil {
		c.Preference = r.cur.eng.Preference()
	}
	e, err := engine.New(c)
	if err != nil {
		return err
	}
	r.cur = &life{eng: e, conns: map[engine.TransportID]*conn{}, timers: map[engine.TimerID]bool{}}
	return nil
}

func (r *runner) record(e Entry) {
	e.T = r.now
	r.trace = append(r.trace, e)
}

func (r *runner) active(l *life) *conn {
	for _, c := range l.conns {
		if c.active && !c.closed {
			return c
		}
	}
	return nil
}

// step feeds ev to life l's engine and performs the actions it returns.
func (r *runner) step(l *life, ev engine.Event) {
	out := l.eng.Step(epoch.Add(time.Duration(r.now)*time.Millisecond), ev, r.out[:0])
	acts := append([]engine.Action(nil), out...)
	r.out = out
	for _, a := range acts {
		r.perform(l, a)
	}
	if l.eng.State() == engine.Closing {
		// ably-js closes the active transport at once on close().
		if c := r.active(l); c != nil {
			c.closed = true
			r.step(l, engine.Event{Kind: engine.EventTransportClosed, Transport: c.id})
		}
	}
}

func (r *runner) perform(l *life, a engine.Action) {
	switch a.Kind {
	case engine.ActionOpenTransport:
		r.open(l, a)
	case engine.ActionDisposeTransport:
		if c := l.conns[a.Transport]; c != nil && !c.closed {
			c.closed = true
			r.record(Entry{Ev: "close", Transport: c.kind, Host: c.host})
		}
	case engine.ActionActivateTransport:
		if c := l.conns[a.Transport]; c != nil {
			c.active = true
		}
	case engine.ActionStartTimer:
		id := a.Timer
		l.timers[id] = true
		due := int64(math.Round(float64(a.Due.Sub(epoch)) / float64(time.Millisecond)))
		r.at(due, func() {
			if l.timers[id] {
				delete(l.timers, id)
				r.step(l, engine.Event{Kind: engine.EventTimerFired, Timer: id})
			}
		})
	case engine.ActionCancelTimer:
		delete(l.timers, a.Timer)
	case engine.ActionCheckConnectivity:
		r.record(Entry{Ev: "check"})
		r.answerCheck(l, "connectivity", "up", engine.EventConnectivity, a.Check)
	case engine.ActionCheckWebSocket:
		r.record(Entry{Ev: "wscheck"})
		r.answerCheck(l, "wscheck", "connect", engine.EventWebSocketCheck, a.Check)
	case engine.ActionStateChange:
		r.record(Entry{Ev: "state", From: a.From.String(), To: a.To.String(), RetryIn: a.RetryIn.Round(time.Millisecond).Milliseconds()})
	case engine.ActionUpdate:
		r.record(Entry{Ev: "update"})
	case engine.ActionRenewToken:
		r.record(Entry{Ev: "renew"})
		r.answerRenewal(l, a.Check)
	default:
		r.record(Entry{Ev: "error", Message: fmt.Sprintf("unknown action %v", a)})
	}
}

// answerCheck answers check id, of the given rule transport
// ("connectivity" or "wscheck"), as the timeline says: no answer for
// "blackhole", else up when the rule's Do is upWord, after the rule's
// delay, whatever the engine has done since.
func (r *runner) answerCheck(l *life, transport, upWord string, kind engine.EventKind, id engine.CheckID) {
	ru := r.tl.rule(transport, "", r.now, r.offline)
	if ru.Do == "blackhole" {
		return
	}
	up := ru.Do == upWord
	r.after(*ru.After, func() { r.step(l, engine.Event{Kind: kind, Check: id, Up: up}) })
}

// answerRenewal answers token renewal id as the timeline's auth rules say:
// no answer for "blackhole", else a new token for "up" and the rule's
// error for "down", after the rule's delay.
func (r *runner) answerRenewal(l *life, id engine.CheckID) {
	ru := r.tl.rule("auth", "", r.now, r.offline)
	if ru.Do == "blackhole" {
		return
	}
	ev := engine.Event{Kind: engine.EventTokenRenewal, Check: id, Up: ru.Do == "up"}
	if !ev.Up {
		status := ru.Status
		if status == 0 {
			status = 401
		}
		ev.Failure = reconnect.Failure{Kind: reconnect.FailureHTTPStatus, Status: status}
	}
	r.after(*ru.After, func() { r.step(l, ev) })
}

// details is what the fake server's CONNECTED says: connectionStateTtl
// ttl, else the timeline's (120 s by default), and its maxIdleInterval.
func (r *runner) details(ttl int64) engine.Details {
	if ttl == 0 {
		ttl = r.tl.ServerConnectionStateTTL
	}
	if ttl == 0 {
		ttl = r.tl.ConnectionStateTTL
	}
	if ttl == 0 {
		ttl = 120000
	}
	return engine.Details{
		ConnectionStateTTL: time.Duration(ttl) * time.Millisecond,
		MaxIdleInterval:    time.Duration(r.tl.MaxIdleInterval) * time.Millisecond,
	}
}

// open answers an ActionOpenTransport as the timeline's network does.
func (r *runner) open(l *life, a engine.Action) {
	kind := "ws"
	if a.TransportKind == reconnect.HTTP {
		kind = "http"
	}
	c := &conn{id: a.Transport, kind: kind, host: a.Host}
	l.conns[c.id] = c
	r.record(Entry{Ev: "open", Transport: kind, Host: a.Host, Mode: a.Mode.String()})
	ru := r.tl.rule(kind, a.Host, r.now, r.offline)
	live := func(fn func()) func() {
		return func() {
			if !c.closed {
				fn()
			}
		}
	}
	send := func(k engine.EventKind, f reconnect.Failure) {
		r.step(l, engine.Event{Kind: k, Transport: c.id, Failure: f})
	}
	after, ca, status := *ru.After, int64(10), ru.Status
	if status == 0 {
		status = 503
	}
	if ru.ConnectedAfter != nil {
		ca = *ru.ConnectedAfter
	}
	switch ru.Do {
	case "connect", "open", "disconnect", "error":
		if kind == "ws" || ru.Do == "open" {
			r.after(after, live(func() { send(engine.EventTransportViable, reconnect.Failure{}) }))
		}
		switch ru.Do {
		case "connect":
			r.after(after+ca, live(func() {
				c.connected = true
				r.step(l, engine.Event{Kind: engine.EventTransportConnected, Transport: c.id, Details: r.details(0)})
			}))
		case "disconnect", "error":
			r.after(after+ca, live(func() {
				if kind == "http" {
					send(engine.EventTransportViable, reconnect.Failure{})
				}
				c.closed = true
				if ru.Do == "error" {
					if ru.Status == 0 {
						ru.Status = 400
					}
					r.step(l, errorEvent(c.id, ru.Status, ru.Code, ru.Error))
					return
				}
				send(engine.EventTransportClosed, disconnected(status, ru.Code, ru.Error))
			}))
		}
	case "status":
		if ru.Status == 0 {
			ru.Status = 403
		}
		r.after(after, live(func() {
			c.closed = true
			send(engine.EventTransportFailed, reconnect.Failure{Kind: reconnect.FailureHTTPStatus, Status: ru.Status})
		}))
	case "refuse":
		r.after(after, live(func() {
			c.closed = true
			send(engine.EventTransportFailed, reconnect.Failure{Kind: reconnect.FailureRefused})
		}))
	}
}
