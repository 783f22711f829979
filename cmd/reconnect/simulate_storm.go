package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/internal/sim"
)

func allStrategies() string {
	var names []string
	for _, s := range sim.DefaultStrategies() {
		names = append(names, s.String())
	}
	return strings.Join(names, ",")
}

// stormOptions are the checked flags of simulate storm.
type stormOptions struct {
	config     sim.StormConfig // without Strategy
	strategies []sim.Strategy
	asJSON     bool
	svg        string
	out        string
	tradeoff   bool
	// front, with frontDowntimes: simulate storm --front.
	front          bool
	frontDowntimes []time.Duration
}

// parseStormFlags checks every flag of simulate storm before anything is
// simulated.
func parseStormFlags(args []string, stdout io.Writer) (*stormOptions, error) {
	fs := newFlagSet("simulate storm", "[flags]", stdout)
	clients := fs.Int("clients", 1_000_000, "clients that lose their connection at once, 1 to 1000000")
	downtime := fs.Duration("downtime", 5*time.Second, "how long the restarting server refuses every attempt, 0 to 1h")
	capacity := fs.Int("capacity", 25000, "connections the server accepts per second once up (0: no limit)")
	strategies := fs.String("jitters", allStrategies(), "reconnect strategies to compare, comma-separated; also rtb1-no-immediate and the retry families at their parameters, policy-full-jitter, policy-equal-jitter, policy-grpc, policy-decorrelated-jitter")
	window := fs.Duration("safe-window", sim.DefaultSafe.Window, "rtb1-safe: window the reconnect after a drop is spread over, 0 to 1m")
	share := fs.Float64("safe-immediate-share", sim.DefaultSafe.ImmediateShare, "rtb1-safe: share of drops that still reconnect at once, 0 to below 1")
	retrySpread := fs.Float64("safe-retry-spread", sim.DefaultSafe.RetrySpread, "rtb1-safe: retry jitter width, 0 to 1 (RTB1 is 0.2)")
	suspendedSpread := fs.Float64("safe-suspended-spread", sim.DefaultSafe.SuspendedSpread, "rtb1-safe: SUSPENDED retry jitter width, 0 to 1")
	firstRetry := fs.Duration("first-retry", engine.DefaultFirstRetry, "first-retry: the period P of the rule (after a failed immediate reconnect, U[0, P) then every P for disconnectedRetryTimeout, then RTB1), 0 to 15s")
	horizon := fs.Duration("horizon", 10*time.Minute, "how long to simulate, up to 6h")
	bucket := fs.Duration("bucket", 100*time.Millisecond, "histogram interval, 1ms to 1m")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same output")
	asJSON := fs.Bool("json", false, "write JSON instead of a table")
	svg := fs.String("svg", "", "also write a chart of attempts per second to this SVG file")
	outPath := fs.String("o", "", "write the report to this file instead of standard output")
	tradeoff := fs.Bool("tradeoff", false, "instead of comparing strategies, run rtb1-safe over a grid of its options against the aims")
	front := fs.Bool("front", false, "instead of comparing strategies, draw the restart front: 99 % back against the accept peak for rtb1, the peers and a grid of first-retry rules, at each of --front-downtimes (use --clients 100000 --capacity 0)")
	frontDowntimes := fs.String("front-downtimes", "5s,2s,10s", "--front: the restarts' downtimes, comma-separated; the rule is chosen at the first")
	if err := fs.parse(args); err != nil {
		return nil, err
	}
	switch {
	case *clients < 1 || *clients > 1_000_000:
		return nil, usagef("--clients %d: want a whole number from 1 to 1000000", *clients)
	case *downtime < 0 || *downtime > time.Hour:
		return nil, usagef("--downtime %v: want a duration from 0s to 1h", *downtime)
	case *capacity < 0:
		return nil, usagef("--capacity %d: want 0 (no limit) or more", *capacity)
	case *firstRetry < 0 || *firstRetry > reconnect.DefaultTimeouts().DisconnectedRetry:
		return nil, usagef("--first-retry %v: want a duration from 0s to %v", *firstRetry, reconnect.DefaultTimeouts().DisconnectedRetry)
	case *horizon <= 0 || *horizon > 6*time.Hour:
		return nil, usagef("--horizon %v: want a duration above 0s and at most 6h", *horizon)
	case *bucket < time.Millisecond || *bucket > time.Minute:
		return nil, usagef("--bucket %v: want a duration from 1ms to 1m", *bucket)
	case *horizon / *bucket >= sim.MaxBuckets:
		return nil, usagef("--bucket %v: with --horizon %v that is %d intervals; want fewer than %d", *bucket, *horizon, *horizon / *bucket, sim.MaxBuckets)
	case *window < 0 || *window > time.Minute:
		return nil, usagef("--safe-window %v: want a duration from 0s to 1m", *window)
	case !(*share >= 0 && *share < 1):
		return nil, usagef("--safe-immediate-share %v: want a number from 0 to below 1", *share)
	case !(*retrySpread >= 0 && *retrySpread <= 1):
		return nil, usagef("--safe-retry-spread %v: want a number from 0 to 1", *retrySpread)
	case !(*suspendedSpread >= 0 && *suspendedSpread <= 1):
		return nil, usagef("--safe-suspended-spread %v: want a number from 0 to 1", *suspendedSpread)
	}
	if *front && *tradeoff {
		return nil, usagef("--front and --tradeoff: choose one")
	}
	var fds []time.Duration
	for _, f := range splitList(*frontDowntimes) {
		d, err := time.ParseDuration(f)
		if err != nil || d < 0 || d > time.Hour {
			return nil, usagef("--front-downtimes %s: %q is not a duration from 0s to 1h", *frontDowntimes, f)
		}
		fds = append(fds, d)
	}
	if *front && len(fds) == 0 {
		return nil, usagef("--front-downtimes %q: want at least one downtime", *frontDowntimes)
	}
	o := &stormOptions{asJSON: *asJSON, svg: *svg, out: *outPath, tradeoff: *tradeoff, front: *front, frontDowntimes: fds, config: sim.StormConfig{Clients: *clients, Timeouts: reconnect.DefaultTimeouts(),
		Safe:     sim.SafeOptions{Window: *window, ImmediateShare: *share, RetrySpread: *retrySpread, SuspendedSpread: *suspendedSpread},
		Downtime: *downtime, Capacity: *capacity, Horizon: *horizon, Seed: *seed, Bucket: *bucket,
		First: sim.FirstRetry{Max: *firstRetry, Span: reconnect.DefaultTimeouts().DisconnectedRetry, Steady: true, Jitter: -1}}}
	if *firstRetry == 0 {
		o.config.First = sim.FirstRetry{}
	}
	for _, name := range splitList(*strategies) {
		s, err := sim.ParseStrategy(name)
		if err != nil {
			return nil, usagef("--jitters: %v", err)
		}
		if slices.Contains(o.strategies, s) {
			return nil, usagef("--jitters %s: %s is listed twice", *strategies, s)
		}
		o.strategies = append(o.strategies, s)
	}
	if len(o.strategies) == 0 {
		return nil, usagef("--jitters %q: want at least one strategy (%s)", *strategies, allStrategies())
	}
	return o, nil
}

func runSimulateStorm(args []string, stdout, stderr io.Writer) error {
	o, err := parseStormFlags(args, stdout)
	if err != nil {
		return err
	}
	out, err := createOutput(o.svg)
	if err != nil {
		return err
	}
	defer out.abandon()
	report, err := createFlagOutput("-o", o.out)
	if err != nil {
		return err
	}
	defer report.abandon()
	if report == nil {
		return runStorm(o, out, stdout, stderr)
	}
	var buf bytes.Buffer
	if err := runStorm(o, out, &buf, stderr); err != nil {
		return err
	}
	return report.finish(func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
}

// runStorm runs the storms (or the trade-off grid), writes the chart to
// out if set and the report to stdout.
func runStorm(o *stormOptions, out *output, stdout, stderr io.Writer) error {
	if o.tradeoff {
		return runTradeoff(o, out, stdout, stderr)
	}
	if o.front {
		return runFront(o, out, stdout, stderr)
	}
	prog := newProgress(stderr, "simulated seconds")
	var results []sim.StormResult
	n := len(o.strategies)
	for i, s := range o.strategies {
		sc := o.config
		sc.Strategy = s
		sc.Progress = func(done, total int) { prog.update(i*total+done, n*total) }
		r, err := sim.Storm(sc)
		if errors.Is(err, sim.ErrStormBudget) {
			return fmt.Errorf("%s: %v; shorten --horizon or lower --clients", s, err)
		}
		if err != nil {
			return usagef("%v", err)
		}
		results = append(results, r)
	}
	prog.update(1, 1)
	if out != nil {
		if err := out.finish(stormChart(results, o).WriteSVG); err != nil {
			return err
		}
	}
	if o.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(results)
	}
	printStormTable(stdout, results, o.config.Clients, o.config.Downtime, o.config.Capacity, o.config.Horizon)
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func printStormTable(w io.Writer, results []sim.StormResult, clients int, downtime time.Duration, capacity int, horizon time.Duration) {
	limit := fmt.Sprintf("then accepts %s a second", strings.Replace(plural(capacity, "connection", "connections"), strconv.Itoa(capacity), thousands(capacity), 1))
	if capacity == 0 {
		limit = "then accepts every attempt"
	}
	verb := "clients drop"
	if clients == 1 {
		verb = "client drops"
	}
	fmt.Fprintf(w, "%s %s at 0 s; the server refuses everything for %v, %s.\n", thousands(clients), verb, downtime, limit)
	fmt.Fprintln(w, "rtb1 … rtb1-safe, rtb1-no-immediate, policy-… and first-retry follow the engine's rules (reconnect at once unless no-immediate,")
	fmt.Fprintln(w, "retries, SUSPENDED retries after 120 s); the others are the schedules those clients ship.")
	fmt.Fprintln(w, "Disconnected: from the drop to the accepted attempt. accepted peak/s: the most accepted in one second.")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "strategy\tattempts\trefused\tpeak/s\tretry peak/s\tpeak/mean\taccepted peak/s\tdisconnected p50\t99% reconnected\treconnected\tgave up\t")
	for _, r := range results {
		t99 := r.T99.Round(100 * time.Millisecond).String()
		if r.Reconnected*100 < r.Clients*99 {
			t99 = "> " + horizon.String()
		}
		p50 := r.MedianDisconnected.Round(100 * time.Millisecond).String()
		if r.Reconnected*2 < r.Clients {
			p50 = "> " + horizon.String()
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.0f\t%.0f\t%.1f\t%d\t%s\t%s\t%.1f%%\t%d\t\n", r.Jitter, r.Total, r.Refused, r.PeakPerSecond, r.RetryPeakPerSecond,
			r.PeakToMean, r.AcceptPeakPerSecond, p50, t99, 100*float64(r.Reconnected)/float64(r.Clients), r.GaveUp)
	}
	tw.Flush()
}

// stormChart draws one panel per strategy on shared axes: attempts per
// second (each interval's count scaled to a second; log scale) against
// time since the restart, with the peak and the time 99 % had reconnected
// in each panel's title, and connectionStateTtl marked where the engine's
// rules apply. The time axis ends where the last strategy that settled
// (every client reconnected or gave up) made its last attempt; a panel
// whose attempts go on past it says so.
func stormChart(results []sim.StormResult, o *stormOptions) sim.Multiples {
	c := o.config
	m := sim.Multiples{Title: fmt.Sprintf("Attempts per second after a restart (%s clients, down %v, then %s accepted a second)",
		thousands(c.Clients), c.Downtime, thousands(c.Capacity)),
		XLabel: "time since the restart (s)", YLabel: fmt.Sprintf("attempts per second, over %v intervals (log scale)", c.Bucket), LogY: true}
	end := 0.0 // the last attempt of the strategies that settled
	for _, r := range results {
		if r.Reconnected+r.GaveUp >= r.Clients {
			end = max(end, lastAttempt(r))
		}
	}
	if end == 0 {
		end = c.Horizon.Seconds()
	}
	m.XMax = niceSeconds(end)
	for _, r := range results {
		perSecond := float64(time.Second) / float64(r.Bucket)
		s := sim.Series{Name: "attempts"}
		for k, a := range r.Attempts {
			s.X = append(s.X, (time.Duration(k) * r.Bucket).Seconds())
			s.Y = append(s.Y, float64(a)*perSecond)
		}
		t99 := "99 % at " + r.T99.Round(100*time.Millisecond).String()
		if r.Reconnected*100 < r.Clients*99 {
			t99 = fmt.Sprintf("%.1f %% by %v", 100*float64(r.Reconnected)/float64(r.Clients), c.Horizon)
		}
		p := sim.Panel{Title: fmt.Sprintf("%s · peak %s/s · %s", r.Jitter, short(r.PeakPerSecond), t99), Series: []sim.Series{s}}
		if st, _ := sim.ParseStrategy(r.Jitter); st.EngineRules() && c.Timeouts.ConnectionStateTTL < c.Horizon {
			p.Marks = []sim.Mark{{X: c.Timeouts.ConnectionStateTTL.Seconds(), Label: "SUSPENDED"}}
		}
		if last := lastAttempt(r); last > m.XMax {
			p.Corner = fmt.Sprintf("attempts go on to %v →", (time.Duration(last * float64(time.Second))).Round(time.Second))
		}
		m.Panels = append(m.Panels, p)
	}
	return m
}

// lastAttempt is the start of the last interval with an attempt, in
// seconds.
func lastAttempt(r sim.StormResult) float64 {
	for k := len(r.Attempts) - 1; k >= 0; k-- {
		if r.Attempts[k] > 0 {
			return (time.Duration(k) * r.Bucket).Seconds()
		}
	}
	return 0
}

// niceSeconds rounds an axis end up: to 10 s below a minute, to 30 s
// below ten minutes, then to 5 minutes.
func niceSeconds(s float64) float64 {
	step := 300.0
	switch {
	case s <= 60:
		step = 10
	case s <= 600:
		step = 30
	}
	return max(step, step*math.Ceil(s/step))
}

// thousands writes n with thousands separators: 1,000,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// short writes a count with a k or M suffix and three significant digits.
func short(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', 3, 64) + "M"
	case v >= 1e3:
		return strconv.FormatFloat(v/1e3, 'g', 3, 64) + "k"
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// The grid simulate storm --tradeoff explores.
var (
	tradeoffWindows = []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 5 * time.Second}
	tradeoffShares  = []float64{0, 0.05, 0.1}
	tradeoffRetry   = []float64{0.5, 1}
)

func runTradeoff(o *stormOptions, out *output, stdout, stderr io.Writer) error {
	prog := newProgress(stderr, "storms")
	t, err := sim.SafeTradeoff(o.config, tradeoffWindows, tradeoffShares, tradeoffRetry, []float64{o.config.Safe.SuspendedSpread}, 20000, prog.update)
	if err != nil {
		return usagef("%v", err)
	}
	if out != nil {
		if err := out.finish(tradeoffChart(t).WriteSVG); err != nil {
			return err
		}
	}
	if o.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(t)
	}
	c := o.config
	fmt.Fprintf(stdout, "rtb1-safe's options on the storm of %s (down %v, then %d a second):\n", plural(c.Clients, "client", "clients"), c.Downtime, c.Capacity)
	fmt.Fprintf(stdout, "rtb1 peaks at %.0f/s, full jitter has 99%% reconnected at %v; a healthy client reconnects %v after a drop today (median of 20000).\n",
		t.RTB1.PeakPerSecond, t.Full.T99.Round(100*time.Millisecond), t.DropMedian.Round(time.Millisecond))
	fmt.Fprintf(stdout, "Aims: peak at least %d× lower than rtb1's; 99%% reconnected within %.1f× full's time; drop median at most W/2 longer.\n\n", sim.AimPeakRatio, sim.AimT99Ratio)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "window W\timmediate share\tretry spread\tsuspended spread\tpeak/s\t× below rtb1\t99% reconnected\t× full\tattempts\tdrop median +\taims met\t")
	for _, r := range t.Rows {
		met := 0
		for _, ok := range r.MeetsAims {
			if ok {
				met++
			}
		}
		fmt.Fprintf(tw, "%v\t%g\t%g\t%g\t%.0f\t%.1f\t%v\t%.2f\t%d\t%v\t%d/3\t\n", r.Safe.Window, r.Safe.ImmediateShare, r.Safe.RetrySpread, r.Safe.SuspendedSpread,
			r.PeakPerSecond, r.PeakRatio, r.T99.Round(100*time.Millisecond), r.T99Ratio, r.Total, r.DropAdded.Round(time.Millisecond), met)
	}
	return tw.Flush()
}

// tradeoffChart draws the grid against the aims on one scale: each panel
// is one aim, each figure divided by its limit (peak: 5 / its ratio to
// rtb1; 99 %: its ratio to full / 1.1; drop: added / (W/2)), so a point at
// or below the dashed line at 1 meets that aim. One line per immediate
// share and retry spread, by window.
func tradeoffChart(t sim.Tradeoff) sim.Multiples {
	m := sim.Multiples{Title: "rtb1-safe against its aims: each figure over its limit (at or below 1: met)",
		XLabel: "reconnect window W (s, log scale)", YLabel: "figure / limit", LogX: true, Columns: 3}
	aims := []struct {
		title string
		value func(r sim.TradeoffRow) float64
	}{
		{"peak: 5 / (× below rtb1)", func(r sim.TradeoffRow) float64 { return sim.AimPeakRatio / r.PeakRatio }},
		{"99 % reconnected: (× full) / 1.1", func(r sim.TradeoffRow) float64 { return r.T99Ratio / sim.AimT99Ratio }},
		{"drop median: added / (W/2)", func(r sim.TradeoffRow) float64 { return float64(r.DropAdded) / float64(r.Safe.Window/2) }},
	}
	for _, aim := range aims {
		p := sim.Panel{Title: aim.title}
		series := map[string]*sim.Series{}
		var order []string
		for _, r := range t.Rows {
			name := fmt.Sprintf("%g%% at once, spread %g", 100*r.Safe.ImmediateShare, r.Safe.RetrySpread)
			s, ok := series[name]
			if !ok {
				s = &sim.Series{Name: name}
				series[name] = s
				order = append(order, name)
			}
			s.X = append(s.X, r.Safe.Window.Seconds())
			s.Y = append(s.Y, aim.value(r))
		}
		for _, name := range order {
			p.Series = append(p.Series, *series[name])
		}
		m.Panels = append(m.Panels, p)
	}
	m.YRef = 1
	return m
}
