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
	At        int64  `json:"at"`
	Reason    string `json:"reason"`
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
	Cases []struct {
		ID    string   `json:"id"`
		TTL   int64    `json:"ttl"`
		Start prefJSON `json:"start"`
		Steps []struct {
			Event     string   `json:"event"`
			Transport string   `json:"transport"`
			At        int64    `json:"at"`
			Expect    prefJSON `json:"expect"`
		} `json:"steps"`
		Queries []struct {
			Now       int64 `json:"now"`
			WebSocket bool  `json:"websocket"`
			HTTP      bool  `json:"http"`
			Expect    struct {
				Transport      string `json:"transport"`
				CheckWebSocket bool   `json:"checkWebSocket"`
			} `json:"expect"`
		} `json:"queries"`
	} `json:"cases"`
	Encoding []struct {
		ID         string    `json:"id"`
		Text       string    `json:"text"`
		Expect     *prefJSON `json:"expect"`
		ErrorField string    `json:"errorField"`
	} `json:"encoding"`
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

func transportNamed(t *testing.T, s string) Transport {
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
	for _, c := range f.Cases {
		t.Run(c.ID, func(t *testing.T) {
			want := norm(c.Start)
			p := c.Start.value(t)
			for i, s := range c.Steps {
				oracle := norm(oracleApply(t, f, want, s.Event, s.Transport, s.At))
				if exp := norm(s.Expect); exp != oracle {
					t.Fatalf("step %d: the expectation %+v disagrees with the rules %+v", i, exp, oracle)
				}
				ev := PreferenceEvent(0)
				for e := PreferenceEventConnected; e < numPreferenceEvents; e++ {
					if e.String() == s.Event {
						ev = e
					}
				}
				p = p.Apply(ev, transportNamed(t, s.Transport), time.UnixMilli(s.At).UTC())
				if got := p; got != oracle.value(t) {
					t.Fatalf("step %d: %s(%s) gives %+v, want %+v", i, s.Event, s.Transport, got, oracle)
				}
				want = oracle
				ran++
			}
			for i, q := range c.Queries {
				ot, oc := oracleStart(f, want, c.TTL, q.Now, q.WebSocket, q.HTTP)
				if ot != q.Expect.Transport || oc != q.Expect.CheckWebSocket {
					t.Fatalf("query %d: the expectation %+v disagrees with the rules (%s, %v)", i, q.Expect, ot, oc)
				}
				got := p.Start(time.UnixMilli(q.Now).UTC(), time.Duration(c.TTL)*time.Millisecond, Availability{WebSocket: q.WebSocket, HTTP: q.HTTP})
				if got.Transport.String() != ot || got.CheckWebSocket != oc {
					t.Fatalf("query %d: Start gives %+v, want %s check=%v", i, got, ot, oc)
				}
				ran++
			}
		})
	}
	for _, e := range f.Encoding {
		t.Run("encoding-"+e.ID, func(t *testing.T) {
			var p Preference
			err := p.UnmarshalText([]byte(e.Text))
			if e.Expect == nil {
				var fe *FieldError
				if !errors.As(err, &fe) || fe.Field != e.ErrorField {
					t.Fatalf("UnmarshalText(%q) = %v, want a *FieldError for %s", e.Text, err, e.ErrorField)
				}
				return
			}
			if err != nil {
				t.Fatalf("UnmarshalText(%q): %v", e.Text, err)
			}
			if want := norm(*e.Expect).value(t); p != want {
				t.Fatalf("UnmarshalText(%q) = %+v, want %+v", e.Text, p, want)
			}
			b, err := p.MarshalText()
			if err != nil || string(b) != e.Text {
				t.Fatalf("MarshalText = %q, %v; want %q", b, err, e.Text)
			}
		})
		ran++
	}
	if ran == 0 {
		t.Fatal("no preference fixture case ran")
	}
}
