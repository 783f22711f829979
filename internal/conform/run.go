package conform

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Options tune a run.
type Options struct {
	// Only lists the areas to run; empty means every area the adapter
	// implements. An area listed here that the adapter does not implement
	// is a usage error.
	Only []string
	// Require lists areas the adapter must implement; the run fails when
	// it does not.
	Require []string
	// Startup bounds the wait for the hello answer; 0 means 60 s, enough
	// for a cold "go run" or Node.js on a busy machine.
	Startup time.Duration
	// Timeout bounds the wait for each answer after the hello; 0 means
	// 10 s.
	Timeout time.Duration
	// Deadline bounds the whole run; 0 means none.
	Deadline time.Duration

	// Known, if set, lists the cases the adapter is known to decide
	// differently.
	Known *Known

	// MaxFailures, if above 0, stops the run once that many cases have
	// failed (known differences do not count): the report is partial,
	// says so, and the exit status is 1.
	MaxFailures int

	// started, if set, is called with the adapter's process id, and env
	// is added to the adapter's environment (tests).
	started func(pid int)
	env     []string
	// window, if above 1, lets that many requests be written before their
	// answers arrive (tests that run hundreds of adapters: an adapter that
	// reads its lines in order gives the same answers, without a wake-up
	// per case). Run then writes from a goroutine of its own, which ends
	// when Run returns or, if it is blocked writing, when w is closed.
	window int
}

func (o Options) withDefaults() Options {
	if o.Startup <= 0 {
		o.Startup = 60 * time.Second
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	return o
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
			return nil, errLong
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if len(bytes.TrimSpace(buf)) > 0 && err == io.EOF {
				return buf, nil
			}
			return nil, errEOF
		}
		return buf, nil
	}
}

var (
	errTimeout = errors.New("timeout")
	errEOF     = errors.New("end of output")
	errLong    = fmt.Errorf("a line longer than %d bytes", maxLine)
	// errDeadline is the cause of a run stopped by Options.Deadline.
	errDeadline = errors.New("the whole-run deadline passed")
)

// next returns the next non-empty line, or an error on timeout, end of
// output or when ctx is done (its cause).
func (lr *lineReader) next(ctx context.Context, timeout time.Duration) ([]byte, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-lr.lines:
			if !ok {
				return nil, <-lr.err
			}
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			return line, nil
		case <-timer.C:
			return nil, errTimeout
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}
}

// Run drives one adapter: hello, then every selected case of the suite in
// order. w is the adapter's stdin and r its stdout. It returns when every
// case is answered, the adapter breaks the protocol, a time limit passes
// or ctx is done (the report then says so and counts the cases not run).
func Run(ctx context.Context, suite Suite, w io.Writer, r io.Reader, opt Options) Report {
	opt = opt.withDefaults()
	if opt.Deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, opt.Deadline, errDeadline)
		defer cancel()
	}
	lr := newLineReader(r)
	enc := json.NewEncoder(w)
	rep := Report{Domain: DomainAll}

	var selected []Case
	for _, c := range suite.Cases {
		if len(opt.Only) == 0 || slices.Contains(opt.Only, c.Area) {
			selected = append(selected, c)
		} else {
			rep.NotSelected++
		}
	}
	rep.NotRun = len(selected)
	stop := func(err error, format string, args ...any) Report {
		msg := fmt.Sprintf(format, args...)
		switch {
		case errors.Is(err, errDeadline):
			rep.Stopped = msg + ": " + errDeadline.Error() + fmt.Sprintf(" (%v)", opt.Deadline)
		case err != nil && ctx.Err() != nil:
			rep.Stopped = msg + ": interrupted"
		default:
			rep.Broken = msg
		}
		return rep
	}

	// Writing to an adapter that has gone fails; reading its output then
	// says what happened, the same way every time.
	send := func(v any) { _ = enc.Encode(v) }

	send(harnessHello())
	rep.waitFrom = time.Now()
	line, err := lr.next(ctx, opt.Startup)
	if err != nil {
		return stop(err, "no answer to hello (%s)", describe(err, opt.Startup))
	}
	var hello Response
	if err := json.Unmarshal(line, &hello); err != nil || hello.Type != "hello" {
		return stop(nil, "the first line is not a hello answer: %s", clip(line))
	}
	if bad := unknownKeys(line, helloKeys); len(bad) > 0 {
		return stop(nil, "the hello answer has unknown keys %s (known: %s)", quoteList(bad), strings.Join(helloKeys, ", "))
	}
	if hello.Protocol != ProtocolVersion {
		return stop(nil, "the adapter speaks protocol %d, the harness %d", hello.Protocol, ProtocolVersion)
	}
	for _, a := range hello.Implements {
		if !slices.Contains(Areas, a) {
			return stop(nil, "the hello answer implements unknown area %s (known: %s)", Quote(a), strings.Join(Areas, ", "))
		}
	}
	switch hello.Domain {
	case "":
	case DomainAll, DomainSpec:
		rep.Domain = hello.Domain
	default:
		return stop(nil, "the hello answer declares unknown domain %s (known: %s, %s)", Quote(hello.Domain), DomainAll, DomainSpec)
	}
	rep.Adapter = hello.Name
	rep.ExactNs = hello.ExactNs
	rep.Implements = hello.Implements
	for _, a := range opt.Only {
		if !slices.Contains(hello.Implements, a) {
			rep.Usage = true
			return stop(nil, "--only %s: the adapter does not implement it (it implements %s)", a, listOrNone(hello.Implements))
		}
	}
	for _, a := range opt.Require {
		if !slices.Contains(hello.Implements, a) {
			rep.Missing = append(rep.Missing, a)
		}
	}

	var todo []Case
	for _, c := range selected {
		switch {
		case !slices.Contains(hello.Implements, c.Area):
			rep.NotImplemented++
		default:
			todo = append(todo, c)
		}
	}
	rep.NotRun = len(todo)
	answered := func() {}
	if opt.window > 1 {
		var end func()
		answered, end = pipeline(w, todo, opt.window)
		defer end()
	}
	var lastID string
	unexpected := 0 // failed cases the list of known differences does not name
	for _, c := range todo {
		if opt.window <= 1 {
			send(c.request())
		}
		rep.waitFrom = time.Now()
		line, err := lr.next(ctx, opt.Timeout)
		if err != nil {
			return stop(err, "no answer to case %s (%s)", c.ID, describe(err, opt.Timeout))
		}
		answered()
		rep.NotRun--
		var resp Response
		if err := json.Unmarshal(line, &resp); err != nil {
			if id := answerID(line); id != "" && id != c.ID {
				rep.NotRun++
				return stop(nil, "answer for case %s while case %s was asked", Quote(id), c.ID)
			}
			if rep.isOutside(c) {
				rep.outside(c, true)
				continue
			}
			rep.fail(c, nil, []Mismatch{{Problem: "unparsable answer: " + clip(line)}})
			continue
		}
		if resp.ID != c.ID {
			rep.NotRun++
			if resp.ID == lastID && lastID != "" {
				return stop(nil, "case %s answered twice", lastID)
			}
			if resp.ID == "" {
				return stop(nil, "a line without an id instead of an answer to case %s: %s", c.ID, clip(line))
			}
			return stop(nil, "answer for case %s while case %s was asked", Quote(resp.ID), c.ID)
		}
		lastID = c.ID
		if bad := unknownKeys(line, answerKeys); len(bad) > 0 && !rep.isOutside(c) {
			rep.fail(c, rawActual(line), []Mismatch{{Problem: "unknown keys " + quoteList(bad) + " in the answer (known: id, result, error)"}})
			continue
		}
		c = withExactNs(c, hello.ExactNs, resp.Result)
		ms := check(c, resp, suite.Tolerance)
		if rep.isOutside(c) {
			rep.outside(c, len(ms) > 0)
			continue
		}
		if len(ms) > 0 {
			rep.fail(c, actualOf(resp), ms)
			if !opt.Known.lists(c.ID) {
				unexpected++
			}
		} else {
			rep.pass(c)
		}
		if opt.MaxFailures > 0 && unexpected >= opt.MaxFailures && rep.NotRun > 0 {
			rep.Stopped = fmt.Sprintf("after %d failed cases (--max-failures %d)", unexpected, opt.MaxFailures)
			break
		}
	}
	if opt.Known != nil {
		rep.applyKnown(*opt.Known)
	}
	rep.noneRan(opt.Require)
	if rep.Stopped != "" {
		return rep
	}
	// A stray line after the last answer is an answer given twice.
	if line, err := lr.next(ctx, 50*time.Millisecond); err == nil {
		var resp Response
		if json.Unmarshal(line, &resp) == nil && resp.ID == lastID && lastID != "" {
			rep.Broken = fmt.Sprintf("case %s answered twice", lastID)
		} else {
			rep.Broken = fmt.Sprintf("unexpected output after the last case: %s", clip(line))
		}
	}
	return rep
}

// harnessHello is the first line the harness writes.
func harnessHello() Hello {
	return Hello{Type: "hello", Protocol: ProtocolVersion, Areas: Areas, Domains: []string{DomainAll, DomainSpec}}
}

// request is the line the harness writes for case c.
func (c Case) request() Request {
	input := c.Input
	if input == nil {
		input = map[string]any{}
	}
	return Request{ID: c.ID, Area: c.Area, Function: c.Function, Input: input}
}

// answerID digs the id out of a line that is not valid JSON, if it is
// plainly there, so that an answer to another case is not taken for a
// malformed answer to this one.
func answerID(line []byte) string {
	_, after, ok := bytes.Cut(line, []byte(`"id":"`))
	if !ok {
		return ""
	}
	id, _, ok := bytes.Cut(after, []byte(`"`))
	if !ok {
		return ""
	}
	return string(id)
}

func describe(err error, timeout time.Duration) string {
	switch {
	case errors.Is(err, errTimeout):
		return fmt.Sprintf("nothing within %v", timeout)
	case errors.Is(err, errEOF):
		return "the adapter closed its output"
	case errors.Is(err, errDeadline):
		return "stopped"
	case errors.Is(err, context.Canceled):
		return "stopped"
	}
	return err.Error()
}

// clip quotes at most 200 bytes of an adapter's line, escaped.
func clip(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		return Quote(s[:200]) + "…"
	}
	return Quote(s)
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = Quote(x)
	}
	return strings.Join(q, ", ")
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "no area"
	}
	return strings.Join(xs, ", ")
}
