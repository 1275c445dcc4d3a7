package kstreams_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// dslTypes are the types whose methods, and the package functions that
// take or return them, are DSL operators: docs/dsl.md must name each.
var dslTypes = map[string]bool{
	"StreamsBuilder": true, "KStream": true, "KTable": true, "GlobalKTable": true, "BranchedKStream": true,
	"KGroupedStream": true, "KGroupedTable": true, "TimeWindowedKStream": true, "SessionWindowedKStream": true,
	"SlidingWindowedKStream": true, "CogroupedKStream": true, "TimeWindowedCogroupedKStream": true,
	"SessionWindowedCogroupedKStream": true, "SlidingWindowedCogroupedKStream": true,
	// The Processor API: the topology's builder methods, a processor's
	// context and the store views a processor holds.
	"Topology": true, "ProcessorContext": true, "KeyValueStore": true, "TimestampedKeyValueStore": true,
	"TimestampedWindowStore": true, "SessionStore": true, "KeyValueIterator": true,
}

// undocumented are operators docs/dsl.md need not name, with the reason.
var undocumented = map[string]string{
	"NewStreamsBuilder":               "the builder itself, not a Kafka Streams call",
	"StreamsBuilder.Build":            "StreamsBuilder.build(): the doc's examples end in it",
	"KTable.QueryableStoreName":       "an accessor, as in Kafka",
	"GlobalKTable.QueryableStoreName": "an accessor, as in Kafka",
	"Count":                           "g.Count as a function, listed as g.Count",
	"ProcessTyped":                    "listed beside Process",
	"JoinWithKey":                     "the ...WithKey forms are listed with their joins",
	"LeftJoinWithKey":                 "the ...WithKey forms are listed with their joins",
	"OuterJoinWithKey":                "the ...WithKey forms are listed with their joins",
	"JoinGlobalWithKey":               "the ...WithKey forms are listed with their joins",
	"LeftJoinGlobalWithKey":           "the ...WithKey forms are listed with their joins",
	"TableForeignKeyJoinWithKey":      "the ...WithKey forms are listed with their joins",
	"TableForeignKeyLeftJoinWithKey":  "the ...WithKey forms are listed with their joins",
	"BranchedKStream.NoDefaultBranch": "listed as NoDefaultBranch()",
	"KGroupedTable.Count":             "listed as g.Count",
	"KGroupedTable.Reduce":            "listed as g.Reduce",
	"KGroupedStream.Reduce":           "listed as g.Reduce",
	"KGroupedStream.Count":            "listed as g.Count",
	"TimeWindowedKStream.Count":       "the windowed Count and Reduce are listed with windowedBy",
	"TimeWindowedKStream.Reduce":      "the windowed Count and Reduce are listed with windowedBy",
	"SessionWindowedKStream.Count":    "the windowed Count and Reduce are listed with windowedBy",
	"SessionWindowedKStream.Reduce":   "the windowed Count and Reduce are listed with windowedBy",
	"SlidingWindowedKStream.Count":    "the windowed Count and Reduce are listed with windowedBy",
	"SlidingWindowedKStream.Reduce":   "the windowed Count and Reduce are listed with windowedBy",
	// A built topology's view for the runtime, not Kafka Streams calls.
	"Topology.CopartitionGroups":       "the runtime's view of a built topology",
	"Topology.CopartitionSources":      "the runtime's view of a built topology",
	"Topology.GlobalStores":            "the runtime's view of a built topology",
	"Topology.InternalTopics":          "the runtime's view of a built topology",
	"Topology.InternalTopicPartitions": "the runtime's view of a built topology",
	"Topology.StoreSerdes":             "the runtime's view of a built topology",
	"Topology.RedirectSinks":           "the runtime's view of a built topology",
	"Topology.NewTask":                 "the runtime's view of a built topology",
	"Topology.Subtopologies":           "the runtime's view of a built topology",
	"Topology.HasPatternSources":       "the runtime's view of a built topology",
	"Topology.MatchPatterns":           "the runtime's view of a built topology",
	"Topology.SourcePatterns":          "the runtime's view of a built topology",
	"Topology.SourceIndex":             "the runtime's view of a built topology",
	"Topology.ReadOnlyStoreTopics":     "the runtime's view of a built topology",
	"Topology.Store":                   "the runtime's view of a built topology",
	"Topology.SubtopologyOfTopic":      "the runtime's view of a built topology",
	"Topology.StoreSourceTopics":       "the runtime's view of a built topology",
	"Topology.ReuseTableSourceTopics":  "topology.optimization, which the runtime applies from the configuration",
	"Topology.MergeRepartitionTopics":  "topology.optimization, which the runtime applies from the configuration",
	"Topology.RewriteSelfJoins":        "topology.optimization, which the runtime applies from the configuration",
}

// kstreamsDecls parses the package and returns its exported names (types,
// functions, variables, constants, methods and struct fields) and its DSL
// operators ("Func" or "Type.Method").
func kstreamsDecls(t *testing.T) (names map[string]bool, operators []string) {
	t.Helper()
	fs := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fs, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	names = map[string]bool{}
	base := func(e ast.Expr) string {
		for {
			switch x := e.(type) {
			case *ast.StarExpr:
				e = x.X
			case *ast.IndexExpr:
				e = x.X
			case *ast.IndexListExpr:
				e = x.X
			case *ast.Ident:
				return x.Name
			default:
				return ""
			}
		}
	}
	touchesDSL := func(fl *ast.FieldList) bool {
		if fl == nil {
			return false
		}
		for _, f := range fl.List {
			if dslTypes[base(f.Type)] {
				return true
			}
		}
		return false
	}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				names[d.Name.Name] = true
				if d.Recv != nil {
					if recv := base(d.Recv.List[0].Type); dslTypes[recv] {
						operators = append(operators, recv+"."+d.Name.Name)
					}
				} else if touchesDSL(d.Type.Params) || touchesDSL(d.Type.Results) {
					operators = append(operators, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
						if it, ok := s.Type.(*ast.InterfaceType); ok && dslTypes[s.Name.Name] {
							for _, m := range it.Methods.List {
								for _, n := range m.Names {
									names[n.Name] = true
									operators = append(operators, s.Name.Name+"."+n.Name)
								}
							}
						}
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fld := range st.Fields.List {
								for _, n := range fld.Names {
									names[n.Name] = true
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = true
						}
					}
				}
			}
		}
	}
	return names, operators
}

// testNames returns the test functions of the packages whose tests the doc
// cites.
func testNames(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	re := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	for _, dir := range []string{"../integration", "../streams", "kstreamstest", "."} {
		files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				out[m[1]] = true
			}
		}
	}
	return out
}

// TestDSLDocMatchesTheCode keeps docs/dsl.md in step with the package: every
// StoatFlow name its tables cite exists, every test it cites exists, and
// every DSL operator of the package is in it (or in undocumented, with the
// reason).
func TestDSLDocMatchesTheCode(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "dsl.md"))
	if err != nil {
		t.Fatal(err)
	}
	names, operators := kstreamsDecls(t)
	tests := testNames(t)
	code := regexp.MustCompile("`([^`]*)`")
	ident := regexp.MustCompile(`(?:^|[^A-Za-z0-9_"])([A-Z][A-Za-z0-9_]*)`)
	testRef := regexp.MustCompile(`\bTest\w+`)
	cited := map[string]bool{}
	rows := 0
	for i, line := range strings.Split(string(doc), "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| ---") || strings.HasPrefix(line, "| Kafka Streams") {
			continue
		}
		cols := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cols) < 2 {
			continue
		}
		rows++
		for _, c := range code.FindAllStringSubmatch(cols[1], -1) {
			for _, m := range ident.FindAllStringSubmatch(c[1], -1) {
				if strings.Contains(c[1], "..."+m[1]) {
					continue // "...WithKey": a suffix of the names before it
				}
				cited[m[1]] = true
				if !names[m[1]] {
					t.Errorf("docs/dsl.md:%d cites %s (in `%s`), which package kstreams does not have", i+1, m[1], c[1])
				}
			}
		}
		if len(cols) > 2 {
			for _, m := range testRef.FindAllString(cols[2], -1) {
				if !tests[m] {
					t.Errorf("docs/dsl.md:%d cites %s, which no test file defines", i+1, m)
				}
			}
		}
	}
	if rows < 30 {
		t.Fatalf("docs/dsl.md: %d table rows read; the tables were not found", rows)
	}
	for _, op := range operators {
		name := op[strings.LastIndex(op, ".")+1:]
		if cited[name] {
			continue
		}
		if _, ok := undocumented[op]; ok {
			continue
		}
		t.Errorf("%s is a DSL operator that docs/dsl.md does not list: add its row (Kafka Streams' call, the Go call, its test)", op)
	}
	for op := range undocumented {
		found := false
		for _, o := range operators {
			found = found || o == op
		}
		if !found {
			t.Errorf("undocumented names %s, which is no longer an operator of the package", op)
		}
	}
}
