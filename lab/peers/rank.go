package peers

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// RankKind is the kind of ours the ranking compares with the peers: ours
// at the defaults a user gets (engine.Defaults() and the runner's
// defaults), not a tuned variant such as OursShort.
const RankKind = OursDefaults

// The margin a fault's time allows ours over the best peer's median:
// SlackPercent % of it, and at least SlackFloor (below about 50 ms a
// loopback time is mostly the scheduling of a shared machine).
const (
	SlackPercent = 10
	SlackFloor   = 20 * time.Millisecond
)

// Allowed returns the most time ours may take on a fault and still be
// ahead or level with a best peer's median of best:
// max(best + ⌈best × SlackPercent / 100⌉, best + SlackFloor), in whole
// nanoseconds (no float64 rounding: exactly +10 % is allowed). Never (no
// peer got there) allows anything, Never included; a negative best counts
// as 0; a sum that would pass Never saturates at Never − 1.
func Allowed(best time.Duration) time.Duration {
	if best == Never {
		return Never
	}
	if best < 0 {
		best = 0
	}
	// ⌈best × p / 100⌉ without overflow: whole hundreds, then the rest.
	rest := best % 100 * SlackPercent
	share := best/100*SlackPercent + rest/100 + min(rest%100, 1)
	slack := max(share, SlackFloor)
	if best > Never-1-slack {
		return Never - 1
	}
	return best + slack
}

// Verdict is one fault's ranking: ours' median beside the best peer's,
// and for a restart the accept peaks.
type Verdict struct {
	Fault Fault
	// Ours is ours' median time to the first message (from the client's
	// start, or from the fault for a fault after connected); Never when
	// half never got there.
	Ours time.Duration
	// Best is the lowest median of the peers, and BestKind whose it is;
	// Peers is how many peers were measured under the fault.
	Best     time.Duration
	BestKind Kind
	Peers    int
	// Allowed is Allowed(Best).
	Allowed time.Duration
	// Peaks: for a restart, ours' accept peak per second and the highest
	// of the peers' (HighestKind's); HasPeaks says whether they count.
	HasPeaks           bool
	OursPeak, PeerPeak int
	HighestKind        Kind
	// Ahead is true when ours is ahead or level: Ours ≤ Allowed and, for
	// a restart, OursPeak ≤ PeerPeak. Why says what failed, or why the
	// fault could not be ranked; Measured is false when ours was not.
	Ahead    bool
	Why      string
	Measured bool
}

// Judge decides one fault: ours with median ours is ahead or level with
// a best peer's median best when ours ≤ Allowed(best); with peaks (a
// restart), ours' accept peak must also be no higher than the highest
// peer's (equal counts as level).
func Judge(ours, best time.Duration, peaks bool, oursPeak, peerPeak int) (ahead bool, why string) {
	allowed := Allowed(best)
	switch {
	case ours > allowed:
		return false, fmt.Sprintf("slower: %s over the %s allowed", FormatDuration(ours), FormatDuration(allowed))
	case peaks && oursPeak > peerPeak:
		return false, fmt.Sprintf("herd: %d accepts/s over the peers' %d", oursPeak, peerPeak)
	}
	return true, ""
}

// Ranking returns one Verdict per fault of the run, in the order of
// Options.Faults: RankKind against the best of the peers measured under
// that fault. A fault where RankKind or every peer was not measured is
// not ahead, with the reason in Why.
func (r *Report) Ranking() []Verdict {
	var out []Verdict
	for _, f := range r.Options.Faults {
		v := Verdict{Fault: f, Ours: Never, Best: Never, Allowed: Never, HasPeaks: f == Restart}
		oc, ok := r.Cell(f, RankKind)
		switch {
		case !ok || !slices.Contains(r.Options.Kinds, RankKind):
			v.Why = RankKind.String() + " did not run"
		case oc.Err != nil:
			v.Why = fmt.Sprintf("%s not measured: %v", RankKind, oc.Err)
		}
		if v.Why == "" {
			v.Measured = true
			v.Ours, v.OursPeak = spreadOf(oc.Result.Times).Median, oc.Result.AcceptPeak
		}
		for _, k := range r.Options.Kinds {
			c, ok := r.Cell(f, k)
			if !k.Peer() || !ok || c.Err != nil || len(c.Result.Times) == 0 {
				continue
			}
			m := spreadOf(c.Result.Times).Median
			if v.Peers == 0 || m < v.Best {
				v.Best, v.BestKind = m, k
			}
			if v.Peers == 0 || c.Result.AcceptPeak > v.PeerPeak {
				v.PeerPeak, v.HighestKind = c.Result.AcceptPeak, k
			}
			v.Peers++
		}
		if v.Peers == 0 && v.Why == "" {
			v.Why = "no peer measured"
		}
		v.Allowed = Allowed(v.Best)
		if v.Why == "" {
			v.Ahead, v.Why = Judge(v.Ours, v.Best, v.HasPeaks, v.OursPeak, v.PeerPeak)
		}
		out = append(out, v)
	}
	return out
}

// RankingLine is the ranking's one-line summary: "ours at defaults: ahead
// or level on K of N faults".
func RankingLine(vs []Verdict) string {
	k := 0
	for _, v := range vs {
		if v.Ahead {
			k++
		}
	}
	return fmt.Sprintf("ours at defaults: ahead or level on %d of %d faults", k, len(vs))
}

// WriteRanking writes the ranking: a table with one row per fault (ours'
// median, the best peer's median and which peer, the time allowed, the
// accept peaks for a restart, the verdict), then RankingLine as the last
// line.
func WriteRanking(w io.Writer, vs []Verdict) {
	fmt.Fprintf(w, "\n### ranking: ours at defaults (%s) against the best peer; allowed = max(best + %d %%, best + %v)\n\n", RankKind, SlackPercent, SlackFloor)
	fmt.Fprintln(w, "| fault | ours (median) | best peer (median) | allowed | accept peak/s: ours, highest peer | verdict |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, v := range vs {
		ours, best, allowed, peaks := "–", "–", "–", "–"
		if v.Measured {
			ours = FormatDuration(v.Ours)
		}
		switch {
		case v.Peers > 0 && v.Best == Never:
			best, allowed = "never (no peer got there)", FormatDuration(v.Allowed)
		case v.Peers > 0:
			best, allowed = FormatDuration(v.Best)+", "+v.BestKind.String(), FormatDuration(v.Allowed)
		}
		if v.HasPeaks && v.Measured && v.Peers > 0 {
			peaks = fmt.Sprintf("%d, %d (%s)", v.OursPeak, v.PeerPeak, v.HighestKind)
		}
		verdict := "ahead or level"
		if !v.Ahead {
			verdict = "behind: " + v.Why
		}
		row := []string{v.Fault.String(), ours, best, allowed, peaks, verdict}
		fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, RankingLine(vs))
}
