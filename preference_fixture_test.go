package reconnect

import (
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"
)

type prefJSON struct {
	Transport string `json:"transport"`
	At        int64  `json:"atMs"`
	Reason    string `json:"reason"`
}

// prefStep is one step of a "preference" item: apply an event, or ask how
// the next attempt starts.
type prefStep struct {
	Op        string `json:"op"`
	Event     string `json:"event"`
	Transport string `json:"transport"`
	At        int64  `json:"atMs"`
	Now       int64  `json:"nowMs"`
	WebSocket bool   `json:"websocket"`
	HTTP      bool   `json:"http"`
}

type prefResult struct {
	prefJSON
	CheckWebSocket *bool `json:"checkWebSocket"`
}

type prefFixture struct {
	DefaultTTL int64 `json:"defaultTtl"`
	Rules      struct {
		Apply []struct{ Event, If, Then string } `json:"apply"`
		Start []struct {
			Current, Available string
			Then               struct {
				Transport      string `json:"transport"`
				CheckWebSocket any    `json:"checkWebSocket"`
			}
		} `json:"start"`
	} `json:"rules"`
	Items []struct {
		ID       string       `json:"id"`
		Function string       `json:"function"`
		TTL      int64        `json:"ttlMs"`
		Start    prefJSON     `json:"start"`
		Steps    []prefStep   `json:"steps"`
		Results  []prefResult `json:"expectedResults"`
		// preferenceDecode
		Text       string    `json:"text"`
		Expect     *prefJSON `json:"expectedPreference"`
		Encoded    string    `json:"expectedEncoded"`
		ErrorField string    `json:"expectedErrorField"`
	} `json:"items"`
}

func loadPrefFixture(t *testing.T) prefFixture {
	t.Helper()
	b, err := os.ReadFile("fixtures/preference.json")
	if err != nil {
		t.Fatal(err)
	}
	var f prefFixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

func transportNamed(t *testing.T, s string) TransportKind {
	for k := NoTransport; k <= HTTP; k++ {
		if k.String() == s {
			return k
		}
	}
	t.Fatalf("unknown transport %q", s)
	return NoTransport
}

func (p prefJSON) value(t *testing.T) Preference {
	k := transportNamed(t, p.Transport)
	if k == NoTransport {
		return Preference{}
	}
	q := Preference{Transport: k, At: time.UnixMilli(p.At).UTC()}
	for r := PreferenceConnected; r < numPreferenceReasons; r++ {
		if r.String() == p.Reason {
			q.Reason = r
		}
	}
	return q
}

// oracleApply applies the fixture's apply rules, read as data: the first
// row whose event and condition match decides.
func oracleApply(t *testing.T, f prefFixture, p prefJSON, ev, tr string, at int64) prefJSON {
	for _, r := range f.Rules.Apply {
		if r.Event != ev && r.Event != "any" {
			continue
		}
		var ok bool
		switch r.If {
		case "always":
			ok = true
		case "transport-is-websocket-or-http":
			ok = tr == "websocket" || tr == "http"
		case "transport-is-remembered":
			ok = p.Transport != "none" && tr == p.Transport
		case "remembered-is-http":
			ok = p.Transport == "http"
		default:
			t.Fatalf("unknown rule condition %q", r.If)
		}
		if !ok {
			continue
		}
		switch r.Then {
		case "remember-transport":
			return prefJSON{Transport: tr, At: at, Reason: "connected"}
		case "remember-http-unstable":
			return prefJSON{Transport: "http", At: at, Reason: "websocket-unstable"}
		case "forget":
			return prefJSON{Transport: "none"}
		case "keep":
			return p
		}
		t.Fatalf("unknown rule result %q", r.Then)
	}
	t.Fatalf("no apply rule for %s", ev)
	return p
}

// oracleStart applies the in-force rule and the start rows as data.
func oracleStart(f prefFixture, p prefJSON, ttl, now int64, ws, http bool) (string, bool) {
	if ttl == 0 {
		ttl = f.DefaultTTL
	}
	cur := p.Transport
	if cur != "websocket" && cur != "http" || now >= p.At+ttl {
		cur = "none"
	}
	avail := map[string]bool{"websocket": ws, "http": http, "any": true}
	for _, r := range f.Rules.Start {
		if (r.Current == cur || r.Current == "any") && avail[r.Available] {
			check, _ := r.Then.CheckWebSocket.(bool)
			if r.Then.CheckWebSocket == "websocket-available" {
				check = ws
			}
			return r.Then.Transport, check
		}
	}
	return "none", false
}

func norm(p prefJSON) prefJSON {
	if p.Transport == "none" || p.Transport == "" {
		return prefJSON{Transport: "none"}
	}
	return p
}

func TestPreferenceFixture(t *testing.T) {
	f := loadPrefFixture(t)
	if time.Duration(f.DefaultTTL)*time.Millisecond != DefaultPreferenceTTL {
		t.Errorf("defaultTtl %d ms, DefaultPreferenceTTL %v", f.DefaultTTL, DefaultPreferenceTTL)
	}
	ran := 0
	for _, it := range f.Items {
		t.Run(it.ID, func(t *testing.T) {
			switch it.Function {
			case "preference":
				if len(it.Results) != len(it.Steps) {
					t.Fatalf("%d steps, %d expected results", len(it.Steps), len(it.Results))
				}
				want := norm(it.Start)
				p := it.Start.value(t)
				for i, s := range it.Steps {
					exp := it.Results[i]
					if s.Op == "start" {
						ot, oc := oracleStart(f, want, it.TTL, s.Now, s.WebSocket, s.HTTP)
						if exp.Transport != ot || exp.CheckWebSocket == nil || *exp.CheckWebSocket != oc {
							t.Fatalf("step %d: the expectation %+v disagrees with the rules (%s, %v)", i, exp, ot, oc)
						}
						got := p.Start(time.UnixMilli(s.Now).UTC(), time.Duration(it.TTL)*time.Millisecond, Availability{WebSocket: s.WebSocket, HTTP: s.HTTP})
						if got.Transport.String() != ot || got.CheckWebSocket != oc {
							t.Fatalf("step %d: Start gives %+v, want %s check=%v", i, got, ot, oc)
						}
						ran++
						continue
					}
					oracle := norm(oracleApply(t, f, want, s.Event, s.Transport, s.At))
					if norm(exp.prefJSON) != oracle {
						t.Fatalf("step %d: the expectation %+v disagrees with the rules %+v", i, exp.prefJSON, oracle)
					}
					ev := PreferenceEvent(0)
					for e := PreferenceEventConnected; e < numPreferenceEvents; e++ {
						if e.String() == s.Event {
							ev = e
						}
					}
					p = p.Apply(ev, transportNamed(t, s.Transport), time.UnixMilli(s.At).UTC())
					if p != oracle.value(t) {
						t.Fatalf("step %d: %s(%s) gives %+v, want %+v", i, s.Event, s.Transport, p, oracle)
					}
					want = oracle
					ran++
				}
			case "preferenceDecode":
				var p Preference
				err := p.UnmarshalText([]byte(it.Text))
				if it.Expect == nil {
					var fe *FieldError
					if !errors.As(err, &fe) || fe.Field != it.ErrorField {
						t.Fatalf("UnmarshalText(%q) = %v, want a *FieldError for %s", it.Text, err, it.ErrorField)
					}
				} else {
					if err != nil {
						t.Fatalf("UnmarshalText(%q): %v", it.Text, err)
					}
					if want := norm(*it.Expect).value(t); p != want {
						t.Fatalf("UnmarshalText(%q) = %+v, want %+v", it.Text, p, want)
					}
					if b, err := p.MarshalText(); err != nil || string(b) != it.Encoded {
						t.Fatalf("MarshalText = %q, %v; want %q", b, err, it.Encoded)
					}
				}
				ran++
			default:
				t.Fatalf("unknown function %q", it.Function)
			}
		})
	}
	if ran == 0 {
		t.Fatal("no preference fixture case ran")
	}
}
