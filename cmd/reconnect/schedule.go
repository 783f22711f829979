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
		return usagef("--initial %v: want a positive duration, such as 15s", *initial)
	}
	if *attempts < 1 || *attempts > maxScheduleAttempts {
		return usagef("--attempts %d: want a whole number from 1 to %d", *attempts, maxScheduleAttempts)
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
	unit := displayUnit(*initial)
	fmt.Fprintf(stdout, "RTB1 retry schedule for initial %v; sampled delays %s; times to the nearest %s\n\n", *initial, how, unitName(unit))
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "attempt\tcoefficient\tlower\tupper\tsampled\t")
	for _, r := range rep.Rows {
		fmt.Fprintf(tw, "%d\t%.4f\t%v\t%v\t%v\t\n", r.Attempt, r.Coefficient,
			time.Duration(r.LowerNs).Round(unit), time.Duration(r.UpperNs).Round(unit), time.Duration(r.SampledNs).Round(unit))
	}
	return tw.Flush()
}

// ms converts a duration to milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// displayUnit is the unit the table rounds to: a millisecond for an
// initial timeout of a second or more, a microsecond from a millisecond,
// a nanosecond below that, so that the table keeps three significant
// digits of the smallest delay (0.8 × initial) and never shows 0 for a
// positive delay.
func displayUnit(initial time.Duration) time.Duration {
	switch {
	case initial >= time.Second:
		return time.Millisecond
	case initial >= time.Millisecond:
		return time.Microsecond
	}
	return time.Nanosecond
}

func unitName(u time.Duration) string {
	switch u {
	case time.Millisecond:
		return "millisecond"
	case time.Microsecond:
		return "microsecond"
	}
	return "nanosecond"
}
