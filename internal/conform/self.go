package conform

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/reconnect-go/reconnect"
)

// Self is the Go implementation's adapter: it answers every area through
// the reconnect package.
type Self struct{}

// Name is the adapter name Self reports in its hello.
const selfName = "reconnect-go (self)"

// Handler answers one request: the adapter side of the protocol.
type Handler func(Request) Response

// Serve answers requests read from r on w with h, one JSON line each, until
// r ends. Non-finite numbers in a result are written as "NaN",
// "Infinity" or "-Infinity".
func Serve(h Handler, r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	enc := json.NewEncoder(w)
	for sc.Scan() {
		var req Request
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			return err
		}
		resp := h(req)
		for k, v := range resp.Result {
			if f, ok := v.(float64); ok {
				resp.Result[k] = wireNumber(f) // NaN and ±Inf as the protocol spells them
			}
		}
		if err := enc.Encode(resp); err != nil {
			return err
		}
	}
	return sc.Err()
}

// Handle answers one request.
func (Self) Handle(req Request) Response {
	if req.Type == "hello" {
		return Response{Type: "hello", Protocol: ProtocolVersion, Implements: Areas, Name: selfName, ExactNs: true}
	}
	res, err := answer(req)
	if err != nil {
		ae := &AnswerError{Message: err.Error()}
		var fe *reconnect.FieldError
		if errors.As(err, &fe) {
			ae.Field = ProtocolField(fe.Field)
		}
		return Response{ID: req.ID, Error: ae}
	}
	return Response{ID: req.ID, Result: res}
}

// The input shapes of the functions.
type fnInput struct {
	Attempt            *float64   `json:"attempt"`
	U                  any        `json:"u"`
	InitialMs          float64    `json:"initialMs"`
	Candidate          string     `json:"candidate"`
	Mode               string     `json:"mode"`
	Pending            string     `json:"pending"`
	Active             string     `json:"active"`
	Activated          string     `json:"activated"`
	WebSocketAvailable bool       `json:"webSocketAvailable"`
	HTTPAvailable      bool       `json:"httpAvailable"`
	HTTPStarted        bool       `json:"httpStarted"`
	ShortCircuitMs     float64    `json:"shortCircuitMs"`
	Endpoint           string     `json:"endpoint"`
	Environment        string     `json:"environment"`
	RestHost           string     `json:"restHost"`
	RealtimeHost       string     `json:"realtimeHost"`
	UseDefault         bool       `json:"fallbackHostsUseDefault"`
	FallbackHosts      *[]string  `json:"fallbackHosts"`
	FailureKind        string     `json:"failureKind"`
	Status             int        `json:"status"`
	Server             string     `json:"server"`
	Body               string     `json:"body"`
	Primary            string     `json:"primary"`
	Fallbacks          []string   `json:"fallbacks"`
	MaxFallbacks       int        `json:"maxFallbacks"`
	Draws              []any      `json:"draws"` // numbers or "NaN", "Infinity", "-Infinity"
	Steps              []hostStep `json:"steps"`

	// Ably is resolveHosts' preset: absent or true is Ably's rules
	// (REC1/REC2), false the service's own hosts.
	Ably *bool `json:"ably"`
}

type hostStep struct {
	AtMs        int64  `json:"atMs"`
	Op          string `json:"op"`
	Host        string `json:"host"`
	TTLMs       int64  `json:"ttlMs"`
	FailureKind string `json:"failureKind"`
	Status      int    `json:"status"`
}

// msDuration converts milliseconds to a Duration, exactly for whole
// milliseconds.
func msDuration(ms float64) time.Duration {
	if ms == math.Trunc(ms) && math.Abs(ms) < math.MaxInt64/1e6 {
		return time.Duration(int64(ms)) * time.Millisecond
	}
	return time.Duration(math.Round(ms * 1e6))
}

func durationMs(d time.Duration) float64 {
	return float64(d/time.Millisecond) + float64(d%time.Millisecond)/1e6
}

// durationNs is a duration as the protocol's exact-nanosecond results
// spell it: a decimal string.
func durationNs(d time.Duration) string {
	return strconv.FormatInt(int64(d), 10)
}

var (
	transports = map[string]reconnect.TransportKind{"none": reconnect.NoTransport, "websocket": reconnect.WebSocket, "http": reconnect.HTTP}
	modes      = map[string]reconnect.Mode{"clean": reconnect.ModeClean, "resume": reconnect.ModeResume, "recover": reconnect.ModeRecover, "upgrade": reconnect.ModeUpgrade}
)

func answer(req Request) (map[string]any, error) {
	if req.Function == "preference" || req.Function == "preferenceDecode" {
		return answerPreference(req)
	}
	if isRetryFunction(req.Function) {
		return answerRetry(req)
	}
	if req.Function == "scenario" {
		var in ScenarioInput
		if err := decode(req.Input, &in); err != nil {
			return nil, err
		}
		steps, err := RunScenario(in)
		if err != nil {
			return nil, err
		}
		return map[string]any{"steps": steps}, nil
	}
	var in fnInput
	if err := decode(req.Input, &in); err != nil {
		return nil, err
	}
	attempt := 0
	if in.Attempt != nil {
		attempt = int(math.Max(math.Min(*in.Attempt, math.MaxInt64/2), math.MinInt64/2))
	}
	switch req.Function {
	case "backoffCoefficient":
		return map[string]any{"coefficient": reconnect.BackoffCoefficient(attempt)}, nil
	case "jitterCoefficient":
		u, err := number(in.U)
		if err != nil {
			return nil, err
		}
		return map[string]any{"jitter": reconnect.JitterCoefficient(u)}, nil
	case "retryDelay":
		u, err := number(in.U)
		if err != nil {
			return nil, err
		}
		d := reconnect.RetryDelay(msDuration(in.InitialMs), attempt, u)
		return map[string]any{"delayMs": durationMs(d), "delayNs": durationNs(d)}, nil
	case "retryBounds":
		lo, hi := reconnect.RetryBounds(msDuration(in.InitialMs), attempt)
		return map[string]any{"lowerMs": durationMs(lo), "upperMs": durationMs(hi), "lowerNs": durationNs(lo), "upperNs": durationNs(hi)}, nil
	case "decidePending":
		d, rule := reconnect.DecidePending(transports[in.Candidate], modes[in.Mode], transports[in.Pending], transports[in.Active])
		return map[string]any{"decision": d.String(), "rule": rule}, nil
	case "chooseTransport":
		st := reconnect.ChooseTransport(reconnect.Availability{WebSocket: in.WebSocketAvailable, HTTP: in.HTTPAvailable}, msDuration(in.ShortCircuitMs))
		return map[string]any{"transport": st.Transport.String(), "shortCircuitMs": durationMs(st.ShortCircuit)}, nil
	case "httpOnWebSocketFailure", "httpOnShortCircuit":
		st := reconnect.TransportState{HTTPAvailable: in.HTTPAvailable, HTTPStarted: in.HTTPStarted, Pending: transports[in.Pending], Active: transports[in.Active]}
		f := reconnect.HTTPOnWebSocketFailure
		if req.Function == "httpOnShortCircuit" {
			f = reconnect.HTTPOnShortCircuit
		}
		return map[string]any{"startHttp": f(st)}, nil
	case "upgradeAfterActivation":
		t, m := reconnect.UpgradeAfterActivation(transports[in.Activated], reconnect.Availability{WebSocket: in.WebSocketAvailable, HTTP: true})
		return map[string]any{"transport": t.String(), "mode": m.String()}, nil
	case "resolveHosts":
		o := reconnect.EndpointOptions{Endpoint: in.Endpoint, Environment: in.Environment, Ably: in.Ably == nil || *in.Ably,
			RestHost: in.RestHost, RealtimeHost: in.RealtimeHost, FallbackHostsUseDefault: in.UseDefault}
		if in.FallbackHosts != nil {
			o.FallbackHosts = append([]string{}, *in.FallbackHosts...)
		}
		h, err := reconnect.ResolveHosts(o)
		if err != nil {
			return nil, err
		}
		return map[string]any{"primary": h.Primary, "fallbacks": h.Fallbacks}, nil
	case "shouldFallback":
		k, ok := FailureKinds[in.FailureKind]
		if !ok {
			return nil, fmt.Errorf("unknown failure kind %q", in.FailureKind)
		}
		return map[string]any{"fallback": reconnect.ShouldFallback(reconnect.Failure{Kind: k, Status: in.Status, Server: in.Server})}, nil
	case "connectivityUp":
		return map[string]any{"up": reconnect.ConnectivityUp(in.Status, []byte(in.Body))}, nil
	case "hostOrder":
		draws := make([]float64, len(in.Draws))
		for i, d := range in.Draws {
			u, err := number(d)
			if err != nil {
				return nil, fmt.Errorf("draws[%d]: %w", i, err)
			}
			draws[i] = u
		}
		src := &pinnedDraws{draws: draws}
		return map[string]any{"order": reconnect.AppendHostOrder(nil, reconnect.Hosts{Primary: in.Primary, Fallbacks: in.Fallbacks}, in.MaxFallbacks, src)}, nil
	case "preferredHost":
		var p reconnect.PreferredHost
		first := []string{}
		for _, st := range in.Steps {
			at := scenarioEpoch.Add(time.Duration(st.AtMs) * time.Millisecond)
			switch st.Op {
			case "fallbackSucceeded":
				p.FallbackSucceeded(st.Host, at, time.Duration(st.TTLMs)*time.Millisecond)
			case "failed":
				p.Failed(st.Host, reconnect.Failure{Kind: FailureKinds[st.FailureKind], Status: st.Status})
			case "first":
				first = append(first, p.First(in.Primary, at))
			default:
				return nil, fmt.Errorf("unknown op %q", st.Op)
			}
		}
		return map[string]any{"first": first}, nil
	}
	return nil, fmt.Errorf("unknown function %q", req.Function)
}
