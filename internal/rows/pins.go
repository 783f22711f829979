package rows

import (
	"errors"
	"fmt"
	"slices"
	"sort"
)

// pinErrs collects what addPins refused: pins for rows that do not exist.
var pinErrs []error

// addPins appends each row's further pins to its Pins; a row ID that is no
// row of All is an error (recorded for Check), and adds nothing.
func addPins(extra map[string][]string) {
	if err := appendPins(extra); err != nil {
		pinErrs = append(pinErrs, err)
	}
}

// appendPins is addPins returning the error.
func appendPins(extra map[string][]string) error { return appendPinsTo(All, extra) }

// appendPinsTo appends to the rows of table the pins extra gives them. A
// row ID of extra that is no row of table is an error naming every such
// ID, sorted, and then no pin at all is added.
func appendPinsTo(table []Row, extra map[string][]string) error {
	var unknown []string
	for id := range extra {
		if !slices.ContainsFunc(table, func(r Row) bool { return r.ID == id }) {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("pins for rows that do not exist: %v", unknown)
	}
	for i := range table {
		table[i].Pins = append(table[i].Pins, extra[table[i].ID]...)
	}
	return nil
}

// Check reports what is wrong with the table as data: pins given to row
// IDs that are not rows (tourPins, edgePins and the other pin maps), and
// what CheckLossRows finds.
func Check() error {
	return errors.Join(append(slices.Clone(pinErrs), CheckLossRows())...)
}
