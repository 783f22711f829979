package conform

import (
	"errors"
	"fmt"
	"time"

	"github.com/reconnect-go/reconnect"
)

// The transport preference area (fixtures/preference.json): "preference"
// replays apply and start steps on a Preference; "preferenceDecode" decodes
// a persisted text and encodes it again.

type prefValue struct {
	Transport string `json:"transport"`
	AtMs      int64  `json:"atMs"`
	Reason    string `json:"reason"`
}

type prefInput struct {
	TTLMs int64     `json:"ttlMs"`
	Start prefValue `json:"start"`
	Steps []struct {
		Op        string `json:"op"`
		Event     string `json:"event"`
		Transport string `json:"transport"`
		AtMs      int64  `json:"atMs"`
		NowMs     int64  `json:"nowMs"`
		WebSocket bool   `json:"websocket"`
		HTTP      bool   `json:"http"`
	} `json:"steps"`
	Text string `json:"text"`
}

var prefTransports = map[string]reconnect.TransportKind{"none": reconnect.NoTransport, "websocket": reconnect.WebSocket, "http": reconnect.HTTP}

var prefReasons = map[string]reconnect.PreferenceReason{"connected": reconnect.PreferenceConnected, "websocket-unstable": reconnect.PreferenceWebSocketUnstable}

var prefEvents = map[string]reconnect.PreferenceEvent{
	"connected": reconnect.PreferenceEventConnected, "websocket-unstable": reconnect.PreferenceEventWebSocketUnstable,
	"attempt-failed": reconnect.PreferenceEventAttemptFailed, "websocket-check-passed": reconnect.PreferenceEventWebSocketCheckPassed,
	"server-fallback": reconnect.PreferenceEventServerFallback,
}

func (v prefValue) preference() (reconnect.Preference, error) {
	t, ok := prefTransports[v.Transport]
	if !ok {
		return reconnect.Preference{}, fmt.Errorf("unknown transport %q", v.Transport)
	}
	if t == reconnect.NoTransport {
		return reconnect.Preference{}, nil
	}
	return reconnect.Preference{Transport: t, At: time.UnixMilli(v.AtMs).UTC(), Reason: prefReasons[v.Reason]}, nil
}

func prefResult(p reconnect.Preference) map[string]any {
	if p.Transport == reconnect.NoTransport {
		return map[string]any{"transport": "none"}
	}
	return map[string]any{"transport": p.Transport.String(), "atMs": p.At.UnixMilli(), "reason": p.Reason.String()}
}

func answerPreference(req Request) (map[string]any, error) {
	var in prefInput
	if err := decode(req.Input, &in); err != nil {
		return nil, err
	}
	if req.Function == "preferenceDecode" {
		var p reconnect.Preference
		if err := p.UnmarshalText([]byte(in.Text)); err != nil {
			var fe *reconnect.FieldError
			if errors.As(err, &fe) {
				return map[string]any{"errorField": fe.Field}, nil
			}
			return nil, err
		}
		b, err := p.MarshalText()
		if err != nil {
			return nil, err
		}
		return map[string]any{"preference": prefResult(p), "encoded": string(b)}, nil
	}
	p, err := in.Start.preference()
	if err != nil {
		return nil, err
	}
	ttl := time.Duration(in.TTLMs) * time.Millisecond
	results := make([]any, 0, len(in.Steps))
	for i, st := range in.Steps {
		switch st.Op {
		case "apply":
			ev, ok := prefEvents[st.Event]
			t, ok2 := prefTransports[st.Transport]
			if !ok || !ok2 {
				return nil, fmt.Errorf("step %d: unknown event %q or transport %q", i, st.Event, st.Transport)
			}
			p = p.Apply(ev, t, time.UnixMilli(st.AtMs).UTC())
			results = append(results, prefResult(p))
		case "start":
			s := p.Start(time.UnixMilli(st.NowMs).UTC(), ttl, reconnect.Availability{WebSocket: st.WebSocket, HTTP: st.HTTP})
			results = append(results, map[string]any{"transport": s.Transport.String(), "checkWebSocket": s.CheckWebSocket})
		default:
			return nil, fmt.Errorf("step %d: unknown op %q", i, st.Op)
		}
	}
	return map[string]any{"results": results}, nil
}
