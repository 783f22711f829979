package runner

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/fixtures"
	"github.com/reconnect-go/reconnect/internal/conform"
)

// loadScenarios reads every scenario of fixtures/scenarios.json.
func loadScenarios(t *testing.T) (ids []string, ins []conform.ScenarioInput) {
	t.Helper()
	suite, err := conform.LoadSuite(fixtures.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range suite.Cases {
		if c.Area != conform.AreaScenarios {
			continue
		}
		var in conform.ScenarioInput
		data, err := json.Marshal(c.Input)
		if err == nil {
			err = json.Unmarshal(data, &in)
		}
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		ids, ins = append(ids, c.ID), append(ins, in)
	}
	if len(ins) == 0 {
		t.Fatal("no scenarios")
	}
	return ids, ins
}

// TestScenariosThroughRunnerMatchEngine replays every scenario of
// fixtures/scenarios.json through a Runner with in-memory transports, in
// virtual time, with the runner's own timers firing (the scenarios' timer
// events are not fed: the runner must fire each at its due time), and
// checks that the state changes, updates, transports opened and
// transports closed are the engine's alone, at the same virtual times.
// What the server says goes through the Reporter (ConnectedWith, Details,
// Activity) and token renewals through Options.RenewToken.
func TestScenariosThroughRunnerMatchEngine(t *testing.T) {
	ids, ins := loadScenarios(t)
	known := map[string]bool{}
	for i, in := range ins {
		known[ids[i]] = true
		t.Run(ids[i], func(t *testing.T) {
			if reportsActivityAt(in) && cannotReplay[ids[i]] == "" {
				t.Fatalf("reports activity with at=, which the Reporter cannot: list it in cannotReplay")
			}
			if why := cannotReplay[ids[i]]; why != "" {
				t.Skip(why)
			}
			want := engineAlone(t, in)
			synctest.Test(t, func(t *testing.T) {
				got := throughRunner(t, in)
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Fatalf("through the runner:\n%s\n\nthe engine alone:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			})
		})
	}
	for id := range cannotReplay {
		if !known[id] {
			t.Errorf("cannotReplay names %q, which is no scenario", id)
		}
	}
}

// atReason: a scenario that reports activity with an explicit time
// (activity T<n> at=<ms>), which an SDK feeding the engine itself does;
// Reporter.Activity takes no time, the runner samples it.
const atReason = "reports activity with an explicit time"

// cannotReplay are the scenarios the runner's replay skips, each with the
// reason it cannot be replayed through a Runner. The engine's own tests
// and the conformance harness run them.
var cannotReplay = map[string]string{
	// The runner reads the wall clock, which starts in 2000 in a synctest
	// bubble, where a preference remembered in 2025 is in the future (in
	// force).
	"preference-expired-at-its-ttl": "depends on the scenarios' wall clock",
	// The SDK's failure comes at the very millisecond the attempt's connect
	// timer is due; the runner's real timer fires first, the scenario feeds
	// the failure first.
	"uts-rsa4c2-callback-timeout-while-connecting-disconnected": "a failure at the instant of the engine's own timer",
	// The give-up point and the RTN17f1 check's own timer are due at the
	// same instant: the scenario fires the give-up alone, whose step cancels
	// the other; the runner's clock has both due at once.
	"websocket-check-give-up-cancels-the-redirect-check":                "two of the engine's timers due at the same instant",
	"activity-at-an-earlier-time-sets-the-idle-deadline":                atReason,
	"http-first-activity-at-an-earlier-time-sets-the-idle-deadline":     atReason,
	"activity-earlier-than-the-recorded-one-changes-nothing":            atReason,
	"http-first-activity-earlier-than-the-recorded-one-changes-nothing": atReason,
	// A renewal answered "failed timeout" half a second in: the runner's
	// renewal fails with timeout only when its own renew-token timer ends it.
	"authorize-from-failed-connects-afresh": "a renewal failing with timeout before its timer",
	// A timer fired by name long before it is due: the runner's timers
	// fire only when due.
	"timer-fired-before-its-due-time-still-fires": "a timer fired before its due time",
	"idle-activity-reported-when-the-timer-fires": "reports activity with an explicit time (activity T<n> at=<ms>), " +
		"which an SDK feeding the engine itself does; Reporter.Activity takes no time, the runner samples it (runner/liveness.go)",
}

// reportsActivityAt reports whether a scenario reports activity with an
// explicit time.
func reportsActivityAt(in conform.ScenarioInput) bool {
	for _, st := range in.Steps {
		f := strings.Fields(st.Event)
		if len(f) > 2 && f[0] == "activity" && strings.HasPrefix(f[2], "at=") {
			return true
		}
	}
	return false
}

// replaySample is the sampling period of the replay's runners: with
// activity reported just before each millisecond (see throughRunner), a
// sample every millisecond finds it at the scenario's own time, so the
// runner's idle timer decides as the engine fed each activity at its
// step does. The sampling bounds with the real period are
// liveness_test.go's.
const replaySample = time.Millisecond

// engineAlone is the engine's state changes, opens and disposes per step,
// with the time the engine took the step at.
func engineAlone(t *testing.T, in conform.ScenarioInput) []string {
	res, err := conform.RunScenario(in)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var at int64 // the engine treats a time earlier than the last as the last
	for i, st := range res {
		at = max(at, in.Steps[i].AtMs)
		for _, a := range st.Actions {
			if strings.HasPrefix(a, "state ") || strings.HasPrefix(a, "update ") || strings.HasPrefix(a, "open ") || strings.HasPrefix(a, "dispose ") {
				out = append(out, fmt.Sprintf("%d %s", at, a))
			}
		}
	}
	return canonical(out)
}

// throughRunner replays in through a Runner inside a synctest bubble.
func throughRunner(t *testing.T, in conform.ScenarioInput) []string {
	cfg, drawn, err := conform.ScenarioConfig(in)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	d := newMemDialer()
	net, ws := newMemCheck(), newMemCheck()
	var rec recorder
	var log []string
	renew := newMemRenewal()
	o := Options{Config: cfg, Dialer: d, CheckConnectivity: net.check, CheckWebSocket: ws.check, OnStateChange: rec.add}
	if cfg.CanRenewToken || usesAuthorize(in) {
		o.RenewToken = renew.renew // an SDK without tokens configures nothing
	}
	r, err := New(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	r.core.live.fixed = replaySample // before any event: no goroutine of the runner's runs yet
	start := d.start
	for _, st := range in.Steps {
		at := start.Add(time.Duration(st.AtMs) * time.Millisecond)
		if strings.HasPrefix(st.Event, "activity ") {
			// Just before its millisecond, so that the sample at the
			// millisecond finds it (a sample due at the same instant as
			// a step runs first).
			at = at.Add(-time.Microsecond)
		}
		time.Sleep(time.Until(at))
		synctest.Wait()
		if err := feed(r, d, net, ws, renew, st.Event); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
	}
	for _, l := range d.lines() {
		if !strings.Contains(l, " close-request ") {
			log = append(log, l)
		}
	}
	cancel()
	<-r.Done()
	if err := drawn(); err != nil {
		t.Fatal(err)
	}
	for _, c := range rec.all() {
		if c.Stopped {
			continue // the runner's own last change as it stops; the engine alone has none
		}
		line := conform.StateLine(c.From, c.To, c.Reason, c.RetryIn, c.Failure)
		if c.Update {
			line = conform.UpdateLine(c.Reason, c.Failure)
		}
		log = append(log, fmt.Sprintf("%d %s", scenarioMs(c.At.Sub(start)), line))
	}
	return canonical(log)
}

// scenarioMs is the scenario time of a virtual instant d after the start:
// whole milliseconds, rounded up. The runner fires a timer at its due
// time, which the adaptive short circuit can put within a millisecond
// (15.000008 ms); a scenario feeds that timer's event at the first whole
// millisecond at or after it (16), which is when the engine alone acts.
func scenarioMs(d time.Duration) int64 {
	return int64((d + time.Millisecond - 1) / time.Millisecond)
}

// canonical orders lines "<ms> <what>" by time; within one time the state
// changes keep their order and come first, the other lines sorted (the
// fixtures' matching rule: state changes in order, the rest a multiset).
func canonical(lines []string) []string {
	type line struct {
		ms    int64
		state bool
		seq   int
		text  string
	}
	ls := make([]line, len(lines))
	for i, l := range lines {
		ms, rest, _ := strings.Cut(l, " ")
		n, _ := strconv.ParseInt(ms, 10, 64)
		ls[i] = line{ms: n, state: strings.HasPrefix(rest, "state ") || strings.HasPrefix(rest, "update "), seq: i, text: l}
	}
	slices.SortStableFunc(ls, func(a, b line) int {
		switch {
		case a.ms != b.ms:
			return cmp.Compare(a.ms, b.ms)
		case a.state != b.state:
			if a.state {
				return -1
			}
			return 1
		case a.state:
			return cmp.Compare(a.seq, b.seq)
		}
		return strings.Compare(a.text, b.text)
	})
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.text
	}
	return out
}

// feed performs one scenario event on the runner.
func feed(r *Runner, d *memDialer, net, ws *memCheck, renew *memRenewal, ev string) error {
	f := strings.Fields(ev)
	switch f[0] {
	case "connect":
		r.Connect()
	case "close":
		r.Close()
	case "authorize":
		r.Authorize()
	case "network-up":
		r.NetworkUp()
	case "network-down":
		r.NetworkDown()
	case "timer":
		// The runner's own timer fires at its due time.
	case "connectivity", "websocket-check":
		n, err := strconv.ParseUint(strings.TrimPrefix(f[1], "C"), 10, 64)
		if err != nil || len(f) != 3 {
			return fmt.Errorf("bad check answer %q", ev)
		}
		c := net
		if f[0] == "websocket-check" {
			c = ws
		}
		c.answerID(engine.CheckID(n), f[2] == "up")
	case "fatal":
		fl, err := conform.ParseFailure(f[1])
		if err != nil {
			return err
		}
		r.Fatal(fl)
	case "token":
		e, err := conform.ParseEvent(ev, nil)
		if err != nil {
			return err
		}
		answer, err := renewalAnswer(e)
		if err != nil {
			return err
		}
		renew.answerID(e.Check, answer)
	case "connected", "details", "activity":
		e, err := conform.ParseEvent(ev, nil)
		if err != nil {
			return err
		}
		if !e.LastActivity.IsZero() {
			return fmt.Errorf("%q: Reporter.Activity takes no time", ev)
		}
		tr := d.transport(e.Transport)
		if tr == nil {
			return nil // a transport never opened: the engine ignores it too
		}
		switch f[0] {
		case "connected":
			tr.report.ConnectedWith(e.Details, e.Failure)
		case "details":
			tr.report.Details(e.Details, e.Failure)
		case "activity":
			tr.report.Activity()
		}
	case "dialed":
		e, err := conform.ParseEvent(ev, nil)
		if err != nil {
			return err
		}
		if tr := d.transport(e.Transport); tr != nil {
			tr.report.Dialed(e.RTT)
		}
	case "viable", "failed", "closed":
		n, err := strconv.ParseUint(strings.TrimPrefix(f[1], "T"), 10, 64)
		if err != nil {
			return fmt.Errorf("bad transport in %q", ev)
		}
		var fl reconnect.Failure
		if len(f) > 2 {
			if fl, err = conform.ParseFailure(f[2]); err != nil {
				return err
			}
		}
		tr := d.transport(engine.TransportID(n))
		if tr == nil {
			return nil // a transport never opened: the engine ignores it too
		}
		switch f[0] {
		case "viable":
			tr.report.Viable()
		case "failed":
			tr.report.Failed(fl)
		case "closed":
			tr.report.Closed(fl)
		}
	default:
		return fmt.Errorf("unknown event %q", ev)
	}
	return nil
}

// renewalAnswer is what Options.RenewToken returns for a scenario's
// "token C<n> renewed | failed <failure>": an error whose RenewalFailure
// is the scenario's failure.
func renewalAnswer(e engine.Event) (error, error) {
	switch {
	case e.Up:
		return nil, nil
	case e.Failure.Kind == reconnect.FailureHTTPStatus:
		return &StatusError{Status: e.Failure.Status}, nil
	case e.Failure.Kind == reconnect.FailureOther && e.Failure == (reconnect.Failure{Kind: reconnect.FailureOther}):
		return errors.New("the token request failed"), nil
	}
	return nil, fmt.Errorf("no renewal error maps to %+v", e.Failure)
}

// memRenewal is Options.RenewToken answered by the test, by the
// renewal's check ID: the runner's call waits until answerID is called
// for it or its context ends.
type memRenewal struct {
	mu   sync.Mutex
	byID map[engine.CheckID]chan error
}

func newMemRenewal() *memRenewal { return &memRenewal{byID: map[engine.CheckID]chan error{}} }

func (m *memRenewal) renew(ctx context.Context) error {
	id, _ := CheckIDFrom(ctx)
	ch := make(chan error, 1)
	m.mu.Lock()
	m.byID[id] = ch
	m.mu.Unlock()
	select {
	case err := <-ch:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// answerID answers the renewal the runner asked for with check id, if
// one waits (an answer for no such renewal changes nothing, as the engine
// ignores it).
func (m *memRenewal) answerID(id engine.CheckID, err error) {
	m.mu.Lock()
	ch, ok := m.byID[id]
	delete(m.byID, id)
	m.mu.Unlock()
	if ok {
		ch <- err
	}
}

// usesAuthorize reports whether a scenario calls authorize, whose token
// the runner asks for through RenewToken whatever canRenewToken says.
func usesAuthorize(in conform.ScenarioInput) bool {
	for _, st := range in.Steps {
		if st.Event == "authorize" {
			return true
		}
	}
	return false
}
