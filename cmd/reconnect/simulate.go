package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/internal/sim"
)

const defaultMix = "healthy=0.90,slow-mobile=0.06,proxy-rejects-websocket=0.01,proxy-blackholes-websocket=0.01,primary-down=0.01,flapping=0.01"

func runSimulate(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("simulate needs a study: timeout or storm")
	}
	switch args[0] {
	case "timeout":
		return runSimulateTimeout(args[1:], stdout, stderr)
	case "storm":
		return runSimulateStorm(args[1:], stdout, stderr)
	}
	return usagef("unknown study %q (timeout or storm)", args[0])
}

// progress returns a progress printer for stderr when it is a terminal,
// and nil otherwise.
func progress(stderr io.Writer, what string) func(done, total int) {
	f, ok := stderr.(*os.File)
	if !ok {
		return nil
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return func(done, total int) {
		fmt.Fprintf(f, "\r%s %d/%d", what, done, total)
		if done == total {
			fmt.Fprint(f, "\r\033[K")
		}
	}
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func parsePolicy(s string) (reconnect.Policy, error) {
	for p := reconnect.PolicyWebSocketFirst; p <= reconnect.PolicyWebSocketCheck; p++ {
		if p.String() == s {
			return p, nil
		}
	}
	return 0, fmt.Errorf("unknown policy %q (websocket-first, http-first, websocket-check)", s)
}

type timeoutReport struct {
	Seed           uint64                   `json:"seed"`
	Clients        int                      `json:"clientsPerCell"`
	Cells          []sim.Cell               `json:"cells"`
	Recommendation *sim.Recommendation      `json:"recommendation"`
	BestByProfile  map[string]time.Duration `json:"bestByProfileNs"`
}

func runSimulateTimeout(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("simulate timeout", "[flags]", stdout)
	clients := fs.Int("clients", 2000, "simulated clients per cell, 1 to 100000")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same output")
	timeouts := fs.String("timeouts", "250ms,500ms,1s,1.5s,2s,3s,4s,6s,8s,10s", "short-circuit timeouts to sweep (websocket-first)")
	profiles := fs.String("profiles", "all", "profiles to simulate, comma-separated, or all")
	profileFile := fs.String("profile-file", "", "a JSON file of extra profiles (same form as the built-in ones)")
	policies := fs.String("policies", "websocket-first,http-first,websocket-check", "transport policies to compare")
	mix := fs.String("mix", defaultMix, "the profile mix the recommendation weighs, name=weight,… (by default, those of its profiles simulated)")
	perSecond := fs.Float64("cost-per-second", 1, "cost of one second of mean time to CONNECTED")
	perWasted := fs.Float64("cost-per-wasted", 0.05, "cost of one transport closed while still healthy")
	horizon := fs.Duration("horizon", 5*time.Minute, "give up on a client after this long")
	asJSON := fs.Bool("json", false, "write JSON instead of tables")
	svg := fs.String("svg", "", "also write a chart of mean time to CONNECTED by timeout to this SVG file")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *clients < 1 || *clients > 100000 {
		return usagef("--clients must be between 1 and 100000, got %d", *clients)
	}
	if *horizon <= 0 || *horizon > 24*time.Hour {
		return usagef("--horizon must be positive and at most 24h, got %v", *horizon)
	}
	if !(*perSecond >= 0) || !(*perWasted >= 0) {
		return usagef("--cost-per-second and --cost-per-wasted must not be negative")
	}
	all := sim.Builtin()
	if *profileFile != "" {
		data, err := os.ReadFile(*profileFile)
		if err != nil {
			return usagef("--profile-file: %v", err)
		}
		extra, err := sim.ParseProfiles(data)
		if err != nil {
			return usagef("--profile-file %s: %v", *profileFile, err)
		}
		for _, p := range extra {
			if i := slices.IndexFunc(all, func(q sim.Profile) bool { return q.Name == p.Name }); i >= 0 {
				all[i] = p
			} else {
				all = append(all, p)
			}
		}
	}
	chosen := all
	if *profiles != "all" {
		var err error
		if chosen, err = sim.Select(all, splitList(*profiles)); err != nil {
			return usagef("--profiles: %v", err)
		}
	}
	var sweep []time.Duration
	for _, s := range splitList(*timeouts) {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 || d > 10*time.Minute {
			return usagef("--timeouts: %q is not a duration between 0 and 10m", s)
		}
		sweep = append(sweep, d)
	}
	var pols []reconnect.Policy
	for _, s := range splitList(*policies) {
		p, err := parsePolicy(s)
		if err != nil {
			return usagef("--policies: %v", err)
		}
		pols = append(pols, p)
	}
	if len(sweep) == 0 || len(pols) == 0 || len(chosen) == 0 {
		return usagef("need at least one timeout, policy and profile")
	}
	weights := map[string]float64{}
	for _, kv := range splitList(*mix) {
		name, w, ok := strings.Cut(kv, "=")
		f, err := strconv.ParseFloat(w, 64)
		if !ok || err != nil || !(f >= 0) {
			return usagef("--mix: %q is not name=weight", kv)
		}
		if !slices.ContainsFunc(chosen, func(p sim.Profile) bool { return p.Name == name }) {
			if !fs.given("mix") {
				continue // the default mix keeps the profiles simulated
			}
			return usagef("--mix: profile %q is not among those simulated", name)
		}
		weights[name] = f
	}

	cells, err := sim.Sweep(sim.SweepConfig{Profiles: chosen, Timeouts: sweep, Policies: pols, Clients: *clients,
		Horizon: *horizon, Seed: *seed, Base: reconnect.DefaultConfig(), Progress: progress(stderr, "cells")})
	if err != nil {
		return err
	}
	cost := sim.Cost{PerSecond: *perSecond, PerWasted: *perWasted}
	rep := timeoutReport{Seed: *seed, Clients: *clients, Cells: cells, BestByProfile: map[string]time.Duration{}}
	if slices.Contains(pols, reconnect.PolicyWebSocketFirst) && len(weights) > 0 {
		rec, err := sim.Recommend(cells, weights, cost)
		if err != nil {
			return usagef("--mix: %v", err)
		}
		rep.Recommendation = &rec
		for _, p := range chosen {
			connected := slices.ContainsFunc(cells, func(c sim.Cell) bool { return c.Profile == p.Name && c.Connected > 0 })
			if r, err := sim.Recommend(cells, map[string]float64{p.Name: 1}, cost); err == nil && connected {
				rep.BestByProfile[p.Name] = r.Best
			}
		}
	}
	if *svg != "" {
		if err := writeTimeoutChart(*svg, cells, chosen); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printTimeoutTables(stdout, rep, chosen, cost)
	return nil
}

func msText(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 0, 64) }

func printTimeoutTables(w io.Writer, rep timeoutReport, profiles []sim.Profile, cost sim.Cost) {
	fmt.Fprintf(w, "Time to CONNECTED from a connect request, %d simulated clients per cell, seed %d.\n", rep.Clients, rep.Seed)
	fmt.Fprintln(w, "o1…o5: share of the transport-fallback proposal's five outcomes (websocket-first only);")
	fmt.Fprintln(w, "per connection: transports opened, HTTP opened, HTTP discarded while healthy, all transports discarded while healthy, fallback-host requests, connectivity checks.")
	for _, p := range profiles {
		fmt.Fprintf(w, "\n%s — %s\n", p.Name, p.Description)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "policy\tshort circuit\tconnected\tp50 ms\tp90 ms\tp99 ms\tmean ms\to1\to2\to3\to4\to5\topened\thttp\thttp discarded\twasted\tfallback\tchecks\t")
		for _, c := range rep.Cells {
			if c.Profile != p.Name {
				continue
			}
			sc := "-"
			if c.ShortCircuit > 0 {
				sc = c.ShortCircuit.String()
			}
			fmt.Fprintf(tw, "%s\t%s\t%.1f%%\t%s\t%s\t%s\t%s\t", c.Policy, sc, 100*float64(c.Connected)/float64(c.Clients), msText(c.P50), msText(c.P90), msText(c.P99), msText(c.Mean))
			for _, o := range c.Outcomes {
				if c.Policy == reconnect.PolicyWebSocketFirst.String() {
					fmt.Fprintf(tw, "%.0f%%\t", 100*o)
				} else {
					fmt.Fprint(tw, "-\t")
				}
			}
			fmt.Fprintf(tw, "%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t\n", c.Opened, c.HTTPOpened, c.HTTPWasted, c.Wasted, c.FallbackRequests, c.ConnectivityChecks)
		}
		tw.Flush()
	}
	rec := rep.Recommendation
	if rec == nil {
		return
	}
	fmt.Fprintf(w, "\nCost = %g × mean seconds to CONNECTED + %g × healthy transports thrown away, per connection.\n", cost.PerSecond, cost.PerWasted)
	names := make([]string, 0, len(rec.Mix))
	for n := range rec.Mix {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %g", n, rec.Mix[n]))
	}
	fmt.Fprintf(w, "Mix: %s.\n\n", strings.Join(parts, ", "))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "short circuit\tmix mean ms\tmix wasted\tmix cost\t")
	for _, tc := range rec.ByValue {
		mark := ""
		if tc.Timeout == rec.Best {
			mark = "  ← best"
		}
		fmt.Fprintf(tw, "%v\t%s\t%.3f\t%.4f%s\t\n", tc.Timeout, msText(tc.Mean), tc.Wasted, tc.Cost, mark)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nBest timeout per profile alone:")
	for _, p := range profiles {
		if b, ok := rep.BestByProfile[p.Name]; ok {
			fmt.Fprintf(w, " %s %v;", p.Name, b)
		}
	}
	fmt.Fprintf(w, "\nRecommended short-circuit timeout for this mix: %v\n", rec.Best)
}

func writeTimeoutChart(path string, cells []sim.Cell, profiles []sim.Profile) error {
	ch := sim.Chart{Title: "Mean time to CONNECTED by short-circuit timeout (websocket-first)",
		XLabel: "short-circuit timeout (s, log scale)", YLabel: "mean time to CONNECTED (s)", LogX: true}
	for _, p := range profiles {
		s := sim.Series{Name: p.Name}
		for _, c := range cells {
			if c.Profile == p.Name && c.Policy == reconnect.PolicyWebSocketFirst.String() && c.Connected == c.Clients {
				s.X = append(s.X, c.ShortCircuit.Seconds())
				s.Y = append(s.Y, c.Mean.Seconds())
			}
		}
		if len(s.X) > 0 {
			ch.Series = append(ch.Series, s)
		}
	}
	return writeFile(path, ch.WriteSVG)
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return usagef("--svg: %v", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func runSimulateStorm(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("simulate storm", "[flags]", stdout)
	clients := fs.Int("clients", 1_000_000, "clients that lose their connection at once, 1 to 1000000")
	downtime := fs.Duration("downtime", 5*time.Second, "how long the restarting server refuses every attempt")
	capacity := fs.Int("capacity", 25000, "connections the server accepts per second once up (0: no limit)")
	jitters := fs.String("jitters", "rtb1,none,full,equal", "jitter strategies to compare (rtb1, none, full, equal)")
	horizon := fs.Duration("horizon", 10*time.Minute, "how long to simulate")
	bucket := fs.Duration("bucket", 100*time.Millisecond, "histogram interval")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same output")
	asJSON := fs.Bool("json", false, "write JSON instead of a table")
	svg := fs.String("svg", "", "also write a chart of attempts per interval to this SVG file")
	if err := fs.parse(args); err != nil {
		return err
	}
	switch {
	case *clients < 1 || *clients > 1_000_000:
		return usagef("--clients must be between 1 and 1000000, got %d", *clients)
	case *downtime < 0 || *downtime > time.Hour:
		return usagef("--downtime must be between 0 and 1h, got %v", *downtime)
	case *capacity < 0:
		return usagef("--capacity must not be negative, got %d", *capacity)
	case *horizon <= 0 || *horizon > 6*time.Hour:
		return usagef("--horizon must be positive and at most 6h, got %v", *horizon)
	case *bucket < time.Millisecond || *bucket > time.Minute:
		return usagef("--bucket must be between 1ms and 1m, got %v", *bucket)
	}
	var js []sim.Jitter
	for _, s := range splitList(*jitters) {
		j, err := sim.ParseJitter(s)
		if err != nil {
			return usagef("--jitters: %v", err)
		}
		js = append(js, j)
	}
	if len(js) == 0 {
		return usagef("--jitters: need at least one")
	}
	prog := progress(stderr, "jitter strategies")
	var results []sim.StormResult
	for i, j := range js {
		r, err := sim.Storm(sim.StormConfig{Clients: *clients, Jitter: j, Timeouts: reconnect.DefaultTimeouts(),
			Downtime: *downtime, Capacity: *capacity, Horizon: *horizon, Seed: *seed, Bucket: *bucket})
		if err != nil {
			return usagef("%v", err)
		}
		results = append(results, r)
		if prog != nil {
			prog(i+1, len(js))
		}
	}
	if *svg != "" {
		ch := sim.Chart{Title: fmt.Sprintf("Attempts after a restart, %d clients", *clients),
			XLabel: "time since the restart (s)", YLabel: fmt.Sprintf("attempts per %v (log scale)", *bucket), LogY: true}
		for _, r := range results {
			s := sim.Series{Name: r.Jitter}
			for k, a := range r.Attempts {
				if k == 0 {
					continue // the immediate reconnects at 0 s, the same for every strategy
				}
				s.X = append(s.X, (time.Duration(k) * r.Bucket).Seconds())
				s.Y = append(s.Y, float64(a))
			}
			ch.Series = append(ch.Series, s)
		}
		if err := writeFile(*svg, ch.WriteSVG); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(results)
	}
	fmt.Fprintf(stdout, "%d clients drop at 0 s; the server refuses everything for %v, then accepts %d a second.\n", *clients, *downtime, *capacity)
	fmt.Fprintln(stdout, "Each client reconnects at once (RTN15a), then waits the jitter strategy's RTB1 delay; after 120 s, flat 30 s SUSPENDED retries.")
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "jitter\tattempts\tpeak/s\tretry peak/s\tpeak/mean\t99% reconnected\treconnected\t")
	for _, r := range results {
		t99 := r.T99.Round(100 * time.Millisecond).String()
		if r.Reconnected*100 < r.Clients*99 {
			t99 = "> " + horizon.String()
		}
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.0f\t%.1f\t%s\t%.1f%%\t\n", r.Jitter, r.Total, r.PeakPerSecond, r.RetryPeakPerSecond, r.PeakToMean, t99,
			100*float64(r.Reconnected)/float64(r.Clients))
	}
	return tw.Flush()
}
