package properties

import (
	"fmt"
	"strings"
)

// Load parses each file in order and then applies the --set overrides, each
// later source replacing the values of earlier ones. Config-provider references
// are not resolved; call Resolve for that.
func Load(files []string, sets []string) (*Properties, error) {
	out := New()
	for _, f := range files {
		p, err := ParseFile(f)
		if err != nil {
			return nil, err
		}
		out.Merge(p)
	}
	for i, s := range sets {
		e, err := ParseSet(s, i+1)
		if err != nil {
			return nil, err
		}
		out.Set(e)
	}
	return out, nil
}

// ParseSet parses one --set override "key=value" (the n-th, 1-based). The key is
// trimmed of blanks; the value is taken literally, without .properties escapes,
// since the shell has already done the quoting.
func ParseSet(s string, n int) (Entry, error) {
	k, v, ok := strings.Cut(s, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return Entry{}, fmt.Errorf("properties: --set expects key=value, got %q; write e.g. --set num.stream.threads=4", s)
	}
	return Entry{Key: k, Value: v, Pos: Pos{File: SetSource, Line: n}}, nil
}
