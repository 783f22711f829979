package conform

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// protocolDoc is the "Conformance protocol" section of fixtures/README.md.
func protocolDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../fixtures/README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, doc, ok := strings.Cut(string(b), "## Conformance protocol")
	if !ok {
		t.Fatal(`no "Conformance protocol" section`)
	}
	return doc
}

// TestProtocolDocumentExamples pins the protocol text to the harness: the
// lines it says the harness writes are the lines it writes, and the
// answers it shows pass their cases.
func TestProtocolDocumentExamples(t *testing.T) {
	doc := protocolDoc(t)
	s := suite(t)
	byID := map[string]Case{}
	for _, c := range s.Cases {
		byID[c.ID] = c
	}
	hello, _ := json.Marshal(harnessHello())
	if !strings.Contains(doc, "`"+string(hello)+"`") {
		t.Errorf("the document does not show the hello the harness writes, %s", hello)
	}
	spans := regexp.MustCompile("`(\\{\"[^`]*\\})`").FindAllStringSubmatch(doc, -1)
	hellos, requests, answers := 0, 0, 0
	for _, m := range spans {
		line := m[1]
		var probe map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &probe); err != nil {
			continue // a shape such as {"transport","atMs","reason"}
		}
		switch {
		case probe["areas"] != nil:
			// The harness's own hello, checked above.
		case probe["type"] != nil:
			hellos++
			var r Response
			if err := json.Unmarshal([]byte(line), &r); err != nil || r.Type != "hello" {
				t.Errorf("the hello answer %s: %v", line, err)
			}
			if bad := unknownKeys([]byte(line), helloKeys); len(bad) > 0 || r.Protocol != ProtocolVersion {
				t.Errorf("the hello answer %s: unknown keys %v", line, bad)
			}
		case probe["function"] != nil:
			requests++
			var req Request
			_ = json.Unmarshal([]byte(line), &req)
			c, ok := byID[req.ID]
			if !ok {
				t.Errorf("request %s: no case %q", line, req.ID)
				continue
			}
			if got, _ := json.Marshal(c.request()); string(got) != line {
				t.Errorf("the document shows the request\n  %s\nthe harness writes\n  %s", line, got)
			}
		case probe["id"] != nil:
			answers++
			var resp Response
			if err := json.Unmarshal([]byte(line), &resp); err != nil {
				t.Errorf("answer %s: %v", line, err)
				continue
			}
			c, ok := byID[resp.ID]
			if !ok {
				t.Errorf("answer %s: no case %q", line, resp.ID)
				continue
			}
			if bad := unknownKeys([]byte(line), answerKeys); len(bad) > 0 {
				t.Errorf("answer %s: unknown keys %v", line, bad)
			}
			_, exact := resp.Result["delayNs"]
			if ms := check(withExactNs(c, exact, resp.Result), resp, s.Tolerance); len(ms) > 0 {
				t.Errorf("the document's answer %s fails its case: %+v", line, ms)
			}
		}
	}
	if hellos < 1 || requests < 2 || answers < 4 {
		t.Errorf("found %d hello answers, %d requests and %d answers in the document, want at least 1, 2 and 4", hellos, requests, answers)
	}
}
