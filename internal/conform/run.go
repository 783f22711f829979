package conform

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

// Hello is the first line the harness writes.
type Hello struct {
	Type     string   `json:"type"` // "hello"
	Protocol int      `json:"protocol"`
	Areas    []string `json:"areas"`
}

// Request is one line the harness writes to the adapter after the hello:
// a case, with its inputs (always an object, perhaps empty).
type Request struct {
	Type     string         `json:"type,omitempty"` // "hello" on the hello line, which Hello writes
	ID       string         `json:"id,omitempty"`
	Area     string         `json:"area,omitempty"`
	Function string         `json:"function,omitempty"`
	Input    map[string]any `json:"input"`
}

// Response is one line the adapter writes back.
type Response struct {
	Type       string         `json:"type,omitempty"`
	Protocol   int            `json:"protocol,omitempty"`
	Implements []string       `json:"implements,omitempty"`
	Name       string         `json:"name,omitempty"`
	ID         string         `json:"id,omitempty"`
	Result     map[string]any `json:"result,omitempty"`
	Error      string         `json:"error,omitempty"`
}

// Failure is one case whose answer was wrong.
type Failure struct {
	ID       string         `json:"id"`
	Spec     string         `json:"spec"`
	Function string         `json:"function"`
	Input    map[string]any `json:"input"`
	Expected map[string]any `json:"expected"`
	Actual   any            `json:"actual"`
	Problem  string         `json:"problem"`
}

// Report is the outcome of a run.
type Report struct {
	Adapter  string    `json:"adapter"`
	Passed   int       `json:"passed"`
	Failed   int       `json:"failed"`
	Skipped  int       `json:"skipped"`
	Failures []Failure `json:"failures"`
	// Broken is set when the adapter broke the protocol (crashed, hung,
	// wrote garbage, answered the wrong case or twice); the cases not run
	// count as failed.
	Broken string `json:"broken,omitempty"`
}

// Summary is the closing line: "N passed, M failed, K skipped".
func (r Report) Summary() string {
	return fmt.Sprintf("%d passed, %d failed, %d skipped", r.Passed, r.Failed, r.Skipped)
}

// Options tune a run.
type Options struct {
	Only    []string      // areas to run; empty means all
	Timeout time.Duration // per exchange; 0 means 5 s
}

// lineReader delivers the adapter's stdout lines on a channel, so that
// every read can time out.
type lineReader struct {
	lines chan []byte
	err   chan error
}

// maxLine bounds one response line.
const maxLine = 4 << 20

func newLineReader(r io.Reader) *lineReader {
	lr := &lineReader{lines: make(chan []byte, 16), err: make(chan error, 1)}
	go func() {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			line, err := readLine(br)
			if err != nil {
				lr.err <- err
				close(lr.lines)
				return
			}
			lr.lines <- line
		}
	}()
	return lr
}

func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		frag, err := br.ReadSlice('\n')
		buf = append(buf, frag...)
		if len(buf) > maxLine {
			return nil, fmt.Errorf("a line longer than %d bytes", maxLine)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if len(bytes.TrimSpace(buf)) > 0 && err == io.EOF {
				return buf, nil
			}
			return nil, err
		}
		return buf, nil
	}
}

// next returns the next non-empty line, or an error on timeout or end.
func (lr *lineReader) next(timeout time.Duration) ([]byte, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-lr.lines:
			if !ok {
				err := <-lr.err
				if errors.Is(err, io.EOF) {
					return nil, errEOF
				}
				return nil, err
			}
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			return line, nil
		case <-timer.C:
			return nil, errTimeout
		}
	}
}

var (
	errTimeout = errors.New("timeout")
	errEOF     = errors.New("end of output")
)

// Run drives one adapter: hello, then every case of the suite in order.
// w is the adapter's stdin and r its stdout. It returns when every case is
// answered or the adapter breaks the protocol; it never waits longer than
// the timeout for one answer.
func Run(suite Suite, w io.Writer, r io.Reader, opt Options) Report {
	if opt.Timeout <= 0 {
		opt.Timeout = 5 * time.Second
	}
	lr := newLineReader(r)
	enc := json.NewEncoder(w)
	var rep Report

	only := func(area string) bool { return len(opt.Only) == 0 || slices.Contains(opt.Only, area) }
	var todo []Case
	for _, c := range suite.Cases {
		if only(c.Area) {
			todo = append(todo, c)
		} else {
			rep.Skipped++
		}
	}
	broken := func(at int, format string, args ...any) Report {
		rep.Broken = fmt.Sprintf(format, args...)
		rep.Failed += len(todo) - at
		return rep
	}
	if err := enc.Encode(Hello{Type: "hello", Protocol: ProtocolVersion, Areas: Areas}); err != nil {
		return broken(0, "could not send hello: %v", err)
	}
	line, err := lr.next(opt.Timeout)
	if err != nil {
		return broken(0, "no answer to hello (%v)", describe(err, opt.Timeout))
	}
	var hello Response
	if json.Unmarshal(line, &hello) != nil || hello.Type != "hello" {
		return broken(0, "the first line is not a hello answer: %s", clip(line))
	}
	if hello.Protocol != ProtocolVersion {
		return broken(0, "adapter speaks protocol %d, the harness %d", hello.Protocol, ProtocolVersion)
	}
	rep.Adapter = hello.Name
	var run []Case
	for _, c := range todo {
		if slices.Contains(hello.Implements, c.Area) {
			run = append(run, c)
		} else {
			rep.Skipped++
		}
	}
	todo = run
	var lastID string
	for i, c := range todo {
		input := c.Input
		if input == nil {
			input = map[string]any{}
		}
		if err := enc.Encode(Request{ID: c.ID, Area: c.Area, Function: c.Function, Input: input}); err != nil {
			return broken(i, "could not send case %s: %v", c.ID, err)
		}
		line, err := lr.next(opt.Timeout)
		if err != nil {
			return broken(i, "no answer to case %s (%v)", c.ID, describe(err, opt.Timeout))
		}
		var resp Response
		if err := json.Unmarshal(line, &resp); err != nil || resp.ID == "" {
			return broken(i, "garbage instead of an answer to case %s: %s", c.ID, clip(line))
		}
		if resp.ID != c.ID {
			if resp.ID == lastID {
				return broken(i, "case %s answered twice", lastID)
			}
			return broken(i, "answer for case %s while case %s was asked", resp.ID, c.ID)
		}
		lastID = c.ID
		if f, ok := check(c, resp, suite.Tolerance); ok {
			rep.Passed++
		} else {
			rep.Failed++
			rep.Failures = append(rep.Failures, f)
		}
	}
	// A stray line after the last answer is an answer given twice.
	if line, err := lr.next(50 * time.Millisecond); err == nil {
		var resp Response
		if json.Unmarshal(line, &resp) == nil && resp.ID == lastID && lastID != "" {
			rep.Broken = fmt.Sprintf("case %s answered twice", lastID)
		} else {
			rep.Broken = fmt.Sprintf("unexpected output after the last case: %s", clip(line))
		}
	}
	return rep
}

func describe(err error, timeout time.Duration) string {
	switch {
	case errors.Is(err, errTimeout):
		return fmt.Sprintf("nothing within %v", timeout)
	case errors.Is(err, errEOF):
		return "the adapter closed its output or exited"
	}
	return err.Error()
}

func clip(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// check compares an answer with the expectation.
func check(c Case, resp Response, tol Tolerance) (Failure, bool) {
	f := Failure{ID: c.ID, Spec: c.Spec, Function: c.Function, Input: c.Input, Expected: c.Expected}
	if resp.Error != "" {
		f.Actual = map[string]any{"error": resp.Error}
		if c.Expected["error"] == true {
			return f, true
		}
		f.Problem = "the adapter answered with an error"
		return f, false
	}
	f.Actual = resp.Result
	if c.Expected["error"] == true {
		f.Problem = "expected an error"
		return f, false
	}
	keys := make([]string, 0, len(c.Expected))
	for k := range c.Expected {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		got, ok := resp.Result[k]
		if !ok {
			f.Problem = "no " + k + " in the result"
			return f, false
		}
		if p := compare(k, c.Expected[k], got, tol); p != "" {
			f.Problem = k + ": " + p
			return f, false
		}
	}
	return f, true
}

func compare(key string, want, got any, tol Tolerance) string {
	switch w := want.(type) {
	case float64:
		g, ok := got.(float64)
		if !ok {
			return fmt.Sprintf("want a number, got %v", got)
		}
		limit := tol.Relative * math.Abs(w)
		if strings.HasSuffix(key, "Ms") {
			limit = math.Max(tol.AbsoluteMs, limit)
		}
		if key == "rule" || !strings.HasSuffix(key, "Ms") && key != "coefficient" && key != "jitter" {
			limit = 0
		}
		if math.Abs(g-w) > limit {
			return fmt.Sprintf("want %v, got %v (difference %g, tolerance %g)", w, g, g-w, limit)
		}
	case []any:
		if key == "steps" {
			return compareSteps(w, got)
		}
		if !jsonEqual(w, got) {
			return fmt.Sprintf("want %v, got %v", w, got)
		}
	default:
		if !jsonEqual(want, got) {
			return fmt.Sprintf("want %v, got %v", want, got)
		}
	}
	return ""
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// compareSteps applies the scenario matching rule: per step, the state
// changes in order and the other actions as a multiset.
func compareSteps(want []any, got any) string {
	g, ok := got.([]any)
	if !ok || len(g) != len(want) {
		return fmt.Sprintf("want %d steps, got %v", len(want), got)
	}
	for i := range want {
		wa := stringsOf(want[i].(map[string]any)["actions"])
		gm, _ := g[i].(map[string]any)
		ga := stringsOf(gm["actions"])
		if !SameActions(ga, wa) {
			return fmt.Sprintf("step %d: want %q, got %q", i, wa, ga)
		}
	}
	return ""
}

func stringsOf(v any) []string {
	xs, _ := v.([]any)
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// SameActions is the scenarios' matching rule: state changes compared in
// order, every other action as a multiset.
func SameActions(got, want []string) bool {
	split := func(x []string) (st, rest []string) {
		for _, s := range x {
			if strings.HasPrefix(s, "state ") {
				st = append(st, s)
			} else {
				rest = append(rest, s)
			}
		}
		slices.Sort(rest)
		return st, rest
	}
	gs, gr := split(got)
	ws, wr := split(want)
	return slices.Equal(gs, ws) && slices.Equal(gr, wr)
}

// WriteText prints the failures grouped by spec point, then the summary.
func (r Report) WriteText(w io.Writer) {
	bySpec := map[string][]Failure{}
	var specs []string
	for _, f := range r.Failures {
		bySpec[f.Spec] = append(bySpec[f.Spec], f)
		specs = append(specs, f.Spec)
	}
	for _, spec := range SpecOrder(specs) {
		fs := bySpec[spec]
		fmt.Fprintf(w, "FAIL %s (%d)\n", spec, len(fs))
		for _, f := range fs {
			in, _ := json.Marshal(f.Input)
			ex, _ := json.Marshal(f.Expected)
			ac, _ := json.Marshal(f.Actual)
			fmt.Fprintf(w, "  %s %s\n    input:    %s\n    expected: %s\n    actual:   %s\n    %s\n", f.ID, f.Function, clipText(in), clipText(ex), clipText(ac), f.Problem)
		}
	}
	if r.Broken != "" {
		fmt.Fprintf(w, "adapter broke the protocol: %s\n", r.Broken)
	}
	fmt.Fprintln(w, r.Summary())
}

func clipText(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "…"
	}
	return string(b)
}
