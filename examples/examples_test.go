package examples

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOnlyProtojoinRegistersOnImport keeps the docs and the examples in
// step: the README says no StoatFlow package registers anything by being
// imported and names the one example whose init registers (Protobuf
// messages, as a protoc-generated package does). Another example with an
// init fails here until it is removed or the README names it.
func TestOnlyProtojoinRegistersOnImport(t *testing.T) {
	var inits []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "init" {
				inits = append(inits, filepath.ToSlash(filepath.Dir(path)))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(inits)
	inits = slices.Compact(inits)
	if want := []string{"protojoin"}; !slices.Equal(inits, want) {
		t.Errorf("example packages with an init: %v, want %v (the README names them)", inits, want)
	}
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range inits {
		if !strings.Contains(string(readme), "`examples/"+dir+"`") {
			t.Errorf("README does not name examples/%s, which registers on import", dir)
		}
	}
}
