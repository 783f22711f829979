package enginediff

import (
	"slices"
	"strings"
	"testing"

	"github.com/reconnect-go/reconnect/engine"
)

// goHas is a keep function for Minimise: the Go engine emits an action
// starting with prefix at some step.
func goHas(prefix string) func(Timeline) (bool, error) {
	return func(tl Timeline) (bool, error) {
		steps, _, err := RunGo(tl)
		if err != nil {
			return false, nil
		}
		for _, acts := range steps {
			if slices.ContainsFunc(acts, func(a string) bool { return strings.HasPrefix(a, prefix) }) {
				return true, nil
			}
		}
		return false, nil
	}
}

// TestMinimiseToTheCause: a fatal error while connecting needs two
// events, and no draws or knobs. (A token error that cannot be renewed
// also goes FAILED with reason fatal; the timelines kept here feed a
// fatal event, which is the shorter cause.)
func TestMinimiseToTheCause(t *testing.T) {
	failed := goHas("state connecting failed fatal")
	keep := func(tl Timeline) (bool, error) {
		if !slices.ContainsFunc(tl.Steps, func(s Step) bool { return strings.HasPrefix(s.Event, "fatal ") }) {
			return false, nil
		}
		return failed(tl)
	}
	for i := 0; ; i++ {
		tl, _ := Generate(5, i)
		if ok, _ := keep(tl); !ok || len(tl.Steps) < 10 {
			continue
		}
		m, err := Minimise(tl, keep)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Steps) != 2 || m.Steps[0].Event != "connect" || !strings.HasPrefix(m.Steps[1].Event, "fatal ") {
			t.Fatalf("minimised %d steps to %s", len(tl.Steps), m.JSON())
		}
		if len(m.Draws) != 0 || string(m.Config.text()) != "{}" {
			t.Errorf("draws or knobs left: %s", m.JSON())
		}
		return
	}
}

// TestMinimiseRenamesAndRetimes: events keep naming what they named
// (the IDs renamed once earlier events are gone), and no timer fires
// before it is due.
func TestMinimiseRenamesAndRetimes(t *testing.T) {
	keep := goHas("timer flap-hold")
	n := 0
	for i := 0; n < 5; i++ {
		tl, _ := Generate(5, i)
		if ok, _ := keep(tl); !ok {
			continue
		}
		n++
		m, err := Minimise(tl, keep)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := keep(m); !ok || len(m.Steps) >= len(tl.Steps) {
			t.Fatalf("minimised %d steps to %d: %s", len(tl.Steps), len(m.Steps), m.JSON())
		}
		// The flapping guard needs four websockets to connect and drop:
		// each connected event names the transport just opened.
		g, err := newGoEngine(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range m.Steps {
			if name, ok := timerName(st.Event); ok {
				if _, live := g.timers[name]; live && st.AtMs < g.dueMs(name) {
					t.Errorf("%s fires at %d, before it is due at %d", name, st.AtMs, g.dueMs(name))
				}
			}
			f := strings.Fields(st.Event)
			if (f[0] == "connected" || f[0] == "closed") && g.tports[transportID(t, f[1])] == nil {
				t.Errorf("%q names no live transport in %s", st.Event, m.JSON())
			}
			if _, err := g.step(st); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%d steps minimised to %d", len(tl.Steps), len(m.Steps))
	}
}

func transportID(t *testing.T, s string) engine.TransportID {
	n, err := idOf(s, "T")
	if err != nil {
		t.Fatal(err)
	}
	return engine.TransportID(n)
}
