package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/internal/sim"
)

const defaultMix = "healthy=0.90,slow-mobile=0.06,proxy-rejects-websocket=0.01,proxy-blackholes-websocket=0.01,primary-down=0.01,flapping=0.01"

func runSimulate(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("simulate needs a study: timeout, storm or adaptive (run 'reconnect simulate -h')")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, "usage: reconnect simulate <study> [flags]\n\nstudies:")
		fmt.Fprintln(stdout, "  timeout    sweep the short-circuit timeout and transport policy over network profiles")
		fmt.Fprintln(stdout, "  storm      replay a server restart for up to a million clients under each reconnect strategy")
		fmt.Fprintln(stdout, "  adaptive   the adaptive short circuit's rules against the fixed timer, paired client by client")
		fmt.Fprintln(stdout, "\nRun 'reconnect simulate <study> -h' for a study's flags.")
		return nil
	case "timeout":
		return runSimulateTimeout(args[1:], stdout, stderr)
	case "storm":
		return runSimulateStorm(args[1:], stdout, stderr)
	case "adaptive":
		return runSimulateAdaptive(args[1:], stdout, stderr)
	}
	return usagef("unknown study %q: want timeout, storm or adaptive", args[0])
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

func parsePolicy(s string) (engine.Policy, error) {
	for p := engine.PolicyWebSocketFirst; p <= engine.PolicyWebSocketCheck; p++ {
		if p.String() == s {
			return p, nil
		}
	}
	return 0, fmt.Errorf("unknown policy %q; want websocket-first, http-first or websocket-check", s)
}

// timeoutReport is what simulate timeout reports: the band of the mix
// (the recommendation), every profile's band, and every cell.
type timeoutReport struct {
	Seed        uint64             `json:"seed"`
	Clients     int                `json:"clientsPerCell"`
	Horizon     time.Duration      `json:"horizonNs"`
	Cost        sim.Cost           `json:"cost"`
	Equivalence sim.Equivalence    `json:"equivalence"`
	Mix         map[string]float64 `json:"mix"` // normalized weights
	MixBand     *sim.Band          `json:"mixBand"`
	Bands       []sim.Band         `json:"bands"`
	Cells       []sim.Cell         `json:"cells"`
}

// timeoutOptions are the checked flags of simulate timeout.
type timeoutOptions struct {
	sweep    sim.SweepConfig
	weights  map[string]float64
	cost     sim.Cost
	eq       sim.Equivalence
	asJSON   bool
	svg      string
	out      string
	budget   int64
	profiles []sim.Profile
}

// maxWeight bounds a mix weight and a cost: large enough for any use,
// small enough that no sum or product of them overflows.
const maxWeight = 1e9

// defaultBudget is simulate timeout's default --budget in engine steps:
// about two and a half minutes on a small machine.
const defaultBudget = 1_000_000_000

// stepCost is about what one engine step of the simulator costs on a
// small shared machine (measured: 8.6 M steps of the offline profile in
// 1.3 s), for the estimates printed.
const stepCost = 150 * time.Nanosecond

// parseTimeoutFlags checks every flag of simulate timeout before anything
// is simulated; readFile reads --profile-file.
func parseTimeoutFlags(args []string, stdout io.Writer, readFile func(string) ([]byte, error)) (*timeoutOptions, error) {
	fs := newFlagSet("simulate timeout", "[flags]", stdout)
	clients := fs.Int("clients", 2000, "simulated clients per cell, 1 to 100000")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same output")
	timeouts := fs.String("timeouts", "250ms,500ms,1s,1.5s,2s,3s,4s,6s,8s,10s", "short-circuit timeouts to sweep (websocket-first), each above 0s and at most 10m")
	profiles := fs.String("profiles", "all", "profiles to simulate, comma-separated, or all")
	profileFile := fs.String("profile-file", "", "a JSON file of extra profiles (same form as the built-in ones)")
	replace := fs.Bool("replace", false, "let --profile-file replace built-in profiles of the same name")
	policies := fs.String("policies", "websocket-first,http-first,websocket-check", "transport policies to compare")
	mix := fs.String("mix", defaultMix, "the profile mix the recommendation weighs, name=weight,… (by default, those of its profiles simulated)")
	perSecond := fs.Float64("cost-per-second", 1, "cost of one second of mean time to CONNECTED, 0 to 1e9")
	perWasted := fs.Float64("cost-per-wasted", 0.05, "cost of one transport closed while still healthy, 0 to 1e9")
	horizon := fs.Duration("horizon", 5*time.Minute, "give up on a client after this long, at most 24h")
	budget := fs.Int64("budget", defaultBudget, "refuse runs estimated to take more engine steps than this (about 150 ns each; 0: no limit)")
	tiePercent := fs.Float64("tie-percent", 100*sim.DefaultEquivalence.Rel, "a timeout is tied with the best when its cost is within this percentage of the best's (or --tie-ms), 0 to 100")
	tieMs := fs.Float64("tie-ms", 1000*sim.DefaultEquivalence.Abs, "… or within this many milliseconds of cost, 0 to 1e6")
	asJSON := fs.Bool("json", false, "write JSON instead of tables")
	svg := fs.String("svg", "", "also write charts (time to CONNECTED and transports wasted by timeout, with intervals) to this SVG file")
	outPath := fs.String("o", "", "write the report to this file instead of standard output")
	if err := fs.parse(args); err != nil {
		return nil, err
	}
	o := &timeoutOptions{asJSON: *asJSON, svg: *svg, out: *outPath, budget: *budget}
	if !(*tiePercent >= 0 && *tiePercent <= 100) {
		return nil, usagef("--tie-percent %v: want a number from 0 to 100", *tiePercent)
	}
	if !(*tieMs >= 0 && *tieMs <= 1e6) {
		return nil, usagef("--tie-ms %v: want a number from 0 to 1e6", *tieMs)
	}
	o.eq = sim.Equivalence{Rel: *tiePercent / 100, Abs: *tieMs / 1000}
	switch {
	case *clients < 1 || *clients > 100000:
		return nil, usagef("--clients %d: want a whole number from 1 to 100000", *clients)
	case *horizon <= 0 || *horizon > 24*time.Hour:
		return nil, usagef("--horizon %v: want a duration above 0s and at most 24h", *horizon)
	case *budget < 0:
		return nil, usagef("--budget %d: want 0 (no limit) or a positive number of engine steps", *budget)
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"cost-per-second", *perSecond}, {"cost-per-wasted", *perWasted}} {
		if !(c.v >= 0 && c.v <= maxWeight) {
			return nil, usagef("--%s %v: want a number from 0 to 1e9", c.name, c.v)
		}
	}
	o.cost = sim.Cost{PerSecond: *perSecond, PerWasted: *perWasted}
	all := sim.Builtin()
	if *profileFile != "" {
		data, err := readFile(*profileFile)
		if err != nil {
			return nil, usagef("--profile-file %s: %v", *profileFile, err)
		}
		extra, err := sim.ParseProfiles(data)
		if err != nil {
			return nil, usagef("--profile-file %s: %v", *profileFile, err)
		}
		if all, err = sim.Merge(all, extra, *replace); err != nil {
			return nil, usagef("--profile-file %s: %v", *profileFile, err)
		}
	}
	chosen := all
	if *profiles != "all" {
		names := splitList(*profiles)
		if d, ok := duplicate(names); ok {
			return nil, usagef("--profiles %q: %s named twice", *profiles, d)
		}
		var err error
		if chosen, err = sim.Select(all, names); err != nil {
			return nil, usagef("--profiles: %v", err)
		}
	}
	var sweep []time.Duration
	for _, s := range splitList(*timeouts) {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 || d > 10*time.Minute {
			return nil, usagef("--timeouts %s: want durations above 0s and at most 10m, like 250ms or 2s", s)
		}
		if slices.Contains(sweep, d) {
			return nil, usagef("--timeouts %s: %v is listed twice", *timeouts, d)
		}
		sweep = append(sweep, d)
	}
	var pols []engine.Policy
	for _, s := range splitList(*policies) {
		p, err := parsePolicy(s)
		if err != nil {
			return nil, usagef("--policies: %v", err)
		}
		if slices.Contains(pols, p) {
			return nil, usagef("--policies %s: %s is listed twice", *policies, p)
		}
		pols = append(pols, p)
	}
	switch {
	case len(sweep) == 0:
		return nil, usagef("--timeouts %q: want at least one timeout", *timeouts)
	case len(pols) == 0:
		return nil, usagef("--policies %q: want at least one policy", *policies)
	case len(chosen) == 0:
		return nil, usagef("--profiles %q: want at least one profile", *profiles)
	}
	weights, err := parseMix(*mix)
	if err != nil {
		return nil, err
	}
	for name := range weights {
		if !slices.ContainsFunc(chosen, func(p sim.Profile) bool { return p.Name == name }) {
			if !fs.given("mix") {
				delete(weights, name) // the default mix keeps the profiles simulated
				continue
			}
			return nil, usagef("--mix: profile %q is not among those simulated", name)
		}
	}
	if fs.given("mix") && weightSum(weights) <= 0 {
		return nil, usagef("--mix %q: want at least one positive weight", *mix)
	}
	o.weights, o.profiles = weights, chosen
	o.sweep = sim.SweepConfig{Profiles: chosen, Timeouts: sweep, Policies: pols, Clients: *clients,
		Horizon: *horizon, Seed: *seed, Base: engine.AblyConfig(), MaxSteps: *budget}
	return o, nil
}

func duplicate(names []string) (string, bool) {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			return n, true
		}
		seen[n] = true
	}
	return "", false
}

func weightSum(w map[string]float64) float64 {
	total := 0.0
	for _, v := range w {
		total += v
	}
	return total
}

// parseMix parses name=weight,…: each name once, each weight a number
// from 0 to 1e9.
func parseMix(s string) (map[string]float64, error) {
	weights := map[string]float64{}
	for _, kv := range splitList(s) {
		name, w, ok := strings.Cut(kv, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, usagef("--mix %s: want name=weight, like healthy=0.9", kv)
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(w), 64)
		if err != nil || !(f >= 0 && f <= maxWeight) {
			return nil, usagef("--mix %s: the weight %q is not a number; want one from 0 to 1e9", kv, w)
		}
		if _, dup := weights[name]; dup {
			return nil, usagef("--mix: profile %q is weighed twice", name)
		}
		weights[name] = f
	}
	return weights, nil
}

func runSimulateTimeout(args []string, stdout, stderr io.Writer) error {
	o, err := parseTimeoutFlags(args, stdout, os.ReadFile)
	if err != nil {
		return err
	}
	chart, err := createOutput(o.svg)
	if err != nil {
		return err
	}
	defer chart.abandon()
	report, err := createFlagOutput("-o", o.out)
	if err != nil {
		return err
	}
	defer report.abandon()
	if o.budget > 0 {
		est, err := sim.EstimateSteps(o.sweep, 16)
		if err != nil {
			return err
		}
		took := (time.Duration(est) * stepCost).Round(time.Second)
		switch {
		case est > o.budget:
			return usagef("--budget %d: this run needs about %d engine steps (about %v); lower --clients, --horizon or the profiles, timeouts and policies, or raise --budget",
				o.budget, est, took)
		case est > o.budget/4:
			fmt.Fprintf(stderr, "reconnect simulate timeout: about %d engine steps, about %v\n", est, took)
		}
	}
	prog := newProgress(stderr, "clients simulated")
	o.sweep.Progress = prog.update
	st, err := sim.Run(o.sweep)
	if err != nil {
		return err
	}
	rep := timeoutReport{Seed: o.sweep.Seed, Clients: o.sweep.Clients, Horizon: o.sweep.Horizon, Cost: o.cost, Equivalence: o.eq,
		Cells: st.Cells, Bands: sim.Bands(st, o.cost, o.eq)}
	if slices.Contains(o.sweep.Policies, engine.PolicyWebSocketFirst) && len(o.weights) > 0 {
		mb, err := sim.MixBand(st, o.weights, o.cost, o.eq)
		if err != nil {
			return usagef("--mix: %v", err)
		}
		rep.MixBand = &mb
		total := weightSum(o.weights)
		rep.Mix = map[string]float64{}
		for n, w := range o.weights {
			rep.Mix[n] = w / total
		}
	}
	if chart != nil {
		if err := chart.finish(timeoutChart(rep, o.profiles, o.sweep.Timeouts).WriteSVG); err != nil {
			return err
		}
	}
	write := func(w io.Writer) error {
		if o.asJSON {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(rep)
		}
		printTimeoutReport(w, rep, o.profiles, o.sweep.Timeouts)
		return nil
	}
	if report != nil {
		return report.finish(write)
	}
	return write(stdout)
}
