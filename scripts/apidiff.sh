#!/usr/bin/env bash
# apidiff.sh [--check | --markdown]: the changes to the exported API of the
# library module (the packages reconnect, engine, runner and fixtures; not
# internal/ nor cmd/) since the last release, by golang.org/x/exp's apidiff.
# The release is the newest "## vX.Y.Z … commit HASH" heading of
# CHANGELOG.md: its commit is checked out into a temporary `git worktree`
# (tags are not needed, only the history), and compared with the working
# tree as it is, uncommitted changes included.
#
#   scripts/apidiff.sh             every change, incompatible first, one
#                                  identifier a line (reconnect.RetryDelay,
#                                  engine.Config.HTTPOpen, runner.Runner.State)
#   scripts/apidiff.sh --markdown  the incompatible changes that the
#                                  CHANGELOG's "## Unreleased" section does
#                                  not name yet, as lines to paste under its
#                                  "### Breaking" (the what is yours to say)
#   scripts/apidiff.sh --check     exits 1 unless every incompatible change
#                                  is named, as `identifier` in backquotes,
#                                  under "### Breaking" in "## Unreleased"
#                                  (CI runs this)
#
# Exit status: 0 fine, 1 an incompatible change the CHANGELOG does not name
# (--check only), 2 a usage, build or history error (a shallow clone
# without the release commit: fetch the full history).
#
# Settings (environment): APIDIFF, the apidiff command (default: `go run`
# of the pinned version below, fetched through the module proxy once).
set -euo pipefail

APIDIFF_VERSION=v0.0.0-20261113113407-e3970619a1a4 # golang.org/x/exp
MODULE=github.com/reconnect-go/reconnect

mode=list
case "${1:-}" in
"") ;;
--check) mode=check ;;
--markdown) mode=markdown ;;
*) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/.." && git rev-parse --show-toplevel)
cd "$root"
changelog=$root/CHANGELOG.md
[ -f "$changelog" ] || { echo "apidiff: no CHANGELOG.md" >&2; exit 2; }

# The newest release: the first "## vX.Y.Z" heading that names a commit.
release=$(grep -m1 -E '^## v[0-9]+\.[0-9]+\.[0-9]+\b.*\bcommit [0-9a-f]{7,40}\b' "$changelog" || true)
[ -n "$release" ] || { echo "apidiff: CHANGELOG.md has no \"## vX.Y.Z … commit HASH\" heading" >&2; exit 2; }
version=$(sed -E 's/^## (v[0-9]+\.[0-9]+\.[0-9]+).*/\1/' <<<"$release")
commit=$(sed -E 's/.*\bcommit ([0-9a-f]{7,40})\b.*/\1/' <<<"$release")
base=$(git rev-parse --verify --quiet "${commit}^{commit}") || {
	echo "apidiff: $version's commit $commit is not in this clone's history (a shallow clone? fetch the full history)" >&2
	exit 2
}

if [ -n "${APIDIFF:-}" ]; then
	read -r -a apidiff <<<"$APIDIFF"
else
	apidiff=(go run "golang.org/x/exp/cmd/apidiff@$APIDIFF_VERSION")
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/apidiff.XXXXXX")
cleanup() {
	git -C "$root" worktree remove --force "$tmp/base" >/dev/null 2>&1 || true
	git -C "$root" worktree prune >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

git worktree add --quiet --detach "$tmp/base" "$base"
# export DIR FILE: the API of the module checked out in DIR (apidiff reads
# the module of the current directory; internal packages are left out).
export_api() {
	(cd "$1" && "${apidiff[@]}" -m -w "$2" "$MODULE") 2>"$tmp/err" || {
		cat "$tmp/err" >&2
		echo "apidiff: reading the API in $1 failed" >&2
		exit 2
	}
}
export_api "$tmp/base" "$tmp/base.api"
export_api "$root" "$tmp/head.api"
"${apidiff[@]}" -m "$tmp/base.api" "$tmp/head.api" >"$tmp/report" 2>/dev/null || {
	echo "apidiff: comparing failed" >&2
	exit 2
}

# ids SECTION: the changes of one section of apidiff's report ("Incompatible
# changes:" or "Compatible changes:"), one "identifier: what" a line, the
# identifier qualified by its package's path in the module: apidiff's
# "Name" (the root package) becomes reconnect.Name,
# "./runner.(*Runner).State" becomes runner.Runner.State, "package
# …/conformance/uts" becomes conformance/uts.
ids() {
	awk -v want="$1" -v mod="$MODULE" '
		/^[A-Z][a-z]+ changes:$/ { on = ($0 == want); next }
		on && /^- / {
			line = substr($0, 3)
			i = index(line, ": ")
			id = substr(line, 1, i - 1); what = substr(line, i + 2)
			if (substr(id, 1, 8) == "package ") {
				p = substr(id, 9)
				id = (p == mod) ? "reconnect" : substr(p, length(mod) + 2)
			} else {
				sub(/, method set of .*/, "", id)
				gsub(/[()*]/, "", id)
				id = (substr(id, 1, 2) == "./") ? substr(id, 3) : "reconnect." id
			}
			print id ": " what
		}
	' "$tmp/report"
}
ids "Incompatible changes:" >"$tmp/incompatible"
ids "Compatible changes:" >"$tmp/compatible"

# The "### Breaking" part of the "## Unreleased" section.
awk '
	/^## / { unreleased = ($0 ~ /^## Unreleased/); breaking = 0; next }
	unreleased && /^### / { breaking = ($0 ~ /^### Breaking/); next }
	unreleased && breaking { print }
' "$changelog" >"$tmp/breaking"
: >"$tmp/missing"
while IFS= read -r line; do
	id=${line%%:*}
	grep -qF "\`$id\`" "$tmp/breaking" || echo "$line" >>"$tmp/missing"
done <"$tmp/incompatible"

case $mode in
list)
	echo "API of $MODULE: $version (commit ${base:0:12}) → the working tree"
	echo
	echo "incompatible ($(wc -l <"$tmp/incompatible")):"
	sed 's/^/  /' "$tmp/incompatible"
	echo
	echo "compatible ($(wc -l <"$tmp/compatible")):"
	sed 's/^/  /' "$tmp/compatible"
	if [ -s "$tmp/missing" ]; then
		echo
		echo "not yet named under \"### Breaking\" in CHANGELOG.md's \"## Unreleased\": $(wc -l <"$tmp/missing") (scripts/apidiff.sh --markdown lists them)"
	fi
	;;
markdown)
	sed -E 's/^([^:]+): (.*)$/- `\1`: \2./' "$tmp/missing"
	;;
check)
	n=$(wc -l <"$tmp/incompatible")
	if [ -s "$tmp/missing" ]; then
		echo "apidiff: $(wc -l <"$tmp/missing") of the $n incompatible API changes since $version are not named under \"### Breaking\" in CHANGELOG.md's \"## Unreleased\":" >&2
		sed 's/^/  /' "$tmp/missing" >&2
		echo "Name each there as \`identifier\` with what a user must change (scripts/apidiff.sh --markdown prints the lines to start from)." >&2
		exit 1
	fi
	echo "API since $version (commit ${base:0:12}): $n incompatible changes, each named in CHANGELOG.md; $(wc -l <"$tmp/compatible") compatible"
	;;
esac
