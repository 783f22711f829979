#!/usr/bin/env bash
# mutation-uncovered.sh REPORT.json [REPORT.json ...]: the mutants a
# gremlins report (scripts/mutation.sh) lists as NOT COVERED, run by hand.
#
# gremlins runs a mutant only where the coverage profile of the package's
# own tests counts its line: constant expressions, the conditions of
# `switch { case …: }` clauses and lines no test of the package runs are
# not counted, so their mutants are reported and never run. This script
# applies each of them to a copy of the module (scripts/lib/mutcopy.sh),
# the same operator change gremlins would make at the same line and column:
#
#   CONDITIONALS_BOUNDARY  < ↔ <=, > ↔ >=
#   CONDITIONALS_NEGATION  == ↔ !=, < ↔ >=, > ↔ <=
#   ARITHMETIC_BASE        + ↔ -, * ↔ /, % → *
#   INVERT_NEGATIVES       - → +
#
# and runs the mutated file's package tests with the flags gremlins uses
# (GOFLAGS="-short -vet=off", -failfast, -cpu 1), two mutants at a time in
# two copies, each bounded by TIMEOUT (default 300 s). A mutant is killed
# when a test fails, lived when every test passes, not viable when it does
# not compile (a string constant subtracted), timed out past TIMEOUT, and
# equivalent when it lived and is one of the mutants listed in the script
# with its proof. Prints one line per mutant that was not killed, then per
# file and in all: killed, lived, equivalent, not viable, timed out. Exits 1
# when a mutant lived (and is not listed as equivalent) or timed out, 2 on
# a usage error, 0 otherwise.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
case "$1" in -h | --help) usage ;; esac

root=$(cd "$(dirname "$0")/.." && pwd)
reports=()
for r in "$@"; do reports+=("$(realpath "$r")"); done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
cd "$root"
# shellcheck source=scripts/lib/mutcopy.sh
. scripts/lib/mutcopy.sh
for w in 0 1; do
	mkdir "$tmp/w$w"
	mutcopy_module "$root" "$tmp/w$w"
done

TIMEOUT="${TIMEOUT:-300}" python3 - "$tmp" "${reports[@]}" <<'PY'
import collections, concurrent.futures, json, os, subprocess, sys

tmp, reports = sys.argv[1], sys.argv[2:]
timeout = int(os.environ["TIMEOUT"])
swap = {
    "CONDITIONALS_BOUNDARY": {"<": "<=", "<=": "<", ">": ">=", ">=": ">"},
    "CONDITIONALS_NEGATION": {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"},
    "ARITHMETIC_BASE": {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*"},
    "INVERT_NEGATIVES": {"-": "+"},
}
# Mutants that change no result, each with its proof: they live, and are
# counted as equivalent only when they do.
equivalent = {
    ("jitter.go", "case !(u > 0)", "CONDITIONALS_BOUNDARY"):
        "clampUnit(-0) gives -0 instead of +0; every caller gives the same result for both",
    ("jitter.go", "case u > 1", "CONDITIONALS_BOUNDARY"):
        "at u = 1 both clauses return 1",
}
todo = []
for r in reports:
    for f in json.load(open(r)).get("files", []):
        for m in f.get("mutations", []):
            if m["status"] == "NOT COVERED":
                todo.append((f["file_name"], m["line"], m["column"], m["type"]))
todo = sorted(set(todo))
if not todo:
    sys.exit("mutation-uncovered.sh: the reports list no NOT COVERED mutant: nothing ran")

def mutate(src, line, col, kind):
    lines = src.split("\n")
    text = lines[line - 1]
    i = col - 1
    for op in sorted(swap[kind], key=len, reverse=True):
        if text.startswith(op, i):
            lines[line - 1] = text[:i] + swap[kind][op] + text[i + len(op):]
            return "\n".join(lines), op
    raise SystemExit(f"mutation-uncovered.sh: no {kind} operator at {line}:{col}: {text.strip()}")

def equivalence(src, item):
    """The proof listed for the mutant at item, or None: a mutant is named
    by its file, its line's text up to the first ':' and its kind."""
    name, line, _, kind = item
    return equivalent.get((name, src.split("\n")[line - 1].strip().split(":")[0], kind))

def run(worker, item):
    name, line, col, kind = item
    path = os.path.join(tmp, f"w{worker}", name)
    src = open(path).read()
    mutated, op = mutate(src, line, col, kind)
    open(path, "w").write(mutated)
    env = dict(os.environ, GOFLAGS="-short -vet=off")
    pkg = "./" + os.path.dirname(name) if os.path.dirname(name) else "."
    try:
        p = subprocess.run(["nice", "-n", "10", "go", "test", "-count=1", "-failfast", "-cpu", "1", pkg],
                           cwd=os.path.join(tmp, f"w{worker}"), env=env, capture_output=True, text=True,
                           timeout=timeout)
        out = p.stdout + p.stderr
        if p.returncode == 0:
            status = "EQUIVALENT" if equivalence(src, item) else "LIVED"
        elif "[build failed]" in out or "[setup failed]" in out:
            status = "NOT VIABLE"
        else:
            status = "KILLED"
    except subprocess.TimeoutExpired:
        status = "TIMED OUT"
    finally:
        open(path, "w").write(src)
    return item, op, status, equivalence(src, item) if status == "EQUIVALENT" else None

queues = [todo[0::2], todo[1::2]]
results = []
def worker(w):
    return [run(w, item) for item in queues[w]]
with concurrent.futures.ThreadPoolExecutor(2) as ex:
    for rs in ex.map(worker, [0, 1]):
        results += rs

per = collections.defaultdict(collections.Counter)
bad = 0
for (name, line, col, kind), op, status, proof in sorted(results):
    per[name][status] += 1
    if status != "KILLED":
        print(f"{status:10} {kind} {op} → {swap[kind][op]} at {name}:{line}:{col}")
    if proof:
        print(f"           {proof}")
    bad += status in ("LIVED", "TIMED OUT")
cols = ["KILLED", "LIVED", "EQUIVALENT", "NOT VIABLE", "TIMED OUT"]
print("%-24s %7s %6s %11s %11s %10s" % ("file", "killed", "lived", "equivalent", "not viable", "timed out"))
tot = collections.Counter()
for name in sorted(per):
    print("%-24s %7d %6d %11d %11d %10d" % (name, *(per[name][c] for c in cols)))
    tot.update(per[name])
print("%-24s %7d %6d %11d %11d %10d" % ("all", *(tot[c] for c in cols)))
sys.exit(1 if bad else 0)
PY
