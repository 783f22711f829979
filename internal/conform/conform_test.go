package conform

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/fixtures"
)

// TestMain turns the test binary into a misbehaving adapter when
// CONFORM_FAKE names a behaviour, so the harness can be tested against real
// child processes. Otherwise it runs the tests, with at least
// minParallel parallel tests at once unless -parallel says otherwise: the
// parallel tests are the ones that start processes, and some of them
// mostly wait (for a hung adapter's limit, for an interrupt).
func TestMain(m *testing.M) {
	if b := os.Getenv("CONFORM_FAKE"); b != "" {
		fakeAdapter(b)
		os.Exit(0)
	}
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if p := flag.Lookup("test.parallel"); !given && p != nil {
		if n, err := strconv.Atoi(p.Value.String()); err == nil && n < minParallel {
			_ = p.Value.Set(strconv.Itoa(minParallel))
		}
	}
	os.Exit(m.Run())
}

// minParallel is how many parallel tests run at once by default.
const minParallel = 8

// suite returns the fixtures' suite. It is loaded once per test binary
// (a load parses every fixture, some 0.3 s of CPU, and the tests ask for
// it dozens of times); each caller gets its own Cases slice, and the
// cases' maps are shared: the harness and the tests only read them.
func suite(t testing.TB) Suite {
	t.Helper()
	s, err := loadedSuite()
	if err != nil {
		t.Fatal(err)
	}
	s.Cases = slices.Clone(s.Cases)
	return s
}

var loadedSuite = sync.OnceValues(func() (Suite, error) { return LoadSuite(fixtures.FS) })

func TestSelfPassesEveryCase(t *testing.T) {
	rep := RunSelf(context.Background(), suite(t), Options{})
	if rep.Failed != 0 || rep.NotImplemented != 0 || rep.NotRun != 0 || rep.Broken != "" || rep.Passed < 1000 || rep.ExitCode() != ExitPass {
		var b strings.Builder
		rep.WriteText(&b)
		t.Fatalf("%s", b.String())
	}
}

// mutate wraps Self with a deliberate divergence, as a wrong SDK would
// have it.
func mutate(f func(req Request, resp *Response)) Handler {
	return func(req Request) Response {
		resp := Self{}.Handle(req)
		if req.Type != "hello" && resp.Result != nil {
			f(req, &resp)
		}
		return resp
	}
}

func inputNumber(req Request, key string) float64 {
	v, _ := number(req.Input[key])
	return v
}

// rtb1Mutation recomputes the RTB1 functions with a different coefficient
// and jitter rule.
func rtb1Mutation(coef func(n float64) float64, jitter func(u float64) float64, finish func(ms float64) float64) Handler {
	delay := func(initial, n, u float64) float64 {
		if initial <= 0 {
			return 0
		}
		return finish(initial * coef(n) * jitter(u))
	}
	return mutate(func(req Request, resp *Response) {
		n, u, initial := inputNumber(req, "attempt"), inputNumber(req, "u"), inputNumber(req, "initialMs")
		switch req.Function {
		case "backoffCoefficient":
			resp.Result["coefficient"] = coef(n)
		case "jitterCoefficient":
			resp.Result["jitter"] = jitter(u)
		case "retryDelay":
			resp.Result["delayMs"] = delay(initial, n, u)
		case "retryBounds":
			resp.Result["lowerMs"], resp.Result["upperMs"] = delay(initial, n, 1), delay(initial, n, 0)
		}
	})
}

var (
	specCoef   = func(n float64) float64 { return math.Min((math.Max(n, 1)+2)/3, 2) }
	specJitter = func(u float64) float64 { return 1 - 0.2*clampUnit(u) }
	exactMs    = func(ms float64) float64 { return ms }
)

func clampUnit(u float64) float64 {
	if !(u > 0) {
		return 0
	}
	return math.Min(u, 1)
}

// immediateCounted rewrites scenario answers as an SDK that counts the
// immediate reconnect as retry 1 would give them: after it, every
// DISCONNECTED delay uses n + 1 until CONNECTED or SUSPENDED resets n.
func immediateCounted(req Request, resp *Response) {
	if req.Function != "scenario" {
		return
	}
	stateRe := regexp.MustCompile(`^state (\w+) disconnected (\S+) retryIn=(\S+)( error=\S+)?$`)
	timerRe := regexp.MustCompile(`^timer retry at=(\S+)$`)
	steps := resp.Result["steps"].([]StepResult)
	extra := 0
	for i, st := range steps {
		var shift float64
		for j, a := range st.Actions {
			if m := stateRe.FindStringSubmatch(a); m != nil {
				v, _ := strconv.ParseFloat(m[3], 64)
				if m[1] == "connected" && v == 0 {
					extra = 1
					continue
				}
				if extra == 1 && v > 0 {
					n := st.RetryCount
					u := (1 - v/(15000*specCoef(float64(n)))) / 0.2
					nv := float64(reconnect.RetryDelay(15*time.Second, n+1, u)) / 1e6
					shift = nv - v
					steps[i].Actions[j] = fmt.Sprintf("state %s disconnected %s retryIn=%s%s", m[1], m[2], strconv.FormatFloat(nv, 'f', -1, 64), m[4])
				}
			}
			if strings.HasPrefix(a, "state ") && (strings.Contains(a, " connected connected") || strings.Contains(a, " suspended ")) {
				extra = 0
			}
		}
		for j, a := range st.Actions {
			if m := timerRe.FindStringSubmatch(a); m != nil && shift != 0 {
				v, _ := strconv.ParseFloat(m[1], 64)
				steps[i].Actions[j] = "timer retry at=" + strconv.FormatFloat(v+shift, 'f', -1, 64)
			}
		}
	}
}

func TestHarnessCatchesRealDivergences(t *testing.T) {
	s := suite(t)
	for _, c := range []struct {
		name  string
		h     Handler
		specs []string // spec points that must appear among the failures
	}{
		{"jitter in (0.9, 1], the spec's first draft", rtb1Mutation(specCoef, func(u float64) float64 { return 1 - 0.1*clampUnit(u) }, exactMs), []string{"RTB1b", "RTB1"}},
		{"n counted from 0", rtb1Mutation(func(n float64) float64 { return math.Min((math.Max(n, 1)+1)/3, 2) }, specJitter, exactMs), []string{"RTB1a", "RTB1"}},
		{"delays truncated to whole milliseconds", rtb1Mutation(specCoef, specJitter, math.Floor), []string{"RTB1"}},
		{"a 2/3 coefficient at n = 0", rtb1Mutation(func(n float64) float64 {
			if n == 0 {
				return 2.0 / 3
			}
			return specCoef(n)
		}, specJitter, exactMs), []string{"RTB1a"}},
		{"the immediate reconnect counted as retry 1", mutate(immediateCounted), []string{"RTB1"}},
		{"rule 3 applied to upgrade-mode websockets", mutate(func(req Request, resp *Response) {
			if req.Function == "decidePending" && req.Input["candidate"] == "websocket" && req.Input["active"] == "http" && req.Input["pending"] != "http" {
				resp.Result["decision"], resp.Result["rule"] = "discard-candidate", 3
			}
		}), []string{"setTransportPending"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := RunHandler(context.Background(), s, c.h, Options{})
			if rep.Failed == 0 || rep.Broken != "" {
				t.Fatalf("not caught: %s (broken: %q)", rep.Summary(), rep.Broken)
			}
			for _, spec := range c.specs {
				found := false
				for _, f := range rep.Failures {
					found = found || f.Spec == spec
				}
				if !found {
					t.Errorf("no failure names spec point %s", spec)
				}
			}
			var b strings.Builder
			rep.WriteText(&b)
			if !strings.Contains(b.String(), "FAIL "+c.specs[0]) || !strings.HasSuffix(b.String(), rep.Summary()+"\n") {
				t.Errorf("report lacks the grouping or the summary:\n%s", b.String())
			}
		})
	}
}
