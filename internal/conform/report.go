package conform

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Failure is one case whose answer was wrong, with every mismatch.
type Failure struct {
	ID         string          `json:"id"`
	Spec       string          `json:"spec"`
	Function   string          `json:"function"`
	Input      map[string]any  `json:"input"`
	Expected   map[string]any  `json:"expected"`
	Actual     json.RawMessage `json:"actual,omitempty"`
	Mismatches []Mismatch      `json:"mismatches"`
	// Known is the reason from the list of known differences, for a
	// failure listed there.
	Known string `json:"known,omitempty"`
}

// OutsideDecision is one totality decision whose cases lie outside the
// domain the adapter declared: they were asked, and the answers say
// whether the adapter shares the decision, but they count neither as
// passed nor as failed.
type OutsideDecision struct {
	Decision string   `json:"decision"`
	Cases    []string `json:"cases"`
	// Differs lists the cases the adapter answered differently.
	Differs []string `json:"differs,omitempty"`
}

// Report is the outcome of a run. Every selected case is passed, failed,
// outside the declared domain, not implemented by the adapter or not run
// (the run stopped early); the cases --only left out are not selected.
type Report struct {
	Adapter    string   `json:"adapter"`
	Implements []string `json:"implements"`
	Domain     string   `json:"domain"`
	// ExactNs is set when the adapter declared exactNs: the RTB1 delays
	// and bounds were also checked to the exact nanosecond.
	ExactNs        bool              `json:"exactNs"`
	Passed         int               `json:"passed"`
	Failed         int               `json:"failed"`
	OutsideDomain  int               `json:"outsideDomain"`
	NotImplemented int               `json:"notImplemented"`
	NotSelected    int               `json:"notSelected"`
	NotRun         int               `json:"notRun"`
	Failures       []Failure         `json:"failures"`
	Outside        []OutsideDecision `json:"outside,omitempty"`
	// Known holds the failures the list of known differences expects;
	// they do not count as failed.
	Known []Failure `json:"known,omitempty"`
	// Stale lists the known differences whose cases ran and passed.
	Stale []string `json:"stale,omitempty"`
	// Missing lists the --require areas the adapter does not implement.
	Missing []string `json:"missing,omitempty"`
	// Empty lists the --require areas the adapter implements but in
	// which no case passed or failed (none selected, every one outside
	// the declared domain, or the fixtures hold none): a required area
	// must be shown to work.
	Empty []string `json:"empty,omitempty"`
	// Broken says how the adapter broke the protocol (crashed, hung,
	// wrote something that is not an answer, answered the wrong case or
	// twice, a bad hello), or how the run could not be started.
	Broken string `json:"broken,omitempty"`
	// Stopped says why the run ended early without the adapter's fault:
	// the whole-run deadline, an interrupt or Options.MaxFailures.
	Stopped string `json:"stopped,omitempty"`
	// Usage is set when Broken is a mistake in the options (--only an
	// area the adapter does not implement).
	Usage bool `json:"-"`
	// StderrTail holds the adapter's last stderr lines when the run
	// broke, escaped.
	StderrTail []string `json:"stderrTail,omitempty"`

	ran          []ranCase
	outsideCases []outsideCase
	waitFrom     time.Time // when the harness began its last wait (tests)
}

type outsideCase struct {
	id, area, spec, decision string
}

// noneRan records the required areas, implemented by the adapter, in
// which no case passed or failed.
func (r *Report) noneRan(required []string) {
	for _, a := range required {
		if !slices.Contains(r.Implements, a) {
			continue // Missing says so
		}
		if !slices.ContainsFunc(r.ran, func(c ranCase) bool { return c.area == a }) {
			r.Empty = append(r.Empty, a)
		}
	}
}

func (r *Report) pass(c Case) {
	r.Passed++
	r.ran = append(r.ran, ranCase{c.ID, c.Area, c.Spec})
}

func (r *Report) fail(c Case, actual []byte, ms []Mismatch) {
	r.Failed++
	r.ran = append(r.ran, ranCase{c.ID, c.Area, c.Spec})
	r.Failures = append(r.Failures, Failure{ID: c.ID, Spec: c.Spec, Function: c.Function, Input: c.Input, Expected: c.Expected, Actual: actual, Mismatches: ms})
}

// isOutside reports whether c lies outside the domain the adapter declared.
func (r *Report) isOutside(c Case) bool {
	return r.Domain == DomainSpec && c.Outside != ""
}

func (r *Report) outside(c Case, differs bool) {
	r.OutsideDomain++
	r.outsideCases = append(r.outsideCases, outsideCase{c.ID, c.Area, c.Spec, c.Outside})
	i := 0
	for i < len(r.Outside) && r.Outside[i].Decision != c.Outside {
		i++
	}
	if i == len(r.Outside) {
		r.Outside = append(r.Outside, OutsideDecision{Decision: c.Outside})
	}
	r.Outside[i].Cases = append(r.Outside[i].Cases, c.ID)
	if differs {
		r.Outside[i].Differs = append(r.Outside[i].Differs, c.ID)
	}
}

// The exit statuses of the conform command.
const (
	ExitPass   = 0 // every selected case passed, and at least one ran
	ExitFail   = 1 // a case failed, nothing ran, a required area is missing, or the run was stopped
	ExitBroken = 2 // usage, fixture or adapter protocol error
)

// ExitCode is the status the conform command exits with for this report.
func (r Report) ExitCode() int {
	switch {
	case r.Broken != "":
		return ExitBroken
	case r.Failed > 0 || r.Passed == 0 || len(r.Missing) > 0 || len(r.Empty) > 0 || len(r.Stale) > 0 || r.Stopped != "" || r.NotRun > 0:
		return ExitFail
	}
	return ExitPass
}

// Summary is the closing line, e.g. "1100 passed, 2 failed, 0 not run;
// 17 outside the declared domain, 0 not implemented by the adapter, 32 not
// selected".
func (r Report) Summary() string {
	known := ""
	if len(r.Known) > 0 {
		known = fmt.Sprintf(" (and %d known differences)", len(r.Known))
	}
	return fmt.Sprintf("%d passed, %d failed%s, %d not run; %d outside the declared domain, %d not implemented by the adapter, %d not selected",
		r.Passed, r.Failed, known, r.NotRun, r.OutsideDomain, r.NotImplemented, r.NotSelected)
}

// verdict is the line before the summary that says why the exit status is
// not 0, or "PASS".
func (r Report) verdict() string {
	switch {
	case r.Broken != "":
		return "ERROR: " + r.Broken
	case r.Stopped != "":
		return "STOPPED: " + r.Stopped
	case len(r.Missing) > 0:
		return "FAIL: required areas not implemented by the adapter: " + strings.Join(r.Missing, ", ")
	case len(r.Empty) > 0:
		return "FAIL: required areas in which no case ran: " + strings.Join(r.Empty, ", ")
	case len(r.Stale) > 0:
		return "FAIL: known differences that no longer differ: " + strings.Join(r.Stale, ", ")
	case r.Passed == 0 && r.Failed == 0:
		return "FAIL: no case ran"
	case r.Failed > 0:
		return "FAIL"
	}
	return "PASS"
}

// Quote renders text that came from an adapter for a terminal or a log:
// in double quotes, with control, format (bidi, zero-width) and other
// non-printing characters and invalid UTF-8 escaped, so it can neither
// forge a line nor hide output.
func Quote(s string) string {
	return strconv.Quote(s)
}

// escapeJSON escapes the characters of JSON text that json.Marshal leaves
// raw but a terminal would act on (format characters such as bidi
// overrides). They only occur inside JSON strings, where \uXXXX is valid.
func escapeJSON(b []byte) string {
	s := string(b)
	if strings.IndexFunc(s, func(r rune) bool { return r >= 0x80 && !unicode.IsPrint(r) }) < 0 {
		return s
	}
	var sb strings.Builder
	for _, r := range s {
		if r >= 0x80 && !unicode.IsPrint(r) {
			if r > 0xffff {
				r1, r2 := utf16Pair(r)
				fmt.Fprintf(&sb, `\u%04x\u%04x`, r1, r2)
			} else {
				fmt.Fprintf(&sb, `\u%04x`, r)
			}
			continue
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

func clipText(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

// summaryFirstAt is the number of failures from which the text report
// gives the verdict and the summary before the failures as well as after.
const summaryFirstAt = 10

// WriteText prints the failures grouped by spec point, the decisions
// outside the declared domain, the verdict and the summary; with
// summaryFirstAt failures or more, the verdict and the summary come first
// too.
func (r Report) WriteText(w io.Writer) {
	if r.Adapter != "" {
		exact := ""
		if r.ExactNs {
			exact = "; exact nanoseconds"
		}
		fmt.Fprintf(w, "adapter: %s (implements %s; domain %s%s)\n", Quote(r.Adapter), listOrNone(r.Implements), r.Domain, exact)
	}
	if len(r.Failures) >= summaryFirstAt {
		// The failures fill more than a screen: the outcome first as well.
		fmt.Fprintln(w, r.verdict())
		fmt.Fprintln(w, r.Summary())
	}
	bySpec := map[string][]Failure{}
	var specs []string
	for _, f := range r.Failures {
		if _, ok := bySpec[f.Spec]; !ok {
			specs = append(specs, f.Spec)
		}
		bySpec[f.Spec] = append(bySpec[f.Spec], f)
	}
	sort.Strings(specs)
	for _, spec := range specs {
		fs := bySpec[spec]
		fmt.Fprintf(w, "FAIL %s (%d)\n", spec, len(fs))
		for _, f := range fs {
			in, _ := json.Marshal(f.Input)
			fmt.Fprintf(w, "  %s %s\n    input:    %s\n", f.ID, f.Function, clipText(escapeJSON(in)))
			for _, m := range f.Mismatches {
				key := m.Key
				if key == "" {
					key = "answer"
				}
				fmt.Fprintf(w, "    %s: %s\n", key, m.Problem)
				if m.Expected != nil {
					fmt.Fprintf(w, "      expected: %s\n", clipText(escapeJSON(m.Expected)))
				}
				if m.Actual != nil {
					fmt.Fprintf(w, "      actual:   %s\n", clipText(escapeJSON(m.Actual)))
				}
			}
		}
	}
	knownBy := map[string]int{}
	var reasons []string
	for _, f := range r.Known {
		if knownBy[f.Known] == 0 {
			reasons = append(reasons, f.Known)
		}
		knownBy[f.Known]++
	}
	for _, why := range reasons {
		fmt.Fprintf(w, "KNOWN difference: %s (%d cases)\n", why, knownBy[why])
	}
	for _, o := range r.Outside {
		verdict := "shared"
		if len(o.Differs) > 0 {
			verdict = fmt.Sprintf("decided differently in %d", len(o.Differs))
		}
		fmt.Fprintf(w, "OUTSIDE the declared domain: %s: %s of %d cases\n", o.Decision, verdict, len(o.Cases))
	}
	if len(r.StderrTail) > 0 {
		fmt.Fprintf(w, "adapter stderr, last %d lines:\n", len(r.StderrTail))
		for _, l := range r.StderrTail {
			fmt.Fprintf(w, "  | %s\n", l)
		}
	}
	fmt.Fprintln(w, r.verdict())
	fmt.Fprintln(w, r.Summary())
}

// WriteJSON writes the report as one indented JSON object.
func (r Report) WriteJSON(w io.Writer) error {
	if r.Failures == nil {
		r.Failures = []Failure{}
	}
	if r.Implements == nil {
		r.Implements = []string{}
	}
	out := struct {
		Report
		Verdict  string `json:"verdict"`
		Summary  string `json:"summary"`
		ExitCode int    `json:"exitCode"`
	}{r, r.verdict(), r.Summary(), r.ExitCode()}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
