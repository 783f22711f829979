package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/lab"
)

// storm restarts the lab server under N connected runner clients and
// prints attempts over time beside the simulator's storm with the same
// parameters.
func storm(args []string, out io.Writer) error {
	fs := newFlags("lab storm", "usage: lab storm [flags]", out)
	clients := fs.Int("clients", 2000, "connected clients when the server restarts, 1 to 20000")
	downtime := fs.Duration("downtime", 5*time.Second, "how long the restarting server refuses every connection")
	capacity := fs.Int("capacity", 50, "connections the server accepts per second once up (0: no limit)")
	horizon := fs.Duration("horizon", 5*time.Minute, "how long to watch after the restart")
	row := fs.Duration("row", 10*time.Second, "the table's interval")
	scale := fs.Float64("scale", 1, "multiply every timeout, the downtime, the horizon and the row by this, and divide the capacity by it (0.1: ten times faster)")
	safe := fs.Bool("safe", false, "the storm-safe options (reconnect window 1 s, retry spread 1, suspended spread 0.5, scaled)")
	seed := fs.Uint64("seed", 1, "seed of the simulator's draws")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *clients < 1 || *clients > 20000 || *downtime < 0 || *capacity < 0 || *horizon <= 0 || *row <= 0 || !(*scale > 0 && *scale <= 1) {
		return errors.New("want 1 ≤ -clients ≤ 20000, -downtime and -capacity not negative, positive -horizon and -row, 0 < -scale ≤ 1")
	}
	sc := func(d time.Duration) time.Duration { return time.Duration(float64(d) * *scale) }
	cfg := engine.AblyConfig()
	t := &cfg.Timeouts
	for _, d := range []*time.Duration{&t.DisconnectedRetry, &t.SuspendedRetry, &t.ConnectionStateTTL, &t.RealtimeRequest, &t.HTTPRequest} {
		*d = sc(*d)
	}
	if *safe {
		cfg.ReconnectWindow, cfg.RetrySpread, cfg.SuspendedSpread = sc(time.Second), 1, 0.5
	}
	o := lab.StormOptions{Clients: *clients, Config: cfg, Downtime: sc(*downtime), Capacity: int(float64(*capacity) / *scale),
		Horizon: sc(*horizon), Bucket: sc(100 * time.Millisecond), Seed: *seed,
		Progress: func(s string) { fmt.Fprintf(os.Stderr, "%s  %s\n", time.Now().Format("15:04:05"), s) }}
	simRes, err := lab.SimulateStorm(o)
	if err != nil {
		return err
	}
	run, err := lab.RunStorm(context.Background(), o)
	if err != nil {
		return err
	}
	strategy := "rtb1"
	if *safe {
		strategy = "rtb1-safe"
	}
	fmt.Fprintf(out, "%d clients, %s; the server refuses everything for %v, then accepts %d connections a second; timeouts ×%g (disconnectedRetryTimeout %v, connectionStateTtl %v, suspendedRetryTimeout %v)\n\n",
		*clients, strategy, o.Downtime, o.Capacity, *scale, t.DisconnectedRetry, t.ConnectionStateTTL, t.SuspendedRetry)
	fmt.Fprintln(out, "| | simulator | lab |\n|---|---|---|")
	fmt.Fprintf(out, "| attempts | %d | %d |\n", simRes.Total, run.Total)
	fmt.Fprintf(out, "| peak attempts/s (%v buckets) | %.0f | %.0f |\n", o.Bucket, simRes.PeakPerSecond, run.PeakPerSecond)
	fmt.Fprintf(out, "| retry peak/s | %.0f | %.0f |\n", simRes.RetryPeakPerSecond, run.RetryPeakPerSecond)
	fmt.Fprintf(out, "| half reconnected | %v | %v |\n", simRes.MedianDisconnected.Round(10*time.Millisecond), run.MedianDisconnected.Round(10*time.Millisecond))
	fmt.Fprintf(out, "| 99%% reconnected | %v | %v |\n", simRes.T99.Round(10*time.Millisecond), run.T99.Round(10*time.Millisecond))
	fmt.Fprintf(out, "| reconnected | %d | %d |\n", simRes.Reconnected, run.Reconnected)
	fmt.Fprintf(out, "| every client saw the drop within | 0s | %v |\n\n", run.DropSpread)
	step := int(sc(*row) / o.Bucket)
	fmt.Fprintf(out, "attempts per %v after the restart\n\n| from | simulator | lab |\n|---|---|---|\n", sc(*row))
	sum := func(a []int, k int) int {
		n := 0
		for i := k; i < min(k+step, len(a)); i++ {
			n += a[i]
		}
		return n
	}
	for k := 0; k < max(len(simRes.Attempts), len(run.Attempts)); k += step {
		fmt.Fprintf(out, "| %v | %d | %d |\n", time.Duration(k)*o.Bucket, sum(simRes.Attempts, k), sum(run.Attempts, k))
	}
	return nil
}
