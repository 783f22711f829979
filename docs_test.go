package reconnect

import (
	"context"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/reconnect-go/reconnect/internal/fixturetest"
)

// The Markdown the project publishes: the README, every page of docs/ and
// the READMEs of the fixtures and the modules beside the library.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "fixtures/README.md"}
	more, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, more...)
	for _, f := range []string{"lab/README.md", "examples/README.md", "conformance/ably-js-parity/README.md", "conformance/python/README.md"} {
		if _, err := os.Stat(f); err == nil {
			files = append(files, f)
		}
	}
	return files
}

func TestREADMEIsShort(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > 250 {
		t.Errorf("README.md has %d lines; at most 250: move the detail to a page of docs/", n)
	}
}

// fence matches a fenced code block's opening or closing line.
var fence = regexp.MustCompile("^\\s*```")

// proseLines returns the lines of md outside fenced code blocks, with
// inline code spans blanked, numbered from 1.
func proseLines(md string) map[int]string {
	out := map[int]string{}
	in := false
	code := regexp.MustCompile("`[^`]*`")
	for i, l := range strings.Split(md, "\n") {
		if fence.MatchString(l) {
			in = !in
			continue
		}
		if !in {
			out[i+1] = code.ReplaceAllString(l, "")
		}
	}
	return out
}

// headingAnchors returns the anchors a Markdown renderer gives the
// headings of md: lower case, punctuation dropped, spaces to hyphens, a
// repeated anchor suffixed -1, -2, ….
func headingAnchors(md string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	in := false
	for _, l := range strings.Split(md, "\n") {
		if fence.MatchString(l) {
			in = !in
		}
		if in || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			anchors[a+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	// Anchors in the code blocks' headings never count; explicit ones do.
	for _, m := range regexp.MustCompile(`<a (?:name|id)="([^"]+)"`).FindAllStringSubmatch(md, -1) {
		anchors[m[1]] = true
	}
	return anchors
}

// TestDocsLinksResolve checks every relative link of the published
// Markdown: the file or folder exists, and an anchor names a heading of
// the Markdown file it points into.
func TestDocsLinksResolve(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	checked := 0
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := proseLines(string(data))
		for n := 1; n <= strings.Count(string(data), "\n")+1; n++ {
			l, ok := lines[n]
			if !ok {
				continue
			}
			for _, m := range link.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				p, anchor, _ := strings.Cut(target, "#")
				dest := file
				if p != "" {
					dest = path.Join(path.Dir(file), p)
					if _, err := os.Stat(dest); err != nil {
						t.Errorf("%s:%d: link %s: %s does not exist", file, n, target, dest)
						continue
					}
				}
				if anchor == "" || !strings.HasSuffix(dest, ".md") {
					continue
				}
				md, err := os.ReadFile(dest)
				if err != nil {
					t.Errorf("%s:%d: link %s: %v", file, n, target, err)
					continue
				}
				if !headingAnchors(string(md))[anchor] {
					t.Errorf("%s:%d: link %s: %s has no heading with anchor #%s", file, n, target, dest, anchor)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no link was checked")
	}
}

// goBlock is one ```go block of a Markdown file.
type goBlock struct {
	file string
	line int
	body string
}

// goBlocks returns every ```go block of the published Markdown.
func goBlocks(t *testing.T) []goBlock {
	t.Helper()
	var blocks []goBlock
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var cur *goBlock
		for i, l := range strings.Split(string(data), "\n") {
			switch {
			case cur == nil && l == "```go":
				cur = &goBlock{file: file, line: i + 1}
			case cur != nil && l == "```":
				blocks = append(blocks, *cur)
				cur = nil
			case cur != nil:
				cur.body += l + "\n"
			}
		}
		if cur != nil {
			t.Fatalf("%s:%d: a ```go block is not closed", file, cur.line)
		}
	}
	return blocks
}

// TestDocsGoBlocksAreWholeFilesThatBuild checks that every Go block of the
// published Markdown is a whole, gofmt-formatted file with a package clause
// and imports, and that it builds and passes go vet against this module
// (the blocks that import github.com/cenkalti/backoff build in the bench
// module, which requires it).
func TestDocsGoBlocksAreWholeFilesThatBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every block with the go command")
	}
	blocks := goBlocks(t)
	if len(blocks) == 0 {
		t.Fatal("the docs have no Go block")
	}
	dirs := map[string]string{}   // module directory → temporary directory of its blocks
	pkgs := map[string][]string{} // module directory → the blocks' packages, relative to it
	for i, b := range blocks {
		where := fmt.Sprintf("%s:%d", b.file, b.line)
		f, err := parser.ParseFile(token.NewFileSet(), "block.go", b.body, parser.ImportsOnly)
		if err != nil {
			t.Errorf("%s: not a whole Go file: %v", where, err)
			continue
		}
		if formatted, err := format.Source([]byte(b.body)); err != nil || string(formatted) != b.body {
			t.Errorf("%s: not gofmt-formatted", where)
		}
		mod := "."
		for _, im := range f.Imports {
			if strings.Contains(im.Path.Value, "github.com/cenkalti/backoff") {
				mod = "bench"
			}
		}
		if dirs[mod] == "" {
			// A leading "_" keeps the directory out of ./... patterns.
			d, err := os.MkdirTemp(mod, "_docblocks")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(d) })
			dirs[mod] = d
		}
		dir := filepath.Join(dirs[mod], fmt.Sprintf("block%d", i+1))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		src := "// " + where + "\n\n" + b.body
		if err := os.WriteFile(filepath.Join(dir, "block.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(mod, dir)
		pkgs[mod] = append(pkgs[mod], "./"+filepath.ToSlash(rel))
	}
	for mod, list := range pkgs {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		cmd := exec.CommandContext(ctx, "go", append([]string{"vet"}, list...)...)
		cmd.Dir = mod
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Errorf("go vet of the docs' Go blocks in module %s: %v\n%s", mod, err, out)
		}
	}
}

// TestDocsCountTheScenarios keeps the docs' count of scenario timelines
// equal to the fixture's.
func TestDocsCountTheScenarios(t *testing.T) {
	re := regexp.MustCompile("`fixtures/scenarios.json` holds ([0-9]+) timelines")
	items := fixturetest.Items(t, "fixtures/scenarios.json")
	found := 0
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(data, -1) {
			found++
			if got, want := string(m[1]), strconv.Itoa(len(items)); got != want {
				t.Errorf("%s says fixtures/scenarios.json holds %s timelines; it holds %s", file, got, want)
			}
		}
	}
	if found == 0 {
		t.Fatal("no page says how many timelines fixtures/scenarios.json holds")
	}
}
