#!/usr/bin/env bash
# Mutation testing of the library packages (the module root, engine/ and
# runner/) with gremlins v0.6.0 (go install
# github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0):
#
#   scripts/mutation.sh [--required | --others | --runner] [report.json]
#
# --required mutates only the files with an efficacy target of their own
# (engine/*.go, fallback.go, backoff.go, jitter.go), --others the rest of
# the module root, --runner runner/*.go; without any, every file of the
# three packages (the three parts take about 2, 5 and 1 minutes on 2 idle
# cores, several times that on a loaded machine; the whole, their sum).
# scripts/mutation-uncovered.sh runs the mutants the report lists as not
# covered.
#
# gremlins gathers coverage over ./... and then runs the package's tests
# once per mutant. To keep that to the library, the script copies the
# packages, the fixtures and the internal packages their tests import
# (internal/conform without its own slow tests, internal/fixturetest,
# internal/rows) into a temporary module, without docs_test.go (it checks
# the repository's documentation, not code), and runs gremlins there: two
# workers, under nice, each mutant's test run with -short and without
# go vet, and a
# timeout of 15 times the unmutated run (compiling a mutant dominates). It
# prints killed, lived, timed out and not covered mutants and the efficacy,
# killed ÷ (killed + lived), per file and for all the files mutated.
set -euo pipefail
scope=all
if [[ ${1:-} == --required || ${1:-} == --others || ${1:-} == --runner ]]; then
	scope=${1#--}
	shift
fi
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$root/mutation-report.json}")
gremlins=$(command -v gremlins || echo "$(go env GOPATH)/bin/gremlins")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
# shellcheck source=scripts/lib/mutcopy.sh
. scripts/lib/mutcopy.sh
mutcopy_module "$root" "$tmp"
exclude=(-E '^internal/')
for f in $(cd "$tmp" && ls *.go engine/*.go runner/*.go | grep -v '_test\.go$'); do
	part=others
	[[ $f =~ ^(engine/.*|fallback|backoff|jitter)\.go$ ]] && part=required
	[[ $f =~ ^runner/ ]] && part=runner
	if [[ $scope != all && $scope != "$part" ]]; then
		exclude+=(-E "^${f//./\\.}\$")
	fi
done
cd "$tmp"
start=$(date +%s)
GOFLAGS="-short -vet=off" nice -n 10 "$gremlins" unleash --workers 2 --test-cpu 1 --timeout-coefficient 15 \
	"${exclude[@]}" -o "$out" . | grep -v '^ *KILLED' || true
echo "gremlins ran for $((($(date +%s) - start) / 60)) min"
python3 - "$out" <<'PY'
import json, sys, collections
r = json.load(open(sys.argv[1]))
per = collections.defaultdict(collections.Counter)
for f in r.get("files", []):
    for m in f.get("mutations", []):
        per[f["file_name"]][m["status"]] += 1
def row(name, c):
    k, l = c["KILLED"], c["LIVED"]
    eff = 100.0 * k / (k + l) if k + l else float("nan")
    print("%-24s %7d %6d %10d %12d %9.1f%%" % (name, k, l, c["TIMED OUT"], c["NOT COVERED"], eff))
print("%-24s %7s %6s %10s %12s %10s" % ("file", "killed", "lived", "timed out", "not covered", "efficacy"))
tot = collections.Counter()
pkgs = {"engine/": collections.Counter(), "runner/": collections.Counter()}
for name in sorted(per):
    row(name, per[name])
    tot.update(per[name])
    for prefix, c in pkgs.items():
        if name.startswith(prefix):
            c.update(per[name])
for prefix, c in pkgs.items():
    if c:
        row(prefix + "*.go", c)
row("all mutated", tot)
PY
