#!/usr/bin/env bash
# instr.sh [N]: instructions per operation, counted by valgrind's callgrind,
# of the heap constructions (e-construct-heap of reconnect, cenkalti/v5 and
# jpillora) and of BenchmarkHeapLayout's two layouts. As
# scripts/instrcmp.sh counts: each benchmark runs with -test.benchtime=N/2x
# and Nx (default N 400000) under GOMAXPROCS=1 GOGC=off
# GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off (valgrind 3.19 does not decode
# rdtscp, which the runtime otherwise executes on a contended lock), the
# difference of the two totals divided by N/2 (start-up cancels out), the
# least of two runs per count. Figures: docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")"
N=${1:-400000}
command -v valgrind >/dev/null || { echo "instr.sh: valgrind is not installed" >&2; exit 2; }
bin=$(mktemp -d)/bench.test
trap 'rm -rf "$(dirname "$bin")"' EXIT
go test -c -o "$bin" .
total() { # total BENCH N: the least Collected of two runs
	local least="" out t
	for _ in 1 2; do
		out=$(GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=callgrind --callgrind-out-file=/dev/null \
			"$bin" -test.run '^$' -test.bench "$1" -test.benchtime "${2}x" -test.count 1 2>&1) && grep -q '^PASS' <<<"$out" ||
			{ echo "$out" >&2; exit 2; }
		t=$(sed -nE 's/^==[0-9]+== Collected : ([0-9]+)$/\1/p' <<<"$out")
		if [ -z "$least" ] || [ "$t" -lt "$least" ]; then least=$t; fi
	done
	echo "$least"
}
printf '%-40s %s\n' benchmark instructions/op
for b in '^BenchmarkAll$/^e-construct-heap$/^reconnect$' '^BenchmarkAll$/^e-construct-heap$/^cenkalti/v5$' \
	'^BenchmarkAll$/^e-construct-heap$/^jpillora$' '^BenchmarkHeapLayout$/^with-source$' '^BenchmarkHeapLayout$/^no-source$'; do
	lo=$(total "$b" $((N / 2)))
	hi=$(total "$b" "$N")
	name=$(sed -E 's/[$^]//g' <<<"$b")
	printf '%-40s %.1f\n' "$name" "$(echo "($hi - $lo) / ($N / 2)" | bc -l)"
done
