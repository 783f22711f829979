package peers

import (
	"encoding/json"
	"errors"
	"io"
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
