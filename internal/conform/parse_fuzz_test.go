package conform

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

func FuzzParseKnown(f *testing.F) {
	f.Add(`{"differences":[{"case":"a","why":"b"}]}`)
	f.Add(`{"differences":[]}`)
	f.Fuzz(func(t *testing.T, s string) {
		k, err := ParseKnown([]byte(s))
		if err == nil && len(k.Differences) == 0 {
			t.Fatal("an empty list accepted")
		}
	})
}

// FuzzAnswerLine feeds one arbitrary line as the adapter's hello answer or
// as its answer to the first case: the harness must report, never panic or
// hang.
func FuzzAnswerLine(f *testing.F) {
	f.Add(`{"type":"hello","protocol":1,"implements":["rtb1"],"name":"x"}`, `{"id":"rtb1a-coefficient-n1","result":{"coefficient":1}}`)
	f.Add(`{"type":"hello","protocol":1,"implements":["rtb1"],"domain":"spec"}`, `{"id":"rtb1a-coefficient-n1","error":{"field":"x"}}`)
	f.Add(`{"type":"hello","protocol":1,"implements":["hosts"]}`, `{"id":"rtb1a-coefficient-n1","result":{"coefficient":NaN}}`)
	s := Suite{Cases: []Case{{ID: "rtb1a-coefficient-n1", Area: AreaRTB1, Function: "backoffCoefficient", Input: map[string]any{"attempt": 1.0}, Expected: map[string]any{"coefficient": 1.0}}}}
	f.Fuzz(func(t *testing.T, hello, answer string) {
		if strings.ContainsAny(hello, "\n\r") || strings.ContainsAny(answer, "\n\r") {
			return
		}
		rep := Run(context.Background(), s, io.Discard, strings.NewReader(hello+"\n"+answer+"\n"), Options{Startup: time.Second, Timeout: time.Second})
		if rep.Passed+rep.Failed+rep.NotRun+rep.NotImplemented+rep.OutsideDomain != 1 && rep.Broken == "" {
			t.Fatalf("%+v", rep)
		}
		var b strings.Builder
		rep.WriteText(&b)
		if err := rep.WriteJUnit(io.Discard); err != nil {
			t.Fatal(err)
		}
	})
}
