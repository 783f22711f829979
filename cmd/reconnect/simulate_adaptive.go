package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/internal/sim"
)

// runSimulateAdaptive is simulate adaptive: the adaptive short circuit's
// rules against the fixed timer, profile by profile and for the mix,
// paired client by client (docs/short-circuit.md, The adaptive short
// circuit).
func runSimulateAdaptive(args []string, stdout, _ io.Writer) error {
	fs := newFlagSet("simulate adaptive", "[flags]", stdout)
	clients := fs.Int("clients", 2000, "simulated clients per cell, 1 to 100000")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same output")
	ceilings := fs.String("ceilings", "250ms,500ms,1s,2s", "short circuits: the fixed timers, and the adaptive rule's ceilings (above 0s, at most 10m)")
	multiples := fs.String("multiples", "2,3,4", "the rule's multiples k of the dial round trip, each from 1 to 100")
	floors := fs.String("floors", "100ms,250ms", "the rule's floors, each from 0s to 10m")
	profiles := fs.String("profiles", "all", "profiles to simulate, comma-separated, or all")
	profileFile := fs.String("profile-file", "", "a JSON file of extra profiles (same form as the built-in ones)")
	mix := fs.String("mix", defaultMix, "the profile mix, name=weight,…")
	perWasted := fs.Float64("cost-per-wasted", 0.05, "cost of one transport closed while still healthy, in seconds of wait, 0 to 1e9")
	horizon := fs.Duration("horizon", 5*time.Minute, "give up on a client after this long, at most 24h")
	asJSON := fs.Bool("json", false, "write JSON instead of tables")
	if err := fs.parse(args); err != nil {
		return err
	}
	switch {
	case *clients < 1 || *clients > 100000:
		return usagef("--clients %d: want a whole number from 1 to 100000", *clients)
	case *horizon <= 0 || *horizon > 24*time.Hour:
		return usagef("--horizon %v: want a duration above 0s and at most 24h", *horizon)
	case !(*perWasted >= 0 && *perWasted <= maxWeight):
		return usagef("--cost-per-wasted %v: want a number from 0 to 1e9", *perWasted)
	}
	durs := func(flag, s string, min time.Duration) ([]time.Duration, error) {
		var out []time.Duration
		for _, x := range splitList(s) {
			d, err := time.ParseDuration(x)
			if err != nil || d < min || d > 10*time.Minute || (min == 0 && d < 0) {
				return nil, usagef("--%s %s: want durations from %v to 10m", flag, x, min)
			}
			out = append(out, d)
		}
		if len(out) == 0 {
			return nil, usagef("--%s %q: want at least one", flag, s)
		}
		return out, nil
	}
	cs, err := durs("ceilings", *ceilings, time.Nanosecond)
	if err != nil {
		return err
	}
	fl, err := durs("floors", *floors, 0)
	if err != nil {
		return err
	}
	var ks []float64
	for _, x := range splitList(*multiples) {
		k, err := strconv.ParseFloat(x, 64)
		if err != nil || !(k >= 1 && k <= 100) {
			return usagef("--multiples %s: want numbers from 1 to 100", x)
		}
		ks = append(ks, k)
	}
	if len(ks) == 0 {
		return usagef("--multiples %q: want at least one", *multiples)
	}
	chosen := sim.Builtin()
	if *profileFile != "" {
		data, err := os.ReadFile(*profileFile)
		if err != nil {
			return usagef("--profile-file %s: %v", *profileFile, err)
		}
		extra, err := sim.ParseProfiles(data)
		if err != nil {
			return usagef("--profile-file %s: %v", *profileFile, err)
		}
		if chosen, err = sim.Merge(chosen, extra, false); err != nil {
			return usagef("--profile-file %s: %v", *profileFile, err)
		}
	}
	if *profiles != "all" {
		if chosen, err = sim.Select(chosen, splitList(*profiles)); err != nil {
			return usagef("--profiles: %v", err)
		}
	}
	weights, err := parseMix(*mix)
	if err != nil {
		return usagef("--mix: %v", err)
	}
	base := engine.AblyConfig()
	rows, err := sim.CompareAdaptive(sim.AdaptiveConfig{
		Sweep: sim.SweepConfig{Profiles: chosen, Timeouts: cs, Clients: *clients, Horizon: *horizon, Seed: *seed, Base: base},
		Rules: sim.AdaptiveRules(ks, fl), Cost: sim.Cost{PerSecond: 1, PerWasted: *perWasted}, Mix: weights,
	})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	printAdaptive(stdout, rows, *clients, *seed, *perWasted)
	return nil
}

// printAdaptive writes one Markdown table per profile (the mix last).
func printAdaptive(w io.Writer, rows []sim.AdaptiveRow, clients int, seed uint64, perWasted float64) {
	fmt.Fprintf(w, "simulate adaptive: websocket-first, %d clients a profile, seed %d; cost = time to CONNECTED + %g s per healthy transport thrown away, ms per connection; differences paired client by client, 95 %% intervals\n",
		clients, seed, perWasted)
	iv := func(i sim.Interval) string { return fmt.Sprintf("%+.0f [%+.0f, %+.0f]", i.Value, i.Lo, i.Hi) }
	last := ""
	for _, r := range rows {
		if r.Profile != last {
			last = r.Profile
			fmt.Fprintf(w, "\n%s (best fixed timer %v)\n\n", r.Profile, r.BestFixed)
			fmt.Fprintln(w, "| short circuit | rule | cost | mean to CONNECTED | wasted | vs the fixed timer | vs the best fixed timer |")
			fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
		}
		rule := "fixed"
		if r.Rule.On() {
			rule = fmt.Sprintf("%g × rtt, floor %v", r.Rule.Multiple, r.Rule.Floor)
		}
		vsFixed := iv(r.VsFixed)
		if !r.Rule.On() {
			vsFixed = ""
		}
		fmt.Fprintf(w, "| %v | %s | %.0f ± %.0f | %.0f ± %.0f | %.2f | %s | %s |\n", r.Ceiling, rule, r.Cost.Value, r.Cost.Half(),
			r.Mean.Value, r.Mean.Half(), r.Wasted.Value, vsFixed, strings.TrimSpace(iv(r.VsBest)))
	}
}
