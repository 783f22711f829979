// Command timeoutconfirm checks the simulator's short-circuit band on real
// sockets: for each profile it runs the simulator and the lab at each
// timeout and prints a Markdown table of the mean time to CONNECTED and
// its difference from the first timeout, with 95 % intervals and verdicts
// against the practical-equivalence threshold (docs/short-circuit.md).
//
//	go run ./cmd/timeoutconfirm -clients 40
//
// Every byte goes to 127.0.0.1.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect/lab"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "timeoutconfirm:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("timeoutconfirm", flag.ContinueOnError)
	profiles := fs.String("profiles", "healthy,proxy-blackholes-websocket", "built-in profiles, comma-separated")
	timeouts := fs.String("timeouts", "250ms,375ms,500ms,1s,2s", "short-circuit timeouts; the first is the reference")
	clients := fs.Int("clients", 40, "lab clients per timeout, 2 to 50 (the machine is shared)")
	simClients := fs.Int("sim-clients", 2000, "simulated clients per timeout")
	horizon := fs.Duration("horizon", 30*time.Second, "a client not connected by then counts as this long")
	spread := fs.Duration("spread", 500*time.Millisecond, "spread the lab's connect requests over this long")
	threshold := fs.Duration("threshold", 10*time.Millisecond, "differences within ± this are the same")
	seed := fs.Uint64("seed", 1, "seed of both sides' draws")
	rounds := fs.Int("rounds", 4, "lab runs per timeout, taken round-robin over the timeouts")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *clients < 2 || *clients > 50 || *simClients < 2 || *simClients > 100000 {
		return errors.New("want 2 ≤ -clients ≤ 50 and 2 ≤ -sim-clients ≤ 100000")
	}
	var ts []time.Duration
	for _, s := range strings.Split(*timeouts, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil || d <= 0 {
			return fmt.Errorf("-timeouts: %q is not a positive duration", s)
		}
		ts = append(ts, d)
	}
	all := lab.BuiltinProfiles()
	var out []lab.TimeoutConfirmation
	for _, name := range strings.Split(*profiles, ",") {
		var p *lab.Profile
		for i := range all {
			if all[i].Name == name {
				p = &all[i]
			}
		}
		if p == nil {
			return fmt.Errorf("-profiles: no built-in profile %q", name)
		}
		c, err := lab.ConfirmTimeouts(context.Background(), *p, lab.TimeoutConfirmOptions{Timeouts: ts, SimClients: *simClients,
			LabClients: *clients, Horizon: *horizon, Spread: *spread, Seed: *seed, Rounds: *rounds})
		if err != nil {
			return err
		}
		out = append(out, c)
	}
	fmt.Print(lab.Markdown(out, threshold.Seconds()))
	return nil
}
