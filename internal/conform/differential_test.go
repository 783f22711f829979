package conform

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
)

// reference is one process of an independent implementation, spoken to
// through the protocol: the JS reference adapter or the Python adapter,
// shared by the differential tests of this test binary (fuzz workers each
// start their own). It exits when the test binary does, on the end of its
// input.
type reference struct {
	name       string
	mu         sync.Mutex
	in         io.WriteCloser
	out        *bufio.Reader
	implements []string
	exactNs    bool
	err        error
}

// references are the independent implementations, by name: the command
// that starts each (run from this package's folder).
var references = map[string][]string{
	"js":     {"node", "../../conformance/js/adapter.mjs"},
	"python": {"python3", "../../conformance/python/adapter.py"},
}

var (
	refMu   sync.Mutex
	started = map[string]*reference{}
)

// startRef starts (once) the named reference and says hello. Without its
// interpreter it skips the test, except in CI, where it fails.
func startRef(t testing.TB, name string) *reference {
	refMu.Lock()
	defer refMu.Unlock()
	ref := started[name]
	if ref == nil {
		ref = &reference{name: name}
		started[name] = ref
		argv := references[name]
		path, err := exec.LookPath(argv[0])
		if err == nil {
			cmd := exec.Command(path, argv[1:]...)
			ownGroup(cmd)
			if ref.in, err = cmd.StdinPipe(); err == nil {
				var out io.ReadCloser
				if out, err = cmd.StdoutPipe(); err == nil {
					ref.out = bufio.NewReaderSize(out, 1<<20)
					err = cmd.Start()
				}
			}
		}
		if err == nil {
			var hello Response
			hello, _, err = ref.send(harnessHello())
			ref.implements, ref.exactNs = hello.Implements, hello.ExactNs
		}
		ref.err = err
	}
	if ref.err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s reference: %v", name, ref.err)
		}
		t.Skipf("no %s reference: %v", name, ref.err)
	}
	return ref
}

// send writes one line and reads the answer.
func (r *reference) send(v any) (Response, []byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Response{}, nil, err
	}
	if _, err := r.in.Write(append(b, '\n')); err != nil {
		return Response{}, nil, err
	}
	line, err := r.out.ReadBytes('\n')
	if err != nil {
		return Response{}, nil, err
	}
	var resp Response
	err = json.Unmarshal(line, &resp)
	return resp, line, err
}

// ask sends one request and reads the answer.
func (r *reference) ask(req Request) (Response, []byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.send(req)
}

// refAnswer is one answer of a reference: the line and what it decodes to.
type refAnswer struct {
	resp Response
	line []byte
}

// askAll sends every request, written from a goroutine ahead of the
// answers, and reads the answers in order: the same lines as asking one
// by one, without a wake-up of the reference per request.
func (r *reference) askAll(reqs []Request) ([]refAnswer, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	written := make(chan error, 1)
	go func() {
		bw := bufio.NewWriterSize(r.in, 64<<10)
		enc := json.NewEncoder(bw)
		for _, req := range reqs {
			if err := enc.Encode(req); err != nil {
				written <- err
				return
			}
		}
		written <- bw.Flush()
	}()
	out := make([]refAnswer, len(reqs))
	for i := range reqs {
		line, err := r.out.ReadBytes('\n')
		if err != nil {
			return nil, err
		}
		out[i].line = line
		if err := json.Unmarshal(line, &out[i].resp); err != nil {
			return nil, err
		}
	}
	return out, <-written
}

// differ compares ref's answer to req with the Go self adapter's, by the
// harness's own rules (the Go answer as the expectation; for an error, the
// field it names). A reference that does not implement req's area is not
// asked.
func differ(t testing.TB, ref *reference, req Request) string {
	if !slices.Contains(ref.implements, req.Area) {
		return ""
	}
	resp, line, err := ref.ask(req)
	if err != nil {
		t.Fatalf("%s reference: %v", ref.name, err)
	}
	return differAnswer(t, ref, req, resp, line)
}

// differAnswer compares ref's answer to req, resp decoded from line, with
// the Go self adapter's (see differ).
func differAnswer(t testing.TB, ref *reference, req Request, resp Response, line []byte) string {
	goResp := Self{}.Handle(req)
	// Round-trip through JSON, as the harness would see it.
	b, _ := json.Marshal(sanitize(goResp.Result))
	var expected map[string]any
	_ = json.Unmarshal(b, &expected)
	if goResp.Error != nil {
		expected = map[string]any{"error": map[string]any{"field": goResp.Error.Field}}
	}
	// The exact nanoseconds are expected as the harness expects them: all
	// of them from an adapter that declared exactNs, else those it answers.
	c := Case{ID: req.ID, Area: req.Area, Function: req.Function, Input: req.Input, Expected: expected, ExactNs: map[string]any{}}
	for k, v := range expected {
		if strings.HasSuffix(k, "Ns") {
			c.ExactNs[k] = v
			delete(expected, k)
		}
	}
	c = withExactNs(c, ref.exactNs, resp.Result)
	if ms := check(c, resp, tolerance(t)); len(ms) > 0 {
		in, _ := json.Marshal(req.Input)
		return fmt.Sprintf("%s %s: Go %s, %s %s", req.Function, in, b, ref.name, strings.TrimSpace(string(line)))
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
	switch fn := r.IntN(17); fn {
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
		// Ably's deprecated options: restHost, realtimeHost,
		// fallbackHostsUseDefault (REC1b1, REC1c1, REC1d, REC2a1, REC2b).
		if r.IntN(6) == 0 {
			in["restHost"] = randString(r, hostPieces, 5)
		}
		if r.IntN(6) == 0 {
			in["realtimeHost"] = randString(r, hostPieces, 5)
		}
		if r.IntN(6) == 0 {
			in["fallbackHostsUseDefault"] = true
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
	case 13:
		req.Function = "preferredHost"
		hosts := []string{"a.example.com", "b.example.com", "A.example.com"}
		steps := []any{} // the harness sends every key of a step, and never null
		for n := r.IntN(6); n > 0; n-- {
			at := float64(r.IntN(4000))
			switch r.IntN(3) {
			case 0:
				steps = append(steps, map[string]any{"op": "fallbackSucceeded", "host": pick(hosts), "atMs": at, "ttlMs": float64(r.IntN(3000) - 500)})
			case 1:
				steps = append(steps, map[string]any{"op": "failed", "host": pick(hosts), "atMs": at, "failureKind": pick(kindNames), "status": float64(r.IntN(700))})
			default:
				steps = append(steps, map[string]any{"op": "first", "atMs": at})
			}
		}
		in["primary"], in["steps"] = "p.example.com", steps
	case 14:
		req.Function, in["text"] = "preferenceDecode", randString(r, prefPieces, 8)
	case 15:
		req.Function = "preference"
		start := map[string]any{"transport": pick(transportNames)}
		if start["transport"] != "none" {
			start["atMs"], start["reason"] = float64(r.Int64N(1<<41)), pick([]string{"connected", "websocket-unstable"})
		}
		steps := []any{}
		for n := r.IntN(6); n > 0; n-- {
			if r.IntN(2) == 0 {
				steps = append(steps, map[string]any{"op": "apply", "event": pick(prefEventNames), "transport": pick(transportNames), "atMs": float64(r.Int64N(1 << 41))})
			} else {
				steps = append(steps, map[string]any{"op": "start", "nowMs": float64(r.Int64N(1 << 41)), "websocket": r.IntN(4) > 0, "http": r.IntN(4) > 0})
			}
		}
		in["ttlMs"], in["start"], in["steps"] = float64(r.Int64N(1<<33)-1000), start, steps
	case 16:
		// The retry families (retry.json): any parameters, attempt,
		// previous delay and draw.
		family := pick([]string{"fullJitter", "equalJitter", "grpc", "decorrelated"})
		req.Function = family + pick([]string{"Delay", "Bounds"})
		in["baseMs"], in["capMs"], in["attempt"] = initialMs(), initialMs(), attempt()
		if family == "grpc" {
			multipliers := []any{1.6, 1.0, 1.005, 2.0, 150.0, 0.5, "NaN", "Infinity", r.Float64() * 3}
			in["multiplier"] = multipliers[r.IntN(len(multipliers))]
			in["jitter"] = randFloat(r)
		}
		if family == "decorrelated" {
			in["previousMs"] = math.Abs(initialMs())
		}
		if strings.HasSuffix(req.Function, "Delay") {
			in["u"] = randFloat(r)
		}
	}
	req.Area = functionArea[req.Function]
	return req
}

// functionArea is the area of every function the differential asks.
var functionArea = map[string]string{
	"backoffCoefficient": "rtb1", "jitterCoefficient": "rtb1", "retryDelay": "rtb1", "retryBounds": "rtb1",
	"decidePending": "transport", "chooseTransport": "transport", "httpOnWebSocketFailure": "transport",
	"httpOnShortCircuit": "transport", "upgradeAfterActivation": "transport",
	"resolveHosts": "hosts", "shouldFallback": "hosts", "connectivityUp": "hosts", "hostOrder": "hosts", "preferredHost": "hosts",
	"preference": "preference", "preferenceDecode": "preference",
	"fullJitterDelay": "retry", "fullJitterBounds": "retry", "equalJitterDelay": "retry", "equalJitterBounds": "retry",
	"grpcDelay": "retry", "grpcBounds": "retry", "decorrelatedDelay": "retry", "decorrelatedBounds": "retry",
}

// Pieces random persisted preferences are made of: every token, bound and
// byte class of the text format.
var prefPieces = []string{
	"v1", "v2", "V1", "v1 ", " ", "  ", "\t", "http", "websocket", "none", "comet", "HTTP", "connected", "websocket-unstable",
	"0", "1", "7", "00", "-1", "+5", "1e3", "0x1f", "1767258000000", "9007199254740993", "9223372036854775807", "9223372036854775808",
	"\u00a0", "\u0660", "\ufeff", "é", "\x00", "\n",
}

var prefEventNames = []string{"connected", "websocket-unstable", "attempt-failed", "websocket-check-passed", "server-fallback"}

// TestDifferentialGoJSAndPython feeds random inputs for every function of
// the rtb1, transport, hosts and preference areas to the Go self adapter,
// the JS reference and the Python adapter (written from the docs alone),
// and requires the same answers from all three (each asked for the areas
// its hello implements).
func TestDifferentialGoJSAndPython(t *testing.T) {
	t.Parallel()
	refs := []*reference{startRef(t, "js"), startRef(t, "python")}
	n := 20000
	if testing.Short() {
		n = 2000
	}
	r := rand.New(rand.NewPCG(1, 2))
	accepted, rejected := 0, 0
	reqs := make([]Request, n)
	for i := range n {
		req := randRequest(r, i)
		if req.Function == "resolveHosts" {
			if (Self{}).Handle(req).Error == nil {
				accepted++
			} else {
				rejected++
			}
		}
		reqs[i] = req
	}
	// Each reference is asked every request of the areas it implements,
	// the two at once, each answer compared as differ compares it.
	asked := map[string]int{}
	mine := make([][]Request, len(refs))
	for k, ref := range refs {
		for _, req := range reqs {
			if slices.Contains(ref.implements, req.Area) {
				asked[ref.name+" "+req.Function]++
				mine[k] = append(mine[k], req)
			}
		}
	}
	answers := make([][]refAnswer, len(refs))
	errs := make([]error, len(refs))
	var wg sync.WaitGroup
	for k, ref := range refs {
		wg.Go(func() { answers[k], errs[k] = ref.askAll(mine[k]) })
	}
	wg.Wait()
	bad := 0
	for k, ref := range refs {
		if errs[k] != nil {
			t.Fatalf("%s reference: %v", ref.name, errs[k])
		}
		for i, req := range mine[k] {
			if d := differAnswer(t, ref, req, answers[k][i].resp, answers[k][i].line); d != "" {
				t.Error(d)
				if bad++; bad > 20 {
					t.Fatal("too many differences")
				}
			}
		}
	}
	// Both sides of the host rules must be exercised, and every function
	// asked of both references.
	t.Logf("resolveHosts: %d accepted, %d rejected", accepted, rejected)
	if accepted*10 < accepted+rejected || rejected*10 < accepted+rejected {
		t.Errorf("resolveHosts: %d accepted, %d rejected; want at least a tenth each", accepted, rejected)
	}
	for fn := range functionArea {
		for _, ref := range refs {
			if asked[ref.name+" "+fn] == 0 {
				t.Errorf("%s was never asked %s", ref.name, fn)
			}
		}
	}
}

// FuzzDifferentialGoJSAndPython is the same comparison, steered by the
// fuzzer's seed.
func FuzzDifferentialGoJSAndPython(f *testing.F) {
	for s := range uint64(8) {
		f.Add(s, s*7919)
	}
	f.Fuzz(func(t *testing.T, a, b uint64) {
		req := randRequest(rand.New(rand.NewPCG(a, b)), 0)
		for _, name := range []string{"js", "python"} {
			if d := differ(t, startRef(t, name), req); d != "" {
				t.Error(d)
			}
		}
	})
}
