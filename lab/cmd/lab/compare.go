package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/lab"
)

// compare runs each profile of a profile file in the simulator and on
// real sockets, and prints the Markdown table of the README.
func compare(args []string, out io.Writer) error {
	fs := newFlags("lab compare", "usage: lab compare [flags]", out)
	file := fs.String("profile-file", "profiles.json", "the profile file (the simulator's --profile-file format)")
	names := fs.String("profiles", "all", "profiles to run, comma-separated, or all")
	clients := fs.Int("clients", 200, "clients per profile on each side, 1 to 5000")
	shortCircuit := fs.Duration("short-circuit", reconnect.DefaultShortCircuit, "the short-circuit timeout")
	horizon := fs.Duration("horizon", time.Minute, "a client not connected after this long counts as this long")
	spread := fs.Duration("spread", 2*time.Second, "spread the lab's connect requests over this long")
	seed := fs.Uint64("seed", 1, "seed of both sides' draws")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *clients < 1 || *clients > 5000 || *shortCircuit <= 0 || *horizon <= 0 || *spread < 0 {
		return errors.New("want 1 ≤ -clients ≤ 5000, positive -short-circuit and -horizon, -spread not negative")
	}
	data, err := os.ReadFile(*file)
	if err != nil {
		return err
	}
	ps, err := lab.ParseProfiles(data)
	if err != nil {
		return err
	}
	if *names != "all" {
		want := strings.Split(*names, ",")
		var keep []lab.Profile
		for _, n := range want {
			found := false
			for _, p := range ps {
				if p.Name == n {
					keep, found = append(keep, p), true
				}
			}
			if !found {
				return fmt.Errorf("-profiles: %q is not in %s", n, *file)
			}
		}
		ps = keep
	}
	cfg := engine.AblyConfig()
	cfg.ShortCircuit = *shortCircuit
	fmt.Fprintf(out, "short circuit %v, %d clients per profile and side, horizon %v, lab connect requests spread over %v\n\n",
		*shortCircuit, *clients, *horizon, *spread)
	fmt.Fprintln(out, lab.RowHeader)
	for _, p := range ps {
		c, err := lab.Compare(context.Background(), p, lab.CompareOptions{Config: cfg, Clients: *clients, Horizon: *horizon, Spread: *spread, Seed: *seed})
		if err != nil {
			fmt.Fprintf(out, "| %s | – | %v |\n", p.Name, err)
			continue
		}
		fmt.Fprintln(out, c.Row())
		fmt.Fprintf(os.Stderr, "  %s: lab %d websocket, %d HTTP; %d connect requests (%d on fallback hosts), sim %.2f opened per connection (%.2f on fallback hosts); lab run %v\n",
			p.Name, c.LabWS, c.LabHTTP, c.ConnectRequests, c.FallbackRequests, c.SimOpened, c.SimFallbackOpened, c.Elapsed.Round(time.Millisecond))
	}
	return nil
}
