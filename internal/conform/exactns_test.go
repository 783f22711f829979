//go:build unix

package conform

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
)

// withoutExactNs is Self as an adapter that neither declares nor answers
// the exact-nanosecond results.
func withoutExactNs(h Handler) Handler {
	return func(req Request) Response {
		resp := h(req)
		resp.ExactNs = false
		for _, k := range []string{"delayNs", "lowerNs", "upperNs"} {
			delete(resp.Result, k)
		}
		return resp
	}
}

func failedIDs(rep Report) []string {
	var ids []string
	for _, f := range rep.Failures {
		ids = append(ids, f.ID)
	}
	return ids
}

func TestAResultKeyTheCaseDoesNotHaveFailsItNamingTheKey(t *testing.T) {
	h := mutate(func(req Request, resp *Response) {
		if req.Function == "retryDelay" {
			resp.Result["delayMicros"] = 1.0
		}
	})
	rep := run(t, h, Options{Only: []string{AreaRTB1}})
	if rep.Failed == 0 || rep.Passed == 0 {
		t.Fatalf("%s", rep.Summary())
	}
	for _, f := range rep.Failures {
		if f.Function != "retryDelay" || len(f.Mismatches) != 1 {
			t.Fatalf("%s: %+v", f.ID, f.Mismatches)
		}
		m := f.Mismatches[0]
		if m.Key != "delayMicros" || m.Problem != "not a result of retryDelay (its results: delayMs, delayNs)" || string(m.Actual) != "1" {
			t.Fatalf("%s: %+v", f.ID, m)
		}
	}
	var b strings.Builder
	rep.WriteText(&b)
	if !strings.Contains(b.String(), "delayMicros: not a result of retryDelay") {
		t.Errorf("the text report does not name the key:\n%s", b.String())
	}

	// The same through a real process (the fake adapter's third answer).
	rep = hostile(t, "extra-key", self(t), roomy, 0)
	if rep.Failed != 1 || rep.Broken != "" || rep.Failures[0].Mismatches[0].Key != "surprise" {
		t.Fatalf("%s, broken %q, %+v", rep.Summary(), rep.Broken, rep.Failures)
	}
}

// An adapter that does not declare exactNs but answers delayNs is checked
// on what it answers: a wrong delayNs fails, a right one passes.
func TestUndeclaredExactNsAnswersAreStillChecked(t *testing.T) {
	undeclared := func(h Handler) Handler {
		return withHello(h, func(r *Response) { r.ExactNs = false })
	}
	rep := run(t, undeclared(Self{}.Handle), Options{Only: []string{AreaRTB1}})
	if rep.ExitCode() != ExitPass || rep.ExactNs {
		t.Fatalf("right answers: %s, exactNs %v", rep.Summary(), rep.ExactNs)
	}
	wrong := mutate(func(req Request, resp *Response) {
		if req.Function == "retryDelay" && req.ID == "rtb1-delay-i15000-n2-u0.5" {
			resp.Result["delayNs"] = "18000000001"
		}
	})
	rep = run(t, undeclared(wrong), Options{Only: []string{AreaRTB1}})
	if rep.Failed != 1 || rep.Failures[0].Mismatches[0].Key != "delayNs" || rep.Failures[0].Mismatches[0].Problem != "differs (exact nanoseconds, compared as strings)" {
		t.Fatalf("%s: %+v", rep.Summary(), rep.Failures)
	}
	// Neither declared nor answered: nothing asked, every case passes.
	rep = run(t, withoutExactNs(Self{}.Handle), Options{Only: []string{AreaRTB1}})
	if rep.ExitCode() != ExitPass {
		t.Fatalf("%s", rep.Summary())
	}
}

func TestDeclaredExactNsMustBeAnsweredAsStrings(t *testing.T) {
	for _, c := range []struct {
		name    string
		f       func(resp *Response)
		problem string
	}{
		{"missing", func(resp *Response) { delete(resp.Result, "delayNs") }, "missing from the result"},
		{"a number", func(resp *Response) {
			n, _ := strconv.ParseFloat(resp.Result["delayNs"].(string), 64)
			resp.Result["delayNs"] = n
		}, "want a decimal string of whole nanoseconds"},
		{"leading zero", func(resp *Response) { resp.Result["delayNs"] = "0" + resp.Result["delayNs"].(string) }, "differs (exact nanoseconds, compared as strings)"},
	} {
		h := mutate(func(req Request, resp *Response) {
			if req.Function == "retryDelay" {
				c.f(resp)
			}
		})
		rep := run(t, h, Options{Only: []string{AreaRTB1}})
		if !rep.ExactNs || rep.Failed == 0 {
			t.Fatalf("%s: %s", c.name, rep.Summary())
		}
		for _, f := range rep.Failures {
			if f.Function != "retryDelay" || f.Mismatches[0].Key != "delayNs" || f.Mismatches[0].Problem != c.problem {
				t.Fatalf("%s: %s %+v", c.name, f.ID, f.Mismatches)
			}
			if _, ok := f.Expected["delayNs"]; !ok {
				t.Fatalf("%s: the report's expectation lacks delayNs: %v", c.name, f.Expected)
			}
		}
	}
}

// roundingMutation answers delayNs from the spec's float64 product rounded
// by round instead of halves away from zero.
func roundingMutation(round func(float64) float64) Handler {
	return mutate(func(req Request, resp *Response) {
		if req.Function != "retryDelay" {
			return
		}
		d := reconnect.RetryDelay(msDuration(inputNumber(req, "initialMs")), int(inputNumber(req, "attempt")), inputNumber(req, "u"))
		if d <= 0 || d == math.MaxInt64 {
			return
		}
		initial := float64(msDuration(inputNumber(req, "initialMs")))
		x := float64(initial*reconnect.BackoffCoefficient(int(inputNumber(req, "attempt")))) * reconnect.JitterCoefficient(inputNumber(req, "u"))
		r := time.Duration(round(x))
		resp.Result["delayNs"] = strconv.FormatInt(int64(r), 10)
		resp.Result["delayMs"] = durationMs(r)
	})
}

// Rounding halves to even, or as floor(x + 0.5), is 1 ns off: within the
// millisecond tolerance (except where the float64 difference of two
// millisecond values comes out a hair above 1e-6). The exact nanoseconds
// catch each in every such case, at least two, at the ties and above
// 2^52 ns.
func TestExactNsCatchesTheWrongRoundings(t *testing.T) {
	for _, c := range []struct {
		name   string
		round  func(float64) float64
		prefix string
	}{
		{"halves to even", math.RoundToEven, "rtb1-tie-"},
		{"floor(x + 0.5)", func(x float64) float64 { return math.Floor(x + 0.5) }, "rtb1-2^52-"},
	} {
		rep := run(t, roundingMutation(c.round), Options{Only: []string{AreaRTB1}})
		ids := failedIDs(rep)
		if rep.Failed < 2 || !slices.ContainsFunc(ids, func(id string) bool { return strings.HasPrefix(id, c.prefix) }) {
			t.Errorf("%s: caught by %v", c.name, ids)
		}
		for _, f := range rep.Failures {
			if !slices.ContainsFunc(f.Mismatches, func(m Mismatch) bool { return m.Key == "delayNs" }) {
				t.Errorf("%s: %s: %+v", c.name, f.ID, f.Mismatches)
			}
		}
		without := run(t, withoutExactNs(roundingMutation(c.round)), Options{Only: []string{AreaRTB1}})
		t.Logf("%s: caught by %d cases with exact nanoseconds, %d without", c.name, rep.Failed, without.Failed)
		if without.Failed >= rep.Failed {
			t.Errorf("%s: %d failures without exactNs, %d with", c.name, without.Failed, rep.Failed)
		}
	}
}

func TestMaxFailuresStopsTheRunWithAPartialReport(t *testing.T) {
	truncated := rtb1Mutation(specCoef, specJitter, math.Floor)
	all := run(t, withoutExactNs(truncated), Options{Only: []string{AreaRTB1}})
	if all.Failed < 20 {
		t.Fatalf("the mutation fails only %d cases", all.Failed)
	}
	rep := run(t, withoutExactNs(truncated), Options{Only: []string{AreaRTB1}, MaxFailures: 3})
	if rep.Failed != 3 || rep.NotRun == 0 || rep.ExitCode() != ExitFail || rep.Stopped != "after 3 failed cases (--max-failures 3)" {
		t.Fatalf("%s, stopped %q, exit %d", rep.Summary(), rep.Stopped, rep.ExitCode())
	}
	if rep.Passed+rep.Failed+rep.NotRun != all.Passed+all.Failed {
		t.Errorf("partial %s does not add up to the full %s", rep.Summary(), all.Summary())
	}
	// Known differences do not count towards the limit.
	known := &Known{}
	for _, id := range failedIDs(all)[:5] {
		known.Differences = append(known.Differences, KnownDifference{Case: id, Why: "test"})
	}
	rep = run(t, withoutExactNs(truncated), Options{Only: []string{AreaRTB1}, MaxFailures: 3, Known: known})
	if rep.Failed != 3 || len(rep.Known) != 5 || rep.Stopped == "" {
		t.Fatalf("with 5 known: %s, %d known, stopped %q", rep.Summary(), len(rep.Known), rep.Stopped)
	}
	// A limit the run never reaches changes nothing.
	rep = run(t, withoutExactNs(truncated), Options{Only: []string{AreaRTB1}, MaxFailures: all.Failed + 1})
	if rep.Failed != all.Failed || rep.Stopped != "" || rep.NotRun != 0 {
		t.Fatalf("%s, stopped %q", rep.Summary(), rep.Stopped)
	}
}

func TestManyFailuresPutTheSummaryFirstToo(t *testing.T) {
	for _, c := range []struct {
		max   int
		first bool
	}{{summaryFirstAt - 1, false}, {summaryFirstAt, true}} {
		rep := RunHandler(context.Background(), suite(t), withoutExactNs(rtb1Mutation(specCoef, specJitter, math.Floor)), Options{Only: []string{AreaRTB1}, MaxFailures: c.max})
		var b strings.Builder
		rep.WriteText(&b)
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		first := len(lines) > 2 && lines[2] == rep.Summary()
		if first != c.first || lines[len(lines)-1] != rep.Summary() {
			t.Errorf("%d failures: summary first %v, want %v:\n%s", rep.Failed, first, c.first, b.String())
		}
	}
}
