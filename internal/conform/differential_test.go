package conform

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// jsReference is one Node.js process running the JS reference adapter,
// shared by the differential tests of this test binary (fuzz workers each
// start their own). It exits when the test binary does, on the end of its
// input.
type jsReference struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Reader
	err error
}

var (
	jsOnce sync.Once
	js     *jsReference
)

func startJS(t testing.TB) *jsReference {
	jsOnce.Do(func() {
		js = &jsReference{}
		node, err := exec.LookPath("node")
		if err != nil {
			js.err = err
			return
		}
		cmd := exec.Command(node, "../../conformance/js/adapter.mjs")
		ownGroup(cmd)
		if js.in, err = cmd.StdinPipe(); err == nil {
			var out io.ReadCloser
			if out, err = cmd.StdoutPipe(); err == nil {
				js.out = bufio.NewReaderSize(out, 1<<20)
				err = cmd.Start()
			}
		}
		js.err = err
	})
	if js.err != nil {
		t.Skipf("no JS reference: %v", js.err)
	}
	return js
}

// ask sends one request and reads the answer.
func (j *jsReference) ask(req Request) (Response, []byte, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	b, err := json.Marshal(req)
	if err != nil {
		return Response{}, nil, err
	}
	if _, err := j.in.Write(append(b, '\n')); err != nil {
		return Response{}, nil, err
	}
	line, err := j.out.ReadBytes('\n')
	if err != nil {
		return Response{}, nil, err
	}
	var resp Response
	err = json.Unmarshal(line, &resp)
	return resp, line, err
}

// differ compares the JS reference's answer to req with the Go self
// adapter's, by the harness's own rules (the Go answer as the expectation;
// for an error, the field it names).
func differ(t testing.TB, j *jsReference, req Request) string {
	goResp := Self{}.Handle(req)
	// Round-trip through JSON, as the harness would see it.
	b, _ := json.Marshal(sanitize(goResp.Result))
	var expected map[string]any
	_ = json.Unmarshal(b, &expected)
	if goResp.Error != nil {
		expected = map[string]any{"error": map[string]any{"field": goResp.Error.Field}}
	}
	jsResp, line, err := j.ask(req)
	if err != nil {
		t.Fatalf("JS reference: %v", err)
	}
	c := Case{ID: req.ID, Function: req.Function, Input: req.Input, Expected: expected}
	if ms := check(c, jsResp, tolerance(t)); len(ms) > 0 {
		in, _ := json.Marshal(req.Input)
		return fmt.Sprintf("%s %s: Go %s, JS %s", req.Function, in, b, strings.TrimSpace(string(line)))
	}
	return ""
}

var (
	tolOnce sync.Once
	tol     Tolerance
)

func tolerance(t testing.TB) Tolerance {
	tolOnce.Do(func() { tol = suite(t).Tolerance })
	return tol
}

func sanitize(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if f, ok := v.(float64); ok {
			v = wireNumber(f)
		}
		out[k] = v
	}
	return out
}

// Pieces random host names, bodies and headers are made of: the
// characters every host decision is about.
var hostPieces = []string{
	"a", "B", "z", "0", "9", "-", "_", ".", ":", "::", "example", "com", "localhost", "nonprod:", "NonProd:", "production",
	" ", "\t", "\u00a0", "\u0085", "\u2028", "\u3000", "\u200b", "\u202e", "\ufeff", "\x00", "\x7f", "/", "@", "%", "[", "]",
	"\u00e9", "\u212a", "\u0130", "ffff", "1.2.3.4", "256", "07", "fe80", strings.Repeat("a", 62), strings.Repeat("b", 63),
}

var bodyPieces = []string{"yes", "YES", "Yes", "no", " ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u0085", "\ufeff", "\u2028", "\u3000", "\x00", "<b>"}

func randString(r *rand.Rand, pieces []string, max int) string {
	var sb strings.Builder
	for n := r.IntN(max + 1); n > 0; n-- {
		sb.WriteString(pieces[r.IntN(len(pieces))])
	}
	return sb.String()
}

func randFloat(r *rand.Rand) any {
	switch r.IntN(8) {
	case 0:
		return []any{"NaN", "Infinity", "-Infinity"}[r.IntN(3)]
	case 1:
		return r.NormFloat64() * 3
	case 2:
		return float64(r.IntN(3))
	default:
		return r.Float64()
	}
}

var (
	transportNames = []string{"none", "websocket", "http"}
	modeNames      = []string{"clean", "resume", "recover", "upgrade"}
	kindNames      = []string{"none", "other", "dns", "unreachable", "refused", "timeout", "http-status", "disconnected", "token"}
)

// randRequest makes a random request for one of the functions the JS
// reference implements.
func randRequest(r *rand.Rand, i int) Request {
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	attempt := func() float64 {
		switch r.IntN(4) {
		case 0:
			return float64(r.Int64N(1<<53) - 1<<52)
		case 1:
			return float64(r.IntN(1 << 31))
		default:
			return float64(r.IntN(12) - 2)
		}
	}
	initialMs := func() float64 {
		switch r.IntN(4) {
		case 0:
			return float64(r.Int64N(math.MaxInt64/1_000_000) - 1000)
		case 1:
			return float64(r.Int64N(1e12)) / 1e6 // whole nanoseconds
		default:
			return float64(r.IntN(100000) - 100)
		}
	}
	req := Request{ID: fmt.Sprintf("diff-%d", i), Input: map[string]any{}}
	in := req.Input
	switch fn := r.IntN(13); fn {
	case 0:
		req.Function, in["attempt"] = "backoffCoefficient", attempt()
	case 1:
		req.Function, in["u"] = "jitterCoefficient", randFloat(r)
	case 2:
		req.Function, in["initialMs"], in["attempt"], in["u"] = "retryDelay", initialMs(), attempt(), randFloat(r)
	case 3:
		req.Function, in["initialMs"], in["attempt"] = "retryBounds", initialMs(), attempt()
	case 4:
		req.Function = "decidePending"
		in["candidate"], in["mode"], in["pending"], in["active"] = pick(transportNames), pick(modeNames), pick(transportNames), pick(transportNames)
	case 5:
		req.Function = "chooseTransport"
		in["webSocketAvailable"], in["httpAvailable"], in["shortCircuitMs"] = r.IntN(2) == 0, r.IntN(2) == 0, float64(r.IntN(5000)-1000)
	case 6, 7:
		req.Function = []string{"httpOnWebSocketFailure", "httpOnShortCircuit"}[fn-6]
		in["httpAvailable"], in["httpStarted"], in["pending"], in["active"] = r.IntN(2) == 0, r.IntN(2) == 0, pick(transportNames), pick(transportNames)
	case 8:
		req.Function, in["activated"], in["webSocketAvailable"] = "upgradeAfterActivation", pick(transportNames), r.IntN(2) == 0
	case 9:
		req.Function = "resolveHosts"
		if r.IntN(3) > 0 {
			in["endpoint"] = randString(r, hostPieces, 6)
		}
		if r.IntN(4) == 0 {
			in["environment"] = randString(r, hostPieces, 3)
		}
		if r.IntN(2) == 0 {
			hosts := []any{}
			for n := r.IntN(4); n > 0; n-- {
				hosts = append(hosts, randString(r, hostPieces, 5))
			}
			in["fallbackHosts"] = hosts
		}
	case 10:
		req.Function = "shouldFallback"
		in["failureKind"], in["status"] = pick(kindNames), float64(r.IntN(800)-100)
		in["server"] = randString(r, append([]string{"CloudFront", "cloudfront", "CLOUDFRONT"}, bodyPieces...), 3)
	case 11:
		req.Function = "connectivityUp"
		in["status"], in["body"] = float64(r.IntN(700)), randString(r, bodyPieces, 4)
	case 12:
		req.Function = "hostOrder"
		n := r.IntN(7)
		fallbacks := make([]any, n)
		for k := range fallbacks {
			fallbacks[k] = fmt.Sprintf("f%d.example.com", k)
		}
		draws := make([]any, r.IntN(n+2))
		for k := range draws {
			draws[k] = randFloat(r)
		}
		in["primary"], in["fallbacks"], in["maxFallbacks"], in["draws"] = "p.example.com", fallbacks, float64(r.IntN(9)-1), draws
	}
	return req
}

// TestDifferentialGoAndJSReference feeds random inputs for every function
// the JS reference implements to it and to the Go self adapter and
// requires the same answers.
func TestDifferentialGoAndJSReference(t *testing.T) {
	j := startJS(t)
	n := 20000
	if testing.Short() {
		n = 2000
	}
	r := rand.New(rand.NewPCG(1, 2))
	bad := 0
	accepted, rejected := 0, 0
	for i := range n {
		req := randRequest(r, i)
		if req.Function == "resolveHosts" {
			if (Self{}).Handle(req).Error == nil {
				accepted++
			} else {
				rejected++
			}
		}
		if d := differ(t, j, req); d != "" {
			t.Error(d)
			if bad++; bad > 20 {
				t.Fatal("too many differences")
			}
		}
	}
	// Both sides of the host rules must be exercised.
	t.Logf("resolveHosts: %d accepted, %d rejected", accepted, rejected)
	if accepted*10 < accepted+rejected || rejected*10 < accepted+rejected {
		t.Errorf("resolveHosts: %d accepted, %d rejected; want at least a tenth each", accepted, rejected)
	}
}

// FuzzDifferentialGoAndJSReference is the same comparison, steered by the
// fuzzer's seed.
func FuzzDifferentialGoAndJSReference(f *testing.F) {
	for s := range uint64(8) {
		f.Add(s, s*7919)
	}
	f.Fuzz(func(t *testing.T, a, b uint64) {
		j := startJS(t)
		r := rand.New(rand.NewPCG(a, b))
		if d := differ(t, j, randRequest(r, 0)); d != "" {
			t.Error(d)
		}
	})
}
