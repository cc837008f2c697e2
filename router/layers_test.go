package router

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRouterLayerImports checks the house's layering for every package
// under router/: a router never imports the layers above it (policies,
// traffic, report, runner, study, the command), so their code can only
// reach a router through the small interfaces the router declares.
func TestRouterLayerImports(t *testing.T) {
	const module = "github.com/icnsim/icnsim/"
	above := []string{"policies", "traffic", "report", "runner", "study", "figure", "htmlreport", "cmd"}
	fset := token.NewFileSet()
	seen := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		seen++
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			rest, ok := strings.CutPrefix(p, module)
			if !ok {
				continue
			}
			for _, a := range above {
				if rest == a || strings.HasPrefix(rest, a+"/") {
					t.Errorf("router/%s imports %s: the router layer must not import the %s layer", path, p, a)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 20 {
		t.Fatalf("walked %d Go files under router/; expected the whole layer", seen)
	}
}
