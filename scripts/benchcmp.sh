#!/usr/bin/env bash
# benchcmp.sh BASE_COMMIT: the hot-path benchmarks of BASE_COMMIT and of the
# current tree, run in one session, alternating round by round, compared
# with benchstat. Exits 1 only on a regression that is both significant
# (benchstat, p < 0.05) and larger than THRESHOLD percent of time per
# operation, in the run and again in a second run of the regressed
# benchmarks alone; 2 on a usage or build error; 0 otherwise.
#
#   scripts/benchcmp.sh 6fbf7d4
#   COUNT=10 BENCHTIME=200ms scripts/benchcmp.sh 6fbf7d4
#
# Settings (environment):
#   BENCH      benchmark names to run, a regular expression matched against
#              the function names without "Benchmark" (default: the hot
#              paths, RetryDelay, DecidePending, Backoff.Next, Engine.Step
#              and the runner's per-event cost, without and with Inline)
#   COUNT      rounds (default 6); each round runs every benchmark once in
#              each tree, base first in odd rounds and current first in even
#              ones, so that a machine getting slower or faster during the
#              run weighs on both sides alike
#   BENCHTIME  -benchtime of each run (default 100ms)
#   THRESHOLD  the slowdown in percent that counts as a regression when
#              benchstat also calls it significant (default 15: this is a
#              noisy shared 2-core machine)
#   KEEP       a directory to keep the raw results in (base.txt, head.txt)
#
# The benchmarks are found by name in every package of the module (./...)
# of each tree, so a benchmark that moved to another package is still
# compared with itself (benchstat is told to ignore the package). One that
# exists in only one tree is reported and not compared; a name must be
# unique among the packages of one tree. The "current tree"
# is the working tree as it is, uncommitted changes included; the base is a
# temporary `git worktree` of BASE_COMMIT, always removed on exit.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
[ $# -eq 1 ] || usage
case "$1" in -h | --help) usage ;; esac

BASE=$1
BENCH=${BENCH:-'RetryDelay|DecidePending|BackoffNext[A-Za-z]*|EngineStep|RunnerEvent|RunnerEventInline'}
COUNT=${COUNT:-6}
BENCHTIME=${BENCHTIME:-100ms}
THRESHOLD=${THRESHOLD:-15}
pattern="^Benchmark(${BENCH})\$"

prog=benchcmp
root=$(cd "$(dirname "$0")/.." && git rev-parse --show-toplevel)
cd "$root"
. "$root/scripts/lib/basebuild.sh"
basebuild_resolve "$BASE"
basebuild_checkout
echo "base:    $BASE ($(git log -1 --format='%h %s' "$base_sha" | cut -c1-72))"
echo "current: $(basebuild_current) in $root"
echo "$(go env GOVERSION), $(nproc 2>/dev/null || echo '?') CPUs, pattern $pattern, $COUNT rounds, -benchtime $BENCHTIME, threshold $THRESHOLD%"

echo "building the test binaries"
basebuild_bins "$tmp/base" base "$BENCH" list
basebuild_bins "$root" head "$BENCH" list

# run NAME PATTERN: every binary of NAME once, from its package directory,
# appended to $tmp/NAME.txt.
run() {
	local name=$1 pat=$2 dir bin
	while read -r dir bin; do
		(cd "$dir" && "$bin" -test.run '^$' -test.bench "$pat" -test.benchtime "$BENCHTIME" \
			-test.count 1 -test.benchmem -test.timeout 10m) >>"$tmp/$name.txt" || {
			echo "benchcmp: a benchmark failed in $name" >&2
			exit 2
		}
	done <"$tmp/$name.bins"
}

# measure PATTERN: COUNT alternating rounds into fresh base.txt and head.txt.
measure() {
	: >"$tmp/base.txt"
	: >"$tmp/head.txt"
	for round in $(seq 1 "$COUNT"); do
		printf 'round %d/%d\n' "$round" "$COUNT"
		if [ $((round % 2)) -eq 1 ]; then run base "$1"; run head "$1"; else run head "$1"; run base "$1"; fi
	done
}

# compare: benchstat's table, then the verdict from its CSV: for each
# benchmark in both trees, the ratio of the medians with both confidence
# intervals, and whether it is a regression (significant and above the
# threshold) on sec/op. The names of the regressions go to $tmp/regressed.
compare() {
	(cd "$root/bench" &&
		go tool benchstat -ignore pkg "base=$tmp/base.txt" "current=$tmp/head.txt" &&
		go tool benchstat -ignore pkg -format csv "base=$tmp/base.txt" "current=$tmp/head.txt" >"$tmp/stat.csv" 2>/dev/null)
	echo
	echo "current ÷ base, time per operation (median [95% CI] of each side):"
	awk -F, -v thr="$THRESHOLD" -v out="$tmp/regressed" '
		function num(s) { gsub(/[^0-9.eE+-]/, "", s); return s + 0 }
		BEGIN { printf "" > out }
		$1 == "" { if ($3 == "CI") unit = $2; next }
		unit == "sec/op" && NF >= 7 && $1 != "geomean" {
			b = num($2); h = num($4)
			if (b <= 0 || h <= 0) next
			sig = ($6 != "~" && $6 != "")
			pct = (h / b - 1) * 100
			verdict = "same within noise"
			if (sig) verdict = sprintf("%+.1f%% (significant, %s)", pct, $7)
			if (sig && pct > thr) {
				verdict = verdict " REGRESSION, over " thr "%"
				name = $1; sub(/-[0-9]+$/, "", name); print name > out
			}
			printf "  %-28s %6.3f×   base %.4g ns ±%s   current %.4g ns ±%s   %s\n", $1, h / b, b * 1e9, $3, h * 1e9, $5, verdict
		}
	' "$tmp/stat.csv"
}

measure "$pattern"
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP" && cp "$tmp/base.txt" "$tmp/head.txt" "$KEEP/"
fi

names() { grep -oE '^Benchmark[^ 	]+' "$1" | sed -E 's/^Benchmark//; s/-[0-9]+$//' | sort -u; }
names "$tmp/base.txt" >"$tmp/base.names"
names "$tmp/head.txt" >"$tmp/head.names"
only_base=$(comm -23 "$tmp/base.names" "$tmp/head.names")
only_head=$(comm -13 "$tmp/base.names" "$tmp/head.names")

echo
compare
for n in $only_base; do echo "  $n: only in the base, not compared"; done
for n in $only_head; do echo "  $n: only in the current tree, not compared"; done

# A regression must show again in a second run of its own (COUNT more
# rounds of the regressed benchmarks alone): a burst of load from another
# process can make one side look slower for a whole run.
if [ -s "$tmp/regressed" ]; then
	again="^Benchmark($(paste -sd'|' "$tmp/regressed"))\$"
	echo
	echo "confirming: $(paste -sd' ' "$tmp/regressed"), $COUNT more rounds"
	measure "$again"
	echo
	compare
	if [ -s "$tmp/regressed" ]; then
		echo "benchcmp: a regression over $THRESHOLD%, confirmed by a second run: $(paste -sd' ' "$tmp/regressed")"
		exit 1
	fi
	echo "not confirmed by the second run: noise"
fi
exit 0
