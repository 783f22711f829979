package reconnect

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// FuzzPreferenceText: any input either decodes to a preference that
// encodes back to the same text, or fails with a *FieldError; nothing
// panics.
func FuzzPreferenceText(f *testing.F) {
	for _, s := range []string{"", "v1 http 1767225600000 connected", "v1 websocket 0 websocket-unstable", "v1 http -1 connected", "comet", "v1 http 1 x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var p Preference
		err := p.UnmarshalText([]byte(s))
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("UnmarshalText(%q) = %v, not a *FieldError", s, err)
			}
			return
		}
		b, err := p.MarshalText()
		if err != nil {
			t.Fatalf("MarshalText of decoded %q: %v", s, err)
		}
		var q Preference
		if err := q.UnmarshalText(b); err != nil || q != p {
			t.Fatalf("round trip of %q: %q decodes to %+v, %v; want %+v", s, b, q, err, p)
		}
	})
}

func TestPreferenceMarshalRejects(t *testing.T) {
	for _, p := range []Preference{
		{Transport: TransportKind(9), Reason: PreferenceConnected},
		{Transport: HTTP},
		{Transport: HTTP, Reason: PreferenceConnected, At: time.Unix(-1, 0)},
	} {
		var fe *FieldError
		if _, err := p.MarshalText(); !errors.As(err, &fe) {
			t.Errorf("MarshalText(%+v) = %v, want a *FieldError", p, err)
		}
	}
	if s := PreferenceReason(7).String(); s != "PreferenceReason(7)" {
		t.Errorf("String = %q", s)
	}
	if s := PreferenceEvent(9).String(); s != "PreferenceEvent(9)" {
		t.Errorf("String = %q", s)
	}
	if p := (Preference{Transport: HTTP}).Apply(PreferenceEvent(0), HTTP, time.Time{}); p.Transport != HTTP {
		t.Errorf("an unknown event changed the preference: %+v", p)
	}
}

// A client behind a proxy that swallows websockets connected over HTTP;
// the SDK persists the preference, and the next process starts on HTTP
// while it checks the websocket in the background.
func ExamplePreference() {
	t0 := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	var p Preference
	p = p.Apply(PreferenceEventConnected, HTTP, t0)
	saved, _ := p.MarshalText()
	fmt.Printf("persisted %q\n", saved)

	var restored Preference
	_ = restored.UnmarshalText(saved)
	start := restored.Start(t0.Add(time.Hour), DefaultPreferenceTTL, Availability{WebSocket: true, HTTP: true})
	fmt.Println("next start:", start.Transport, "check websocket:", start.CheckWebSocket)

	restored = restored.Apply(PreferenceEventWebSocketCheckPassed, NoTransport, t0.Add(time.Hour))
	fmt.Println("after the check passed:", restored.Current(t0.Add(time.Hour), 0))
	// Output:
	// persisted "v1 http 1767258000000 connected"
	// next start: http check websocket: true
	// after the check passed: none
}
