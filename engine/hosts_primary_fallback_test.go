package engine_test

import (
	"encoding/json"
	"testing"

	"github.com/reconnect-go/reconnect/internal/conform"
)

// A fallback host equal to the primary (REC2a2: "the set of fallback
// domains is given by the value of the fallbackHosts option"), as the UTS
// proxy tests configure one local proxy twice: the realtime walk tries it
// as a fallback like any other, after the connectivity check, on a
// transport of its own. The expected actions are written by hand from
// docs/engine.md's walk (websocket, HTTP on the primary, the check, HTTP on
// each fallback host), as 02-hosts.txt's fallback-order-through-every-step
// has them for Ably's hosts.
func TestWalkTriesAFallbackHostEqualToThePrimary(t *testing.T) {
	var in conform.ScenarioInput
	err := json.Unmarshal([]byte(`{"config":{"endpoint":"localhost","fallbackHosts":["localhost"]},"draws":[0],"steps":[
		{"atMs":0,"event":"connect"},
		{"atMs":30,"event":"failed T1 refused"},
		{"atMs":60,"event":"failed T2 refused"},
		{"atMs":100,"event":"connectivity C1 up"},
		{"atMs":130,"event":"viable T3"},
		{"atMs":160,"event":"connected T3"}]}`), &in)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"state initialized connecting connect-requested", "open T1 websocket localhost clean", "timer connect T1 at=10000", "timer short-circuit at=2000", "timer state-ttl at=120000"},
		{"cancel connect T1", "dispose T1", "cancel short-circuit", "open T2 http localhost clean", "timer connect T2 at=10030"},
		{"cancel connect T2", "dispose T2", "check C1", "timer connectivity-check at=10060"},
		{"cancel connectivity-check", "open T3 http localhost clean", "timer connect T3 at=10100"},
	}
	got, err := conform.RunScenario(in)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		if d := conform.ActionsDiff(got[i].Actions, w); d != "" {
			t.Fatalf("step %d (%s): %s\n got: %q\nwant: %q", i, in.Steps[i].Event, d, got[i].Actions, w)
		}
	}
	if s := got[len(got)-1].State; s != "connected" {
		t.Fatalf("after connected T3 on the fallback host: state %s, want connected", s)
	}
}
