package rows

import (
	"slices"
	"strings"
	"testing"
)

// TestCheck: every pin map names rows that exist, and the loss decision is
// well formed.
func TestCheck(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
}

// TestAddPinsRefusesUnknownRows: a pin for a row ID that is no row is an
// error naming it, and no pin of that map is added.
func TestAddPinsRefusesUnknownRows(t *testing.T) {
	before := slices.Clone(All[0].Pins)
	err := appendPins(map[string][]string{All[0].ID: {"some-scenario"}, "WF-CONNECTING-no-such-row-9": {"x"}, "ALL-ANY-nor-this-1": {"y"}})
	if err == nil || !strings.Contains(err.Error(), "[ALL-ANY-nor-this-1 WF-CONNECTING-no-such-row-9]") {
		t.Fatalf("appendPins with unknown rows: %v, want an error naming both, sorted", err)
	}
	if !slices.Equal(All[0].Pins, before) {
		t.Fatalf("a refused map added pins: %v", All[0].Pins)
	}
	saved := pinErrs
	defer func() { pinErrs = saved }()
	addPins(map[string][]string{"HF-START-nothing-1": {"z"}})
	if err := Check(); err == nil || !strings.Contains(err.Error(), "HF-START-nothing-1") {
		t.Fatalf("Check after addPins of an unknown row: %v", err)
	}
}

// TestServerRowsPinnable: the pin maps may name the rows of what the
// server says, which are part of All before any init function runs.
func TestServerRowsPinnable(t *testing.T) {
	if err := appendPinsTo(slices.Clone(All), map[string][]string{serverRows[0].ID: {"s"}}); err != nil {
		t.Fatal(err)
	}
	for _, r := range All {
		if slices.ContainsFunc(serverRows, func(s Row) bool { return s.ID == r.ID }) && !r.OnePath {
			t.Errorf("server row %s is not marked one path", r.ID)
		}
	}
}

// TestPinsNameRows: every row the further pins name exists, and has those
// pins (a row appended to All after the pins were added would not).
func TestPinsNameRows(t *testing.T) {
	for name, extra := range map[string]map[string][]string{"differentialPins": differentialPins, "guessPins": guessPins} {
		for id, pins := range extra {
			i := slices.IndexFunc(All, func(r Row) bool { return r.ID == id })
			if i < 0 {
				t.Errorf("%s names row %s, which does not exist", name, id)
				continue
			}
			for _, p := range pins {
				if !slices.Contains(All[i].Pins, p) {
					t.Errorf("%s: row %s does not list %s among its pins", name, id, p)
				}
			}
		}
	}
}
