package features_test

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot/bottest"
)

const module = "github.com/missivechess/missive"

// featurePackages returns the import paths of the packages the list of features
// plugs in: those package features imports below bot, but the kernel.
func featurePackages(t *testing.T) []string {
	t.Helper()
	p, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, imp := range p.Imports {
		if strings.HasPrefix(imp, module+"/bot/") {
			out = append(out, imp)
		}
	}
	if len(out) < 5 {
		t.Fatalf("the list plugs only %v", out)
	}
	return out
}

// No package below the features imports one, and no feature imports another:
// the kernel and what lies below it reach the features only through the hooks the
// list plugs in. Only what stands above them does: the list itself, main, the
// adapters (for the command names they treat specially) and the tests' harness.
func TestNothingImportsAFeature(t *testing.T) {
	features := featurePackages(t)
	root := filepath.Join("..", "..")
	seen := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go files here
		}
		seen++
		rel, _ := filepath.Rel(root, path)
		imp := module + "/" + filepath.ToSlash(rel)
		switch imp {
		case module + "/bot/features", module + "/cmd/missive", module + "/bot/discord", module + "/bot/console", module + "/bot/web", module + "/bot/bottest":
			return nil
		}
		for _, dep := range p.Imports {
			if slices.Contains(features, dep) {
				t.Errorf("%s imports the feature %s", imp, dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 20 {
		t.Fatalf("only %d packages read", seen)
	}
}

// The kernel names no feature's command: no command-name constant, and no
// button, menu or request of its own that runs a command (a Command field
// given a name), as the features own their commands and their buttons.
func TestKernelNamesNoCommand(t *testing.T) {
	h := bottest.New(t)
	commands := map[string]bool{}
	for _, c := range h.Svc.Commands() {
		commands[c.Name] = true
	}
	files, err := filepath.Glob(filepath.Join("..", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for _, name := range n.Names {
					if strings.HasPrefix(name.Name, "Cmd") {
						t.Errorf("%s: the kernel declares the command name %s", fset.Position(name.Pos()), name.Name)
					}
				}
			case *ast.KeyValueExpr:
				key, ok := n.Key.(*ast.Ident)
				lit, isLit := n.Value.(*ast.BasicLit)
				if ok && key.Name == "Command" && isLit && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil && commands[s] {
						t.Errorf("%s: the kernel runs the command %q", fset.Position(lit.Pos()), s)
					}
				}
			}
			return true
		})
	}
}
