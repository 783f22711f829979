package peers

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// WriteJSON saves the report (options, every cell's events and results)
// so that its tables, model checks and charts can be written again
// without running it (ReadReport).
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(r)
}

// ReadReport reads a report WriteJSON saved. The cells' errors come back
// as text only.
func ReadReport(rd io.Reader) (*Report, error) {
	var r Report
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, err
	}
	for i := range r.Cells {
		if r.Cells[i].ErrText != "" {
			r.Cells[i].Err = errors.New(r.Cells[i].ErrText)
		}
	}
	return &r, nil
}

// Merge adds the cells of other, a run with the same clients and faults
// but other kinds, to r: its kinds come after r's.
func (r *Report) Merge(other *Report) error {
	if other.Options.ClientsUnder(Restart) != r.Options.ClientsUnder(Restart) ||
		other.Options.Clients != r.Options.Clients || !slices.Equal(other.Options.Faults, r.Options.Faults) {
		return errors.New("peers: merged runs need the same clients and faults")
	}
	for _, k := range other.Options.Kinds {
		if slices.Contains(r.Options.Kinds, k) {
			return fmt.Errorf("peers: both runs have kind %v", k)
		}
	}
	kinds := append(slices.Clone(r.Options.Kinds), other.Options.Kinds...)
	var cells []Cell
	for _, f := range r.Options.Faults {
		for _, k := range kinds {
			if c, ok := r.Cell(f, k); ok {
				cells = append(cells, c)
			} else if c, ok := other.Cell(f, k); ok {
				cells = append(cells, c)
			}
		}
	}
	r.Options.Kinds, r.Cells = kinds, cells
	r.Duration += other.Duration
	return nil
}
