#!/usr/bin/env bash
# instrcmp.sh [BASE_COMMIT]: the instructions per operation of the hot-path
# benchmarks at BASE_COMMIT and in the current tree, counted by valgrind's
# callgrind, which counts the same whatever else the machine is doing.
# Exits 1 when a benchmark costs more than THRESHOLD percent more
# instructions per operation than at the base (and the CHANGELOG does not
# accept it, below), 2 on a usage, build or tool error, 0 otherwise.
#
#   scripts/instrcmp.sh           against the newest release of CHANGELOG.md
#   scripts/instrcmp.sh 6fbf7d4   against any commit of the history
#
# How: each tree's test binaries are built (the base in a temporary `git
# worktree`, removed on exit; the current tree as it is, uncommitted
# changes included), and each benchmark is run under callgrind with
# -test.benchtime=Nx for two iteration counts, N/2 and N, with GOMAXPROCS=1,
# GOGC=off and GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off. The instructions per operation
# are the difference between the two runs' totals divided by N/2, so what
# the program does once (start-up, the benchmark's set-up, the testing
# package) cancels out. What still varies (the runtime's background thread
# wakes up with the wall clock) is a few hundredths of a percent; each
# count is the least of REPEAT runs, base and current interleaved.
#
# Settings (environment):
#   BENCH      benchmark=N pairs, space-separated (default below); a
#              benchmark is found by name in the packages of ./... of each
#              tree, and one found in only one tree is reported, not compared;
#              benchmark=NxR takes the least of R runs for that benchmark
#              instead of REPEAT (RunnerEvent: its goroutine hand-offs run
#              the engine on one goroutine or another as the runtime's
#              monitor thread preempts them, by the wall clock, so one run
#              in three or four counts 10-40 % more; the least of 8 is
#              the path without the preemption, steady within 1 %)
#   THRESHOLD  the increase in percent that fails (default 3)
#   REPEAT     runs of each count, the least kept (default 2)
#
# Accepting an increase: a line of CHANGELOG.md's "## Unreleased" section,
# under "### Performance", that starts with the benchmark in backquotes, a
# colon and the increase as "+P %" (for example "- `EngineStep`: +6 %
# (…), the new flap guard") raises that benchmark's limit to P + THRESHOLD
# percent.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
[ $# -le 1 ] || usage
case "${1:-}" in -h | --help) usage ;; esac

BENCH=${BENCH:-'RetryDelay=4000000 BackoffNextNilSource=2000000 DecidePending=4000000 EngineStep=120000 RunnerEventInline=10000 RunnerEvent=6000x8'}
THRESHOLD=${THRESHOLD:-3}
REPEAT=${REPEAT:-2}

prog=instrcmp
root=$(cd "$(dirname "$0")/.." && git rev-parse --show-toplevel)
cd "$root"
. "$root/scripts/lib/basebuild.sh"
command -v valgrind >/dev/null || { echo "instrcmp: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }

if [ $# -eq 1 ]; then
	BASE=$1
	label=$1
else
	release=$(grep -m1 -E '^## v[0-9]+\.[0-9]+\.[0-9]+\b.*\bcommit [0-9a-f]{7,40}\b' CHANGELOG.md || true)
	[ -n "$release" ] || { echo "instrcmp: no BASE_COMMIT given and CHANGELOG.md names no release commit" >&2; exit 2; }
	BASE=$(sed -E 's/.*\bcommit ([0-9a-f]{7,40})\b.*/\1/' <<<"$release")
	label="$(sed -E 's/^## (v[0-9]+\.[0-9]+\.[0-9]+).*/\1/' <<<"$release") ($BASE)"
fi
basebuild_resolve "$BASE"
basebuild_checkout
echo "base:    $label: $(git log -1 --format='%h %s' "$base_sha" | cut -c1-72)"
echo "current: $(basebuild_current)"
echo "$(go env GOVERSION), $(valgrind --version), threshold +$THRESHOLD %, least of $REPEAT runs per count (unless BENCH says NxR)"

names=()
for pair in $BENCH; do names+=("${pair%%=*}"); done

alternation=$(IFS='|'; echo "${names[*]}")

# build TREE NAME: the test binaries of TREE's packages whose tests
# declare one of the benchmarks (scripts/lib/basebuild.sh); "benchmark dir
# binary" lines in $tmp/NAME.bins.
build() {
	local tree=$1 name=$2 dir bin b
	basebuild_bins "$tree" "$name" "$alternation"
	while read -r dir bin; do
		for b in $(grep -Ehos "^func Benchmark(${alternation})\(" "$dir"/*_test.go | sed -E 's/^func Benchmark([A-Za-z0-9_]+)\(/\1/'); do
			echo "$b $dir $bin"
		done
	done <"$tmp/$name.bins" >"$tmp/$name.benchmarks"
	mv "$tmp/$name.benchmarks" "$tmp/$name.bins"
}
echo "building the test binaries"
build "$tmp/base" base
build "$root" head

# count NAME BENCHMARK N RUNS: the least total of RUNS callgrind runs of
# the benchmark with -test.benchtime=Nx in tree NAME.
count() {
	local name=$1 b=$2 n=$3 runs=$4 dir bin least="" r total
	read -r _ dir bin < <(grep -E "^$b " "$tmp/$name.bins")
	for r in $(seq "$runs"); do
		# cpu.rdtscp=off: valgrind 3.19's decoder does not know rdtscp,
		# which the runtime otherwise executes to time a contended lock
		# (cputicks in lock2); the run would die of SIGILL.
		total=$(cd "$dir" && GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off \
			valgrind --tool=callgrind --callgrind-out-file=/dev/null \
			"$bin" -test.run '^$' -test.bench "^Benchmark$b\$" -test.benchtime "${n}x" -test.count 1 -test.timeout 10m 2>&1 |
			tee "$tmp/last.log" | sed -nE 's/^==[0-9]+== Collected : ([0-9]+)$/\1/p')
		if [ -z "$total" ] || ! grep -q "^Benchmark$b" "$tmp/last.log"; then
			cat "$tmp/last.log" >&2
			echo "instrcmp: $b did not run in $name" >&2
			exit 2
		fi
		if [ -z "$least" ] || [ "$total" -lt "$least" ]; then least=$total; fi
	done
	echo "$least"
}

# The accepted increases: "benchmark percent" lines from the Performance
# part of the changelog's Unreleased section.
awk '
	/^## / { unreleased = ($0 ~ /^## Unreleased/); perf = 0; next }
	unreleased && /^### / { perf = ($0 ~ /^### Performance/); next }
	unreleased && perf { print }
' CHANGELOG.md 2>/dev/null |
	sed -nE 's/^- `([A-Za-z0-9_]+)`: \+([0-9]+(\.[0-9]+)?) ?%.*/\1 \2/p' >"$tmp/accepted"

printf '\n%-22s %14s %14s %9s  %s\n' benchmark "base instr/op" "current" "current÷base" verdict
failed=()
for pair in $BENCH; do
	b=${pair%%=*}
	n=${pair#*=}
	runs=$REPEAT
	case $n in *x*) runs=${n#*x} n=${n%%x*} ;; esac
	case "$n$runs" in *[!0-9]* | '') echo "instrcmp: bad BENCH entry $pair (want name=N or name=NxR)" >&2; exit 2 ;; esac
	half=$((n / 2))
	inbase=$(grep -c "^$b " "$tmp/base.bins" || true)
	inhead=$(grep -c "^$b " "$tmp/head.bins" || true)
	if [ "$inbase" != 1 ] || [ "$inhead" != 1 ]; then
		printf '%-22s %s\n' "$b" "not compared: found in $inbase package(s) of the base, $inhead of the current tree"
		continue
	fi
	# base and current interleaved, each count the least of REPEAT runs
	b1=$(count base "$b" "$half" "$runs")
	h1=$(count head "$b" "$half" "$runs")
	h2=$(count head "$b" "$n" "$runs")
	b2=$(count base "$b" "$n" "$runs")
	allowed=$(awk -v b="$b" -v t="$THRESHOLD" '$1 == b { a = $2 } END { print (a == "" ? t : a + t) }' "$tmp/accepted")
	awk -v b="$b" -v b1="$b1" -v b2="$b2" -v h1="$h1" -v h2="$h2" -v d="$((n - half))" -v allowed="$allowed" -v thr="$THRESHOLD" '
		BEGIN {
			base = (b2 - b1) / d; head = (h2 - h1) / d
			if (base <= 0 || head <= 0) { printf "%-22s counts do not grow with N (base %s → %s, current %s → %s)\n", b, b1, b2, h1, h2; exit 3 }
			r = head / base; pct = (r - 1) * 100
			verdict = sprintf("%+.2f %%", pct)
			if (pct > allowed) { verdict = verdict sprintf(" REGRESSION, over +%g %%", allowed); code = 1 }
			else if (allowed > thr && pct > thr) verdict = verdict sprintf(" (accepted in CHANGELOG.md: up to +%g %%)", allowed)
			printf "%-22s %14.1f %14.1f %9.4f×  %s\n", b, base, head, r, verdict
			exit code
		}' || {
		case $? in
		1) failed+=("$b") ;;
		*) exit 2 ;;
		esac
	}
done
if [ ${#failed[@]} -gt 0 ]; then
	echo
	echo "instrcmp: more instructions per operation than at the base, over the limit: ${failed[*]}"
	echo "(if the increase is the price of a change, say so under \"### Performance\" in CHANGELOG.md's \"## Unreleased\": \`Name\`: +P %)"
	exit 1
fi
