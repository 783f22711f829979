package enginediff

// The differential run: timelines in, disagreements out.

import (
	"fmt"
	"sync"
	"time"
)

// Differ compares the Go engine with the adapters' engines.
type Differ struct {
	refs [2]*Ref // js, python: Engines[1:]
}

// NewDiffer starts one process of each adapter (from the repository's
// root), each stopped by Close or after deadline.
func NewDiffer(root string, deadline time.Duration) (*Differ, error) {
	d := &Differ{}
	for i, name := range Engines[1:] {
		r, err := Start(root, name, deadline)
		if err != nil {
			d.Close()
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		d.refs[i] = r
	}
	return d, nil
}

// Close stops the adapters.
func (d *Differ) Close() {
	for _, r := range d.refs {
		if r != nil {
			r.Close()
		}
	}
}

// Outcomes replays the timelines through every engine; goSteps, when
// given, are the Go engine's answers already computed (by Generate). The
// adapters work at the same time, each with all its timelines in flight.
func (d *Differ) Outcomes(tls []Timeline, goSteps [][][]string) ([]Outcomes, error) {
	outs := make([]Outcomes, len(tls))
	var wg sync.WaitGroup
	errs := make([]error, len(d.refs))
	for k, r := range d.refs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o, err := r.Run(tls)
			for i := range o {
				outs[i][k+1] = o[i]
			}
			errs[k] = err
		}()
	}
	for i, tl := range tls {
		if goSteps != nil {
			outs[i][0] = Outcome{Steps: goSteps[i]}
			continue
		}
		steps, _, err := RunGo(tl)
		outs[i][0] = Outcome{Steps: steps}
		if err != nil {
			outs[i][0].Err = "error: " + err.Error()
		}
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return outs, nil
}

// Disagreement replays one timeline through every engine and returns
// their disagreement, or nil.
func (d *Differ) Disagreement(tl Timeline) (*Disagreement, error) {
	o, err := d.Outcomes([]Timeline{tl}, nil)
	if err != nil {
		return nil, err
	}
	return Compare(tl, o[0]), nil
}
