//go:build unix

package conform

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"math"
	"slices"
	"strings"
	"testing"
)

// withHello answers the hello with h's answer changed by f.
func withHello(h Handler, f func(*Response)) Handler {
	return func(req Request) Response {
		resp := h(req)
		if req.Type == "hello" {
			f(&resp)
		}
		return resp
	}
}

func run(t *testing.T, h Handler, opt Options) Report {
	t.Helper()
	return RunHandler(context.Background(), suite(t), h, opt)
}

func TestNothingRunIsAFailure(t *testing.T) {
	rep := run(t, withHello(Self{}.Handle, func(r *Response) { r.Implements = []string{} }), Options{})
	if rep.ExitCode() != ExitFail || rep.Passed != 0 || rep.NotImplemented == 0 || !strings.Contains(rep.verdict(), "no case ran") {
		t.Fatalf("exit %d, %s, %s", rep.ExitCode(), rep.verdict(), rep.Summary())
	}
}

// TestARequiredAreaWithNoCaseRunIsAFailure: an adapter that implements a
// required area but answers none of its cases (here none selected) fails
// the run, even when every case that ran passed.
func TestARequiredAreaWithNoCaseRunIsAFailure(t *testing.T) {
	rep := run(t, Self{}.Handle, Options{Only: []string{AreaRTB1}, Require: []string{AreaRTB1, AreaRetry}})
	if rep.ExitCode() != ExitFail || rep.Failed != 0 || rep.Passed == 0 || !slices.Equal(rep.Empty, []string{AreaRetry}) ||
		!strings.Contains(rep.verdict(), "required areas in which no case ran: retry") {
		t.Fatalf("exit %d, empty %v, %s, %s", rep.ExitCode(), rep.Empty, rep.verdict(), rep.Summary())
	}
	rep = run(t, Self{}.Handle, Options{Only: []string{AreaRetry}, Require: []string{AreaRetry}})
	if rep.ExitCode() != ExitPass || rep.Empty != nil || rep.Passed < 1000 {
		t.Fatalf("exit %d, empty %v, %s", rep.ExitCode(), rep.Empty, rep.Summary())
	}
}

func TestUnknownAreasKeysAndDomainsAreProtocolErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		h    Handler
		want string
	}{
		{"area", withHello(Self{}.Handle, func(r *Response) { r.Implements = []string{"RTB1"} }), `unknown area "RTB1"`},
		{"domain", withHello(Self{}.Handle, func(r *Response) { r.Domain = "spec-only" }), `unknown domain "spec-only"`},
	} {
		rep := run(t, c.h, Options{})
		if rep.ExitCode() != ExitBroken || !strings.Contains(rep.Broken, c.want) {
			t.Errorf("%s: exit %d, Broken %q", c.name, rep.ExitCode(), rep.Broken)
		}
	}
	rep := hostile(t, "unknown-key", self(t), roomy, 0)
	if rep.ExitCode() != ExitBroken || !strings.Contains(rep.Broken, `unknown keys "implement"`) {
		t.Errorf("exit %d, Broken %q", rep.ExitCode(), rep.Broken)
	}
	// cat echoes the harness's own hello back.
	rep = hostile(t, "", []string{"cat"}, roomy, 0)
	if rep.ExitCode() != ExitBroken || !strings.Contains(rep.Broken, `unknown keys "areas", "domains"`) {
		t.Errorf("cat: exit %d, Broken %q", rep.ExitCode(), rep.Broken)
	}
}

func TestOnlyAndRequire(t *testing.T) {
	js := withHello(Self{}.Handle, func(r *Response) { r.Implements = []string{AreaRTB1, AreaTransport, AreaHosts} })
	rep := run(t, js, Options{Only: []string{AreaScenarios}})
	if rep.ExitCode() != ExitBroken || !rep.Usage || !strings.Contains(rep.Broken, "--only scenarios: the adapter does not implement it") {
		t.Fatalf("exit %d, Broken %q", rep.ExitCode(), rep.Broken)
	}
	rep = run(t, js, Options{Require: []string{AreaRTB1, AreaScenarios}})
	if rep.ExitCode() != ExitFail || len(rep.Missing) != 1 || rep.Passed == 0 || !strings.Contains(rep.verdict(), "required areas not implemented by the adapter: scenarios") {
		t.Fatalf("exit %d, %s", rep.ExitCode(), rep.verdict())
	}
	rep = run(t, js, Options{Only: []string{AreaRTB1}})
	if rep.ExitCode() != ExitPass || rep.NotSelected == 0 || rep.NotImplemented != 0 {
		t.Fatalf("exit %d, %s", rep.ExitCode(), rep.Summary())
	}
	rep = run(t, js, Options{})
	if rep.ExitCode() != ExitPass || rep.NotSelected != 0 || rep.NotImplemented == 0 {
		t.Fatalf("exit %d, %s", rep.ExitCode(), rep.Summary())
	}
}

func TestUnparsableAnswersFailTheirCaseOnly(t *testing.T) {
	for _, b := range []string{"garbage", "bare-nan"} {
		rep := hostile(t, b, self(t), roomy, 0)
		if rep.Broken != "" || rep.Failed != 1 || rep.Passed == 0 || rep.NotRun != 0 {
			t.Errorf("%s: Broken %q, %s", b, rep.Broken, rep.Summary())
			continue
		}
		if p := rep.Failures[0].Mismatches[0].Problem; !strings.HasPrefix(p, "unparsable answer: ") {
			t.Errorf("%s: problem %q", b, p)
		}
	}
}

func TestEveryMismatchIsReportedAsJSON(t *testing.T) {
	h := mutate(func(req Request, resp *Response) {
		if req.Function == "retryBounds" {
			resp.Result["lowerMs"] = "1"
			resp.Result["upperMs"] = "NaN"
		}
	})
	rep := run(t, h, Options{Only: []string{AreaRTB1}})
	if rep.Failed == 0 {
		t.Fatal("not caught")
	}
	f := rep.Failures[0]
	if len(f.Mismatches) != 2 || f.Mismatches[0].Key != "lowerMs" || string(f.Mismatches[0].Actual) != `"1"` || f.Mismatches[0].Problem != "want a number" || f.Mismatches[1].Key != "upperMs" || string(f.Mismatches[1].Actual) != `"NaN"` {
		t.Fatalf("%+v", f.Mismatches)
	}
	var b strings.Builder
	rep.WriteText(&b)
	if !strings.Contains(b.String(), `actual:   "1"`) {
		t.Fatalf("the text report does not show the string:\n%s", b.String())
	}
}

func TestExpectedErrorsMustNameTheField(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func(*AnswerError)
		want string
	}{
		{"no field", func(e *AnswerError) { e.Field = "" }, "the error names no field"},
		{"another field", func(e *AnswerError) { e.Field = "somewhere" }, "the error names another field"},
	} {
		h := func(req Request) Response {
			resp := Self{}.Handle(req)
			if resp.Error != nil {
				c.f(resp.Error)
			}
			return resp
		}
		rep := run(t, h, Options{Only: []string{AreaHosts}})
		if rep.Failed == 0 || rep.Failures[0].Mismatches[0].Problem != c.want {
			t.Errorf("%s: %s", c.name, rep.Summary())
		}
	}
	// Any error where a result is expected fails too.
	h := mutate(func(req Request, resp *Response) {
		if req.Function == "resolveHosts" {
			*resp = Response{ID: req.ID, Error: &AnswerError{Field: "endpoint", Message: "no"}}
		}
	})
	if rep := run(t, h, Options{Only: []string{AreaHosts}}); rep.Failed == 0 {
		t.Error("an error instead of a result passed")
	}
}

func TestAdapterTextIsEscaped(t *testing.T) {
	rep := hostile(t, "evil-name", self(t), roomy, 0)
	var b strings.Builder
	rep.WriteText(&b)
	out := b.String()
	if strings.Contains(out, "\x1b") || strings.Contains(out, "\u202e") || strings.Contains(out, "\n0 passed, 0 failed") {
		t.Fatalf("adapter text printed raw:\n%s", out)
	}
	if !strings.Contains(out, `adapter: "x\n0 passed, 0 failed\x1b[2K\u202e"`) {
		t.Fatalf("the name is not shown escaped:\n%s", out)
	}
}

func TestDeclaredSpecDomainListsDecisionsInsteadOfFailing(t *testing.T) {
	// An SDK that decides every totality point differently but declares
	// the spec's domain: it passes, and the report lists the decisions.
	h := withHello(rtb1Mutation(func(n float64) float64 { return math.Min((n+2)/3, 2) }, func(u float64) float64 { return 1 - 0.2*u }, func(ms float64) float64 { return ms }), func(r *Response) { r.Domain = DomainSpec })
	rep := run(t, h, Options{Only: []string{AreaRTB1}})
	if rep.OutsideDomain == 0 || len(rep.Outside) == 0 {
		t.Fatalf("%s", rep.Summary())
	}
	if rep.ExitCode() != ExitPass {
		var b strings.Builder
		rep.WriteText(&b)
		t.Fatalf("exit %d:\n%s", rep.ExitCode(), b.String())
	}
	// The same adapter declaring every domain fails those cases.
	h2 := rtb1Mutation(func(n float64) float64 { return math.Min((n+2)/3, 2) }, func(u float64) float64 { return 1 - 0.2*u }, func(ms float64) float64 { return ms })
	if rep := run(t, h2, Options{Only: []string{AreaRTB1}}); rep.Failed == 0 {
		t.Fatal("totality decisions not checked without a declared domain")
	}
}

func TestReportFormats(t *testing.T) {
	h := mutate(func(req Request, resp *Response) {
		if req.ID == "rtb1a-coefficient-n3" {
			resp.Result["coefficient"] = 1.5
		}
	})
	rep := run(t, h, Options{Only: []string{AreaRTB1}})
	var j bytes.Buffer
	if err := rep.WriteJSON(&j); err != nil {
		t.Fatal(err)
	}
	var decoded struct {
		Failed   int    `json:"failed"`
		ExitCode int    `json:"exitCode"`
		Verdict  string `json:"verdict"`
	}
	if err := json.Unmarshal(j.Bytes(), &decoded); err != nil || decoded.Failed != 1 || decoded.ExitCode != ExitFail || decoded.Verdict != "FAIL" {
		t.Fatalf("%v %+v", err, decoded)
	}
	var x bytes.Buffer
	if err := rep.WriteJUnit(&x); err != nil {
		t.Fatal(err)
	}
	var suites junitSuites
	if err := xml.Unmarshal(x.Bytes(), &suites); err != nil {
		t.Fatal(err)
	}
	if suites.Tests != rep.Passed+rep.Failed || suites.Failures != 1 || len(suites.Suites) != 1 {
		t.Fatalf("tests %d failures %d suites %d", suites.Tests, suites.Failures, len(suites.Suites))
	}
}

func TestKnownDifferences(t *testing.T) {
	h := mutate(func(req Request, resp *Response) {
		if strings.HasPrefix(req.ID, "fallback-http-status-cloudfront-400-599@") {
			resp.Result["fallback"] = false
		}
	})
	known, err := ParseKnown([]byte(`{"differences":[{"case":"fallback-http-status-cloudfront-400-599","why":"no CloudFront rule"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rep := run(t, h, Options{Only: []string{AreaHosts}, Known: &known})
	if rep.ExitCode() != ExitPass || len(rep.Known) != 200 || rep.Failed != 0 {
		t.Fatalf("exit %d, %d known, %s", rep.ExitCode(), len(rep.Known), rep.Summary())
	}
	// The same list against an adapter that does apply the rule is stale.
	rep = run(t, Self{}.Handle, Options{Only: []string{AreaHosts}, Known: &known})
	if rep.ExitCode() != ExitFail || len(rep.Stale) != 1 || !strings.Contains(rep.verdict(), "no longer differ") {
		t.Fatalf("exit %d, %s", rep.ExitCode(), rep.verdict())
	}
	for _, bad := range []string{`{}`, `{"differences":[{"case":"x"}]}`, `[`} {
		if _, err := ParseKnown([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
