# scripts/lib/mutcopy.sh, sourced by scripts/mutation.sh and
# scripts/mutation-uncovered.sh: the copy of the module that mutants are
# tested in.
#
# mutcopy_module ROOT DEST: the library packages (the module root,
# engine/ and runner/), the fixtures, the docs and the internal packages their tests
# import (internal/conform without its own slow tests, internal/fixturetest,
# internal/rows), the files git tracks in ROOT (a new file must be added
# to the index first) as they are in its working tree, into DEST; without docs_test.go,
# which checks the repository's documentation (the README's length, links
# to files this copy does not hold, the docs' Go blocks, the scenario
# count), none of it the code under test. docs_tables_test.go stays: the
# tables it checks are generated from the code.
mutcopy_module() {
	local root=$1 dest=$2
	(cd "$root" &&
		git ls-files -- go.mod go.sum README.md 'docs/*' '*.go' 'fixtures/*' 'engine/testdata/*' 'runner/*' 'internal/conform/*' 'internal/fixturetest/*' 'internal/rows/*' |
		grep -Ev '^internal/conform/.*_test\.go$' |
			grep -E '^[^/]+$|^engine/|^runner/|^docs/|^fixtures/|^internal/(conform|fixturetest|rows)/' |
			tar -cf - -T -) | tar -xf - -C "$dest"
	rm -f "$dest/docs_test.go"
}
