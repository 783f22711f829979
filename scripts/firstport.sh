#!/usr/bin/env bash
# firstport.sh [COMMIT [SCENARIO_FILE ...]]: today's scenarios against the
# clean-room Rust port as it was at COMMIT, an oracle independent of the Go
# engine for scenarios whose expectations were produced by replaying them
# through it. Exits 1 when a scenario fails (or none ran), 2 on a usage or
# build error, 0 when every scenario of the files passes.
#
#   scripts/firstport.sh      the port as first committed (bad6bef, written
#                             from the documents alone, before it had run a
#                             fixture) against engine/testdata/scenarios/
#                             18-escapes.txt
#
# How: COMMIT's conformance/rust is checked out in a temporary `git
# worktree` (removed on exit) and built with cargo, offline; the fixtures
# are copied with scenarios.json cut down to the scenarios the files name;
# `reconnect conform --only scenarios` runs them. Needs the history (the
# commit), Go, cargo and Python 3.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
case "${1:-}" in -h | --help) usage ;; esac

prog=firstport.sh
root=$(git rev-parse --show-toplevel)
cd "$root"
# shellcheck source=scripts/lib/basebuild.sh
. scripts/lib/basebuild.sh

basebuild_resolve "${1:-bad6bef}"
shift || true
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(engine/testdata/scenarios/18-escapes.txt)
for f in "${files[@]}"; do
	[ -f "$f" ] || { echo "$prog: $f: no such scenario file" >&2; exit 2; }
done

basebuild_checkout
(cd "$tmp/base/conformance/rust" && CARGO_TARGET_DIR="$tmp/target" cargo build --release --offline --quiet) || {
	echo "$prog: building the Rust port at $base_sha failed" >&2
	exit 2
}
go build -o "$tmp/reconnect" ./cmd/reconnect

cp -r fixtures "$tmp/fixtures"
python3 - "$tmp/fixtures/scenarios.json" "${files[@]}" <<'EOF'
import json, re, sys
path, files = sys.argv[1], sys.argv[2:]
ids = set()
for f in files:
    ids |= set(re.findall(r"^scenario\s+(\S+)", open(f).read(), re.M))
doc = json.load(open(path))
doc["items"] = [s for s in doc["items"] if s["id"] in ids]
missing = ids - {s["id"] for s in doc["items"]}
if missing:
    sys.exit("firstport.sh: not in fixtures/scenarios.json: " + ", ".join(sorted(missing)))
json.dump(doc, open(path, "w"))
print(f"{len(doc['items'])} scenarios of {', '.join(files)}")
EOF

echo "the Rust port at $(git log -1 --format='%h (%ad)' --date=short "$base_sha")"
"$tmp/reconnect" conform --only scenarios --require scenarios --fixtures "$tmp/fixtures" \
	-- "$tmp/target/release/reconnect-conform"
