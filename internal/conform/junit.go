package conform

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// ranCase is a case that was asked, for the JUnit report.
type ranCase struct {
	id, area, spec string
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML: one test suite per area, one
// test case per case asked (failures with every mismatch), the cases
// outside the declared domain as skipped, and a protocol error or a stop
// as an errored test case named "harness".
func (r Report) WriteJUnit(w io.Writer) error {
	failed := map[string]Failure{}
	for _, f := range r.Failures {
		failed[f.ID] = f
	}
	suites := map[string]*junitSuite{}
	var order []string
	suite := func(area string) *junitSuite {
		if s, ok := suites[area]; ok {
			return s
		}
		s := &junitSuite{Name: "reconnect conform " + area}
		suites[area] = s
		order = append(order, area)
		return s
	}
	for _, c := range r.ran {
		s := suite(c.area)
		jc := junitCase{Name: c.id, Classname: c.area + "." + c.spec}
		if f, ok := failed[c.id]; ok {
			var text strings.Builder
			for _, m := range f.Mismatches {
				fmt.Fprintf(&text, "%s: %s; expected %s; actual %s\n", m.Key, m.Problem, escapeJSON(m.Expected), escapeJSON(m.Actual))
			}
			jc.Failure = &junitMessage{Message: fmt.Sprintf("%d mismatches", len(f.Mismatches)), Text: text.String()}
			s.Failures++
		}
		s.Tests++
		s.Cases = append(s.Cases, jc)
	}
	for _, o := range r.outsideCases {
		s := suite(o.area)
		s.Tests++
		s.Skipped++
		s.Cases = append(s.Cases, junitCase{Name: o.id, Classname: o.area + "." + o.spec, Skipped: &junitMessage{Message: "outside the declared domain: " + o.decision}})
	}
	if v := r.verdict(); v != "PASS" && v != "FAIL" {
		s := suite("harness")
		s.Tests++
		s.Errors++
		s.Cases = append(s.Cases, junitCase{Name: "harness", Classname: "harness", Error: &junitMessage{Message: v, Text: strings.Join(r.StderrTail, "\n")}})
	}
	out := junitSuites{Name: "reconnect conform " + Quote(r.Adapter)}
	for _, a := range order {
		s := suites[a]
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Skipped += s.Skipped
		out.Suites = append(out.Suites, *s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
