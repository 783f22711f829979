package reconnect

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// A small model of one connection attempt's transports, driven through the
// package's transport decisions by events, with the proposal's guarantees
// checked after every step: by rapid on random event sequences, and
// exhaustively by a breadth-first walk that also proves which table rows are
// reachable.

type modelStatus uint8

const (
	started modelStatus = iota // opened, not yet viable
	pendingS
	activeS
	disposed
)

type modelTransport struct {
	kind   TransportKind
	mode   Mode
	status modelStatus
}

type transportModel struct {
	avail      Availability
	mode       Mode // of the attempt's non-upgrade transports
	ts         []modelTransport
	timerArmed bool
	timerFired bool
	httpStarts int
}

func newTransportModel(avail Availability, mode Mode) *transportModel {
	m := &transportModel{avail: avail, mode: mode}
	first := ChooseTransport(avail, 0)
	if first.Transport != NoTransport {
		m.open(first.Transport, mode)
	}
	m.timerArmed = first.ShortCircuit > 0
	return m
}

func (m *transportModel) clone() *transportModel {
	c := *m
	c.ts = append([]modelTransport(nil), m.ts...)
	return &c
}

func (m *transportModel) key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v%d%t%t%d|", m.avail, m.mode, m.timerArmed, m.timerFired, m.httpStarts)
	for _, x := range m.ts {
		fmt.Fprintf(&b, "%d%d%d,", x.kind, x.mode, x.status)
	}
	return b.String()
}

func (m *transportModel) slot(s modelStatus) int {
	for i, x := range m.ts {
		if x.status == s {
			return i
		}
	}
	return -1
}

func (m *transportModel) kindAt(i int) TransportKind {
	if i < 0 {
		return NoTransport
	}
	return m.ts[i].kind
}

func (m *transportModel) state() TransportState {
	return TransportState{HTTPAvailable: m.avail.HTTP, HTTPStarted: m.httpStarts > 0,
		Pending: m.kindAt(m.slot(pendingS)), Active: m.kindAt(m.slot(activeS))}
}

func (m *transportModel) open(k TransportKind, mode Mode) {
	if k == HTTP {
		m.httpStarts++
	}
	m.ts = append(m.ts, modelTransport{kind: k, mode: mode})
}

func (m *transportModel) inFlight() []int {
	var out []int
	for i, x := range m.ts {
		if x.status == started {
			out = append(out, i)
		}
	}
	return out
}

// fireTimer: the short-circuit timer fires.
func (m *transportModel) fireTimer() error {
	m.timerFired = true
	before := m.httpStarts
	idle := m.slot(pendingS) < 0 && m.slot(activeS) < 0
	if HTTPOnShortCircuit(m.state()) {
		m.open(HTTP, m.mode)
	}
	if idle && before == 0 && m.avail.HTTP && m.httpStarts != 1 {
		return fmt.Errorf("timer fired with nothing pending or active: %d HTTP starts", m.httpStarts)
	}
	if !idle && m.httpStarts != before {
		return fmt.Errorf("timer fired with something pending or active, and HTTP started")
	}
	return nil
}

// viable: in-flight transport i becomes viable. It returns the table row the
// decision used.
func (m *transportModel) viable(i int) (PendingRow, error) {
	x := &m.ts[i]
	p, a := m.slot(pendingS), m.slot(activeS)
	row := PendingTable()[pendingIndex(x.kind, x.mode, m.kindAt(p), m.kindAt(a))]
	d, rule := DecidePending(x.kind, x.mode, m.kindAt(p), m.kindAt(a))
	switch d {
	case DiscardCandidate:
		if x.kind == WebSocket && (rule != 3 || x.mode == ModeUpgrade || m.kindAt(a) != HTTP) {
			return row, fmt.Errorf("websocket discarded by rule %d (mode %v, active %v)", rule, x.mode, m.kindAt(a))
		}
		x.status = disposed
	case ReplacePending:
		if m.kindAt(p) != HTTP || x.kind != WebSocket {
			return row, fmt.Errorf("replace-pending with candidate %v and pending %v", x.kind, m.kindAt(p))
		}
		m.ts[p].status = disposed
		x.status = pendingS
	case Proceed:
		if p >= 0 {
			return row, fmt.Errorf("proceed while %v is pending", m.ts[p].kind)
		}
		x.status = pendingS
	}
	return row, nil
}

// connect: the pending transport connects and is activated.
func (m *transportModel) connect() error {
	p, a := m.slot(pendingS), m.slot(activeS)
	if m.ts[p].kind == HTTP && m.kindAt(a) == WebSocket {
		return fmt.Errorf("HTTP activating while a websocket is active")
	}
	if a >= 0 {
		m.ts[a].status = disposed // the upgrade websocket takes over
	}
	m.ts[p].status = activeS
	if m.ts[p].kind == WebSocket { // nothing can do better: close the rest
		for i := range m.ts {
			if i != p && m.ts[i].status != disposed {
				m.ts[i].status = disposed
			}
		}
	}
	if k, md := UpgradeAfterActivation(m.ts[p].kind, m.avail); k != NoTransport {
		if m.ts[p].kind != HTTP || k != WebSocket || md != ModeUpgrade {
			return fmt.Errorf("upgrade step after %v opened %v in %v", m.ts[p].kind, k, md)
		}
		m.open(k, md)
	}
	return nil
}

// fail: in-flight transport i fails.
func (m *transportModel) fail(i int) {
	x := &m.ts[i]
	x.status = disposed
	if x.kind == WebSocket && x.mode != ModeUpgrade && HTTPOnWebSocketFailure(m.state()) {
		m.timerArmed = false // cancelled
		m.open(HTTP, m.mode)
	}
}

// check is the invariant that holds after every step.
func (m *transportModel) check() error {
	actives := 0
	for _, x := range m.ts {
		if x.status == activeS {
			actives++
		}
	}
	p, a := m.kindAt(m.slot(pendingS)), m.kindAt(m.slot(activeS))
	switch {
	case actives > 1:
		return fmt.Errorf("%d active transports", actives)
	case m.httpStarts > 1:
		return fmt.Errorf("%d HTTP flows started in one attempt", m.httpStarts)
	case p == HTTP && a == HTTP:
		return fmt.Errorf("HTTP pending and active at once")
	case a == HTTP && p == WebSocket && m.ts[m.slot(pendingS)].mode != ModeUpgrade:
		return fmt.Errorf("a non-upgrade websocket pending beside an active HTTP transport")
	}
	return nil
}

var modelStarts = []Availability{{WebSocket: true, HTTP: true}, {WebSocket: true}, {HTTP: true}}

func TestPropertyTransportModelKeepsTheProposalsGuarantees(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		avail := rapid.SampledFrom(modelStarts).Draw(t, "availability")
		modes := rapid.SampledFrom([]Mode{ModeClean, ModeResume, ModeRecover})
		m := newTransportModel(avail, modes.Draw(t, "mode"))
		if m.timerArmed && ChooseTransport(avail, 0).ShortCircuit != 2*time.Second {
			t.Fatal("default short circuit is not 2 s")
		}
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		t.Repeat(map[string]func(*rapid.T){
			"a new connection attempt starts": func(t *rapid.T) {
				m = newTransportModel(avail, modes.Draw(t, "mode"))
			},
			"short-circuit timer fires": func(t *rapid.T) {
				if !m.timerArmed || m.timerFired {
					t.Skip("no timer armed")
				}
				must(m.fireTimer())
			},
			"a transport becomes viable": func(t *rapid.T) {
				fl := m.inFlight()
				if len(fl) == 0 {
					t.Skip("nothing in flight")
				}
				row, err := m.viable(rapid.SampledFrom(fl).Draw(t, "candidate"))
				must(err)
				if !row.Reachable {
					t.Fatalf("reached %+v, which the table marks unreachable", row)
				}
			},
			"the pending transport connects": func(t *rapid.T) {
				if m.slot(pendingS) < 0 {
					t.Skip("nothing pending")
				}
				must(m.connect())
			},
			"an in-flight transport fails": func(t *rapid.T) {
				fl := m.inFlight()
				if len(fl) == 0 {
					t.Skip("nothing in flight")
				}
				m.fail(rapid.SampledFrom(fl).Draw(t, "failing"))
			},
			"": func(t *rapid.T) { must(m.check()) },
		})
	})
}

// TestTransportModelExhaustivelyReachesExactlyTheReachableRows walks every
// state of the model from every start and checks the invariants in each; the
// set of table rows consulted must be exactly the rows marked reachable.
func TestTransportModelExhaustivelyReachesExactlyTheReachableRows(t *testing.T) {
	seen := map[string]bool{}
	used := map[PendingRow]bool{}
	var queue []*transportModel
	for _, avail := range modelStarts {
		for _, mode := range []Mode{ModeClean, ModeResume, ModeRecover} {
			queue = append(queue, newTransportModel(avail, mode))
		}
	}
	step := func(next *transportModel, err error) {
		if err == nil {
			err = next.check()
		}
		if err != nil {
			t.Fatalf("%v (state %s)", err, next.key())
		}
		if k := next.key(); !seen[k] {
			seen[k] = true
			queue = append(queue, next)
		}
	}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		if m.timerArmed && !m.timerFired {
			n := m.clone()
			step(n, n.fireTimer())
		}
		for _, i := range m.inFlight() {
			n := m.clone()
			row, err := n.viable(i)
			used[row] = true
			step(n, err)
			n = m.clone()
			n.fail(i)
			step(n, nil)
		}
		if m.slot(pendingS) >= 0 {
			n := m.clone()
			step(n, n.connect())
		}
	}
	for _, row := range PendingTable() {
		if row.Reachable != used[row] {
			t.Errorf("row %+v: marked reachable=%t, but the exhaustive walk says %t", row, row.Reachable, used[row])
		}
	}
	t.Logf("%d model states, %d table rows reached", len(seen), len(used))
}
