# scripts/lib/basebuild.sh, sourced by scripts/instrcmp.sh and
# scripts/benchcmp.sh: a base commit checked out in a temporary `git
# worktree` and the test binaries of the packages, in that tree and in the
# current one, whose tests declare the benchmarks a script compares.
#
# The sourcing script sets prog (its name, the prefix of every error) and
# root (the top of the current tree, also the working directory). Every
# error exits the script with 2.

# basebuild_resolve REV: the full hash of the commit REV names, in
# base_sha.
basebuild_resolve() {
	base_sha=$(git rev-parse --verify --quiet "${1}^{commit}") || {
		echo "$prog: $1 is not a commit of this repository (a shallow clone? fetch the full history)" >&2
		exit 2
	}
}

# basebuild_checkout: a fresh temporary directory in tmp, removed on exit
# (an interrupt or termination exits with 130, removing it too), and
# base_sha checked out in $tmp/base as a detached `git worktree`, removed
# on exit.
basebuild_checkout() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$prog.XXXXXX")
	trap basebuild_cleanup EXIT
	trap 'exit 130' INT TERM
	git worktree add --quiet --detach "$tmp/base" "$base_sha"
}

basebuild_cleanup() {
	git -C "$root" worktree remove --force "$tmp/base" >/dev/null 2>&1 || true
	git -C "$root" worktree prune >/dev/null 2>&1 || true
	rm -rf "$tmp"
}

# basebuild_current: the current tree in words, HEAD's short hash and
# whether there are uncommitted changes.
basebuild_current() {
	echo "$(git log -1 --format='%h' HEAD)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' + uncommitted changes')"
}

# basebuild_bins TREE NAME ALTERNATION [list]: a test binary for every
# package of TREE's module whose tests declare a benchmark
# Benchmark(ALTERNATION), built from the package's directory; "dir binary"
# lines in $tmp/NAME.bins. With list, each package is printed as it is
# built ("  NAME: import path").
basebuild_bins() {
	local tree=$1 name=$2 alternation=$3 list=${4:-} dir pkg bin i=0
	: >"$tmp/$name.bins"
	while IFS= read -r dir; do
		if ! grep -Eqs "^func Benchmark(${alternation})\(" "$dir"/*_test.go; then
			continue
		fi
		i=$((i + 1))
		bin="$tmp/$name.$i.test"
		pkg=$(cd "$dir" && go list .)
		(cd "$dir" && go test -c -o "$bin" .) || {
			echo "$prog: building the tests of $pkg in $name failed" >&2
			exit 2
		}
		echo "$dir $bin" >>"$tmp/$name.bins"
		if [ -n "$list" ]; then echo "  $name: $pkg"; fi
	done < <(cd "$tree" && go list -f '{{.Dir}}' ./...)
}
