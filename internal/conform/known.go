package conform

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Known is a list of known differences: cases an SDK is known to decide
// differently, each with the reason. A run given one reports those
// failures as known differences instead of failures, and fails when a
// listed case passes (the entry is stale). An entry names an item id; it
// covers the item's cases, including every "<id>@<status>" of a
// statusRange.
type Known struct {
	Differences []KnownDifference `json:"differences"`
}

// KnownDifference is one entry of a Known list.
type KnownDifference struct {
	Case string `json:"case"`
	Why  string `json:"why"`
}

// ParseKnown reads a Known list and checks every entry has a case and a
// reason.
func ParseKnown(data []byte) (Known, error) {
	var k Known
	if len(data) > maxFixture {
		return k, fmt.Errorf("larger than %d bytes", maxFixture)
	}
	if err := json.Unmarshal(data, &k); err != nil {
		return k, err
	}
	for i, d := range k.Differences {
		if d.Case == "" || strings.TrimSpace(d.Why) == "" {
			return k, fmt.Errorf("differences[%d]: want a case and a reason (why)", i)
		}
	}
	if len(k.Differences) == 0 {
		return k, errors.New(`no "differences"`)
	}
	return k, nil
}

// itemOf is the item id of a case id: the id before "@".
func itemOf(id string) string {
	item, _, _ := strings.Cut(id, "@")
	return item
}

// lists reports whether k (which may be nil) names the item of case id.
func (k *Known) lists(id string) bool {
	if k == nil {
		return false
	}
	for _, d := range k.Differences {
		if d.Case == itemOf(id) {
			return true
		}
	}
	return false
}

// applyKnown moves the failures k lists to the known differences and
// records the entries whose cases ran and passed.
func (r *Report) applyKnown(k Known) {
	why := map[string]string{}
	for _, d := range k.Differences {
		why[d.Case] = d.Why
	}
	failedItems := map[string]bool{}
	var keep []Failure
	for _, f := range r.Failures {
		if w, ok := why[itemOf(f.ID)]; ok {
			failedItems[itemOf(f.ID)] = true
			f.Known = w
			r.Known = append(r.Known, f)
			continue
		}
		keep = append(keep, f)
	}
	r.Failures = keep
	r.Failed = len(keep)
	ranItems := map[string]bool{}
	for _, c := range r.ran {
		ranItems[itemOf(c.id)] = true
	}
	for _, d := range k.Differences {
		if ranItems[d.Case] && !failedItems[d.Case] {
			r.Stale = append(r.Stale, d.Case)
		}
	}
}
