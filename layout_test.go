// Tests of the repository's layout: the import rules between its layers,
// a doc for every package, and the README's package table.
package icnsim_test

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/icnsim/icnsim/"

// layerRules are the packages each layer may import from this module
// (README "Design in brief"): a layer named "x/*" is every package under
// x/, and an import of a package under internal/ is always allowed. A
// package no rule names (study, runner, figure, htmlreport, cmd/icnsim)
// composes and may import any layer.
var layerRules = map[string][]string{
	"clock":            {},
	"actor":            {"clock"},
	"link":             {"clock"},
	"topology":         {},
	"topology/*":       {"topology", "routing", "link", "actor", "clock"},
	"routing":          {"topology", "link", "clock"},
	"routing/deadlock": {"routing", "topology", "link", "clock"},
	"fabric":           {"link", "clock", "actor", "topology"},
	"router/*":         {"router/alloc", "fabric", "routing", "routing/deadlock", "topology", "link", "actor", "clock"},
	"router/alloc":     {},
	"traffic":          {"fabric", "topology", "link", "clock"},
	"policies":         {"fabric", "topology", "link", "clock"},
	"policies/*":       {"policies", "fabric", "topology", "link", "clock"},
	"workload":         {"traffic", "fabric", "topology", "link", "clock"},
	"report":           {"link", "clock"},
	"repro":            {"study", "report", "figure", "policies", "policies/entropy", "policies/sat"},
}

// ruleOf is the rule of package pkg (a path below the module), if any.
func ruleOf(pkg string) ([]string, bool) {
	if r, ok := layerRules[pkg]; ok {
		return r, true
	}
	for name, r := range layerRules {
		if base, ok := strings.CutSuffix(name, "/*"); ok && strings.HasPrefix(pkg, base+"/") {
			if _, exact := layerRules[pkg]; !exact {
				return r, true
			}
		}
	}
	return nil, false
}

// packages maps every package directory of the tree (below the module) to
// the module packages its non-test files import, and reports the ones with
// no package doc.
func packages(t *testing.T) (imports map[string][]string, undocumented []string) {
	t.Helper()
	imports = map[string][]string{}
	documented := map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if _, ok := imports[dir]; !ok {
			imports[dir] = nil
		}
		if doc := f.Doc.Text(); (strings.HasPrefix(doc, "Package "+f.Name.Name+" ") || f.Name.Name == "main" && doc != "") && strings.Contains(doc, "import") {
			documented[dir] = true
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if rest, ok := strings.CutPrefix(p, module); ok && !slices.Contains(imports[dir], rest) {
				imports[dir] = append(imports[dir], rest)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir := range imports {
		if !documented[dir] {
			undocumented = append(undocumented, dir)
		}
	}
	slices.Sort(undocumented)
	return imports, undocumented
}

// TestLayerImports enforces layerRules on every package of the tree.
func TestLayerImports(t *testing.T) {
	imports, _ := packages(t)
	if len(imports) < 20 {
		t.Fatalf("found %d packages; expected the whole tree", len(imports))
	}
	for pkg, ims := range imports {
		rule, ok := ruleOf(pkg)
		if !ok {
			continue
		}
		for _, im := range ims {
			if strings.HasPrefix(im, "internal/") || strings.HasPrefix(im, pkg+"/") || slices.Contains(rule, im) {
				continue
			}
			t.Errorf("%s imports %s: its layer may import only %v", pkg, im, rule)
		}
	}
}

// TestPackagesDocumented: every package has a doc that says what it owns
// and what it may import.
func TestPackagesDocumented(t *testing.T) {
	if _, undocumented := packages(t); len(undocumented) > 0 {
		t.Errorf("packages without a package doc that says what they own and may import (\"// Package name owns ... It may import ...\"): %v", undocumented)
	}
}

// TestReadmePackageTable: the README's package table lists exactly the
// packages of the tree, and the README names no path outside the
// repository.
func TestReadmePackageTable(t *testing.T) {
	imports, _ := packages(t)
	f, err := os.Open("README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var listed []string
	in := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.Contains(line, "../shared") {
			t.Errorf("README.md:%d names a path outside the repository: %s", n, line)
		}
		switch {
		case line == "| package | owns |":
			in = true
		case in && strings.HasPrefix(line, "|---"):
		case in && strings.HasPrefix(line, "| `"):
			name, _, _ := strings.Cut(strings.TrimPrefix(line, "| `"), "`")
			listed = append(listed, name)
		case in:
			in = false
		}
	}
	if len(listed) == 0 {
		t.Fatal("README.md has no package table (a \"| package | owns |\" header)")
	}
	for _, p := range listed {
		if _, ok := imports[p]; !ok {
			t.Errorf("README's package table lists %s, which is not a package of the tree", p)
		}
	}
	for p := range imports {
		if !slices.Contains(listed, p) {
			t.Errorf("package %s is missing from the README's package table", p)
		}
	}
}

// packageVars calls visit with every package-level variable declaration
// of the tree's non-test files.
func packageVars(t *testing.T, visit func(at token.Position, vs *ast.ValueSpec)) {
	t.Helper()
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, decl := range f.Decls {
			if g, ok := decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, spec := range g.Specs {
					vs := spec.(*ast.ValueSpec)
					visit(fset.Position(vs.Pos()), vs)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("parsed %d files; expected the whole tree", files)
	}
}

// TestNoExportedVariables: no package exports a variable (a registry or a
// list is a function that returns a fresh value, so no caller can change
// what another sees).
func TestNoExportedVariables(t *testing.T) {
	packageVars(t, func(at token.Position, vs *ast.ValueSpec) {
		for _, n := range vs.Names {
			if n.IsExported() {
				t.Errorf("%s: exported package-level variable %s (make it a function or a constant)", at, n.Name)
			}
		}
	})
}

// TestNoPackageTables: no package keeps a slice or a map at package level
// (a table is a function returning a fresh value), so that no code can
// change what another reads; errors, regular expressions and compile-time
// assertions may stay variables.
func TestNoPackageTables(t *testing.T) {
	packageVars(t, func(at token.Position, vs *ast.ValueSpec) {
		table := vs.Type != nil && isTable(vs.Type)
		for _, v := range vs.Values {
			if c, ok := v.(*ast.CompositeLit); ok && c.Type != nil && isTable(c.Type) {
				table = true
			}
		}
		if table {
			t.Errorf("%s: package-level table %s (make it a function returning a fresh value)", at, vs.Names[0].Name)
		}
	})
}

// isTable reports a slice, array or map type.
func isTable(e ast.Expr) bool {
	switch e.(type) {
	case *ast.ArrayType, *ast.MapType:
		return true
	}
	return false
}
