package rows

import (
	"slices"
	"testing"
)

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
