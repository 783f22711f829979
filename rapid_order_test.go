package reconnect

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoRapidCheckStartsAfterAFailure reads every test file of the module
// and fails for a test function that reports a failure (t.Error, t.Fatal,
// …) before it starts a rapid check, or starts two: a rapid check started
// on a test that has already failed panics and hides the failures before
// it. Split such a test in two instead.
func TestNoRapidCheckStartsAfterAFailure(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") {
				continue
			}
			checked++
			failed, checks := false, 0
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false // a property's body, or a subtest with its own t
				case *ast.CallExpr:
					sel, ok := n.Fun.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					x, ok := sel.X.(*ast.Ident)
					switch {
					case ok && x.Name == "rapid" && sel.Sel.Name == "Check":
						checks++
						if failed || checks > 1 {
							t.Errorf("%s: %s starts a rapid check after a possible failure", fset.Position(n.Pos()), fn.Name.Name)
						}
					case ok && x.Name == "t" && strings.HasPrefix(sel.Sel.Name, "Error") || ok && x.Name == "t" && strings.HasPrefix(sel.Sel.Name, "Fatal") ||
						ok && x.Name == "t" && strings.HasPrefix(sel.Sel.Name, "Fail"):
						failed = true
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("read only %d test functions", checked)
	}
}
