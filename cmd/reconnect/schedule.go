package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/reconnect-go/reconnect"
)

// maxScheduleAttempts bounds --attempts: the coefficient is flat from
// attempt 4 on, so longer tables say nothing new.
const maxScheduleAttempts = 10000

type scheduleRow struct {
	Attempt     int     `json:"attempt"`
	Coefficient float64 `json:"coefficient"`
	LowerMs     float64 `json:"lowerMs"`
	UpperMs     float64 `json:"upperMs"`
	SampledMs   float64 `json:"sampledMs"`
	LowerNs     int64   `json:"lowerNs"`
	UpperNs     int64   `json:"upperNs"`
	SampledNs   int64   `json:"sampledNs"`
}

type scheduleReport struct {
	Spec      string        `json:"spec"`
	InitialMs float64       `json:"initialMs"`
	Seed      *uint64       `json:"seed,omitempty"`
	Rows      []scheduleRow `json:"attempts"`
}

func runSchedule(args []string, stdout, _ io.Writer) error {
	fs := newFlagSet("schedule", "[--initial D] [--attempts N] [--seed N] [--json]", stdout)
	initial := fs.Duration("initial", reconnect.DefaultTimeouts().DisconnectedRetry, "initial retry timeout (disconnectedRetryTimeout), e.g. 15s or 2500ms")
	attempts := fs.Int("attempts", 8, fmt.Sprintf("number of retries to show, 1 to %d", maxScheduleAttempts))
	seed := fs.Uint64("seed", 0, "seed for the sampled delays; without it they differ on every run")
	asJSON := fs.Bool("json", false, "write JSON instead of a table")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *initial <= 0 {
		return usagef("--initial must be positive, got %v", *initial)
	}
	if *attempts < 1 || *attempts > maxScheduleAttempts {
		return usagef("--attempts must be between 1 and %d, got %d", maxScheduleAttempts, *attempts)
	}
	var src reconnect.Source // nil: the Backoff's own unseeded stream
	seeded := fs.given("seed")
	rep := scheduleReport{Spec: "RTB1", InitialMs: ms(*initial)}
	if seeded {
		src = rand.New(rand.NewPCG(*seed, 0))
		rep.Seed = seed
	}
	b := reconnect.NewBackoff(*initial, src)
	for range *attempts {
		n := b.Attempt()
		d := b.Next()
		lo, hi := reconnect.RetryBounds(*initial, n)
		rep.Rows = append(rep.Rows, scheduleRow{
			Attempt: n, Coefficient: reconnect.BackoffCoefficient(n),
			LowerMs: ms(lo), UpperMs: ms(hi), SampledMs: ms(d),
			LowerNs: int64(lo), UpperNs: int64(hi), SampledNs: int64(d),
		})
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	how := "unseeded (pass --seed N to reproduce)"
	if seeded {
		how = "seed " + strconv.FormatUint(*seed, 10)
	}
	fmt.Fprintf(stdout, "RTB1 retry schedule for initial %v; sampled delays %s\n\n", *initial, how)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "attempt\tcoefficient\tlower\tupper\tsampled\t")
	for _, r := range rep.Rows {
		fmt.Fprintf(tw, "%d\t%.4f\t%v\t%v\t%v\t\n", r.Attempt, r.Coefficient,
			show(time.Duration(r.LowerNs)), show(time.Duration(r.UpperNs)), show(time.Duration(r.SampledNs)))
	}
	return tw.Flush()
}

// ms converts a duration to milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// show rounds a duration to the millisecond for display.
func show(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
