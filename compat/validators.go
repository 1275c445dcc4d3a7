package compat

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Validator checks a parsed value, returning Kafka's message when it is invalid.
type Validator interface {
	// Validate returns the full error text, or "" when v is valid.
	Validate(name string, v Value) string
	// String describes the valid values as Kafka's documentation does.
	String() string
}

// Range is ConfigDef.Range: an inclusive lower and optional upper bound.
type Range struct {
	Min, Max       int64
	HasMin, HasMax bool
}

// AtLeast is ConfigDef.Range.atLeast.
func AtLeast(min int64) Range { return Range{Min: min, HasMin: true} }

// Between is ConfigDef.Range.between.
func Between(min, max int64) Range { return Range{Min: min, Max: max, HasMin: true, HasMax: true} }

// Validate implements Validator.
func (r Range) Validate(name string, v Value) string {
	if v.Null {
		return "Invalid value null for configuration " + name + ": Value must be non-null"
	}
	n := float64(v.Int)
	if v.Type == TypeDouble {
		n = v.Float
	}
	if r.HasMin && n < float64(r.Min) {
		return invalid(name, v.JavaString(), "Value must be at least "+strconv.FormatInt(r.Min, 10))
	}
	if r.HasMax && n > float64(r.Max) {
		return invalid(name, v.JavaString(), "Value must be no more than "+strconv.FormatInt(r.Max, 10))
	}
	return ""
}

// String implements Validator.
func (r Range) String() string {
	switch {
	case r.HasMin && r.HasMax:
		return fmt.Sprintf("[%d,...,%d]", r.Min, r.Max)
	case r.HasMin:
		return fmt.Sprintf("[%d,...]", r.Min)
	case r.HasMax:
		return fmt.Sprintf("[...,%d]", r.Max)
	}
	return "[...]"
}

// ValidString is ConfigDef.ValidString: the value must equal one of Values
// exactly. An entry "null" in NullAllowed position matches nothing a file can
// say, as in Java, where the null entry matches only a null value.
type ValidString struct {
	Values []string
}

// Validate implements Validator.
func (s ValidString) Validate(name string, v Value) string {
	for _, x := range s.Values {
		if x == v.Str && !v.Null && x != "null" {
			return ""
		}
	}
	if v.Null {
		for _, x := range s.Values {
			if x == "null" {
				return ""
			}
		}
	}
	return invalid(name, v.JavaString(), "String must be one of: "+strings.Join(s.Values, ", "))
}

// String implements Validator.
func (s ValidString) String() string { return "[" + strings.Join(s.Values, ", ") + "]" }

// CaseInsensitiveValidString is ConfigDef.CaseInsensitiveValidString. Its
// message lists the upper-cased values in the order Java's HashSet iterates
// them, so the text matches Kafka's byte for byte.
type CaseInsensitiveValidString struct {
	Values []string
}

// Validate implements Validator.
func (s CaseInsensitiveValidString) Validate(name string, v Value) string {
	if !v.Null {
		for _, x := range s.Values {
			if javaUpper(x) == javaUpper(v.Str) {
				return ""
			}
		}
	}
	return invalid(name, v.JavaString(), "String must be one of (case insensitive): "+strings.Join(javaHashSetOrder(upper(s.Values)), ", "))
}

// String implements Validator.
func (s CaseInsensitiveValidString) String() string {
	return "(case insensitive) [" + strings.Join(javaHashSetOrder(upper(s.Values)), ", ") + "]"
}

// javaUpper stands for Java's toUpperCase(Locale.ROOT); Kafka compares
// upper-cased strings, which is not quite Unicode case folding (EqualFold).
func javaUpper(s string) string { return strings.ToUpper(s) }

func upper(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = javaUpper(s)
	}
	return out
}

// javaStringHash is java.lang.String.hashCode.
func javaStringHash(s string) int32 {
	var h int32
	for _, u := range utf16.Encode([]rune(s)) {
		h = 31*h + int32(u)
	}
	return h
}

// javaHashSetOrder returns in's distinct elements in the iteration order of a
// java.util.HashSet filled in that order (valid for up to 12 elements, which fit
// the default 16 buckets without a resize).
func javaHashSetOrder(in []string) []string {
	n := uint32(16)
	for uint32(len(in)) > n*3/4 {
		n *= 2
	}
	buckets := make([][]string, n)
	seen := map[string]bool{}
	for _, s := range in {
		if seen[s] {
			continue
		}
		seen[s] = true
		h := uint32(javaStringHash(s))
		h ^= h >> 16
		b := h & (n - 1)
		buckets[b] = append(buckets[b], s)
	}
	var out []string
	for _, b := range buckets {
		out = append(out, b...)
	}
	return out
}

// ValidList is ConfigDef.ValidList, including anyNonDuplicateValues.
type ValidList struct {
	Values       []string
	EmptyAllowed bool
	NullAllowed  bool
}

// Validate implements Validator.
func (l ValidList) Validate(name string, v Value) string {
	if v.Null {
		if l.NullAllowed {
			return ""
		}
		return "Configuration '" + name + "' values must not be null."
	}
	if !l.EmptyAllowed && len(v.List) == 0 {
		valid := "any non-empty value"
		if len(l.Values) > 0 {
			valid = ValidString{l.Values}.String()
		}
		return "Configuration '" + name + "' must not be empty. Valid values include: " + valid
	}
	for _, x := range v.List {
		if x == "" {
			return "Configuration '" + name + "' values must not be empty."
		}
		if len(l.Values) > 0 {
			if msg := (ValidString{l.Values}).Validate(name, Value{Type: TypeString, Str: x}); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// String implements Validator.
func (l ValidList) String() string {
	s := ValidString{l.Values}.String()
	if l.EmptyAllowed {
		s += " (empty config allowed)"
	} else {
		s += " (empty not allowed)"
	}
	if l.NullAllowed {
		s += " (null config allowed)"
	} else {
		s += " (null not allowed)"
	}
	return s
}

// ListSize is ConfigDef.ListSize.atMostOfSize.
type ListSize struct{ Max int }

// Validate implements Validator.
func (s ListSize) Validate(name string, v Value) string {
	if len(v.List) > s.Max {
		return invalid(name, v.JavaString(), "exceeds maximum list size of ["+strconv.Itoa(s.Max)+"].")
	}
	return ""
}

// String implements Validator.
func (s ListSize) String() string {
	return fmt.Sprintf("List containing maximum of %d elements", s.Max)
}

// FloatRange is ConfigDef.Range over DOUBLE values, whose bounds Kafka prints
// as Java doubles ("0.5", "1.0").
type FloatRange struct {
	Min, Max float64
}

// Validate implements Validator.
func (r FloatRange) Validate(name string, v Value) string {
	if v.Null {
		return "Invalid value null for configuration " + name + ": Value must be non-null"
	}
	if v.Float < r.Min {
		return invalid(name, v.JavaString(), "Value must be at least "+javaDouble(r.Min))
	}
	if v.Float > r.Max {
		return invalid(name, v.JavaString(), "Value must be no more than "+javaDouble(r.Max))
	}
	return ""
}

// String implements Validator.
func (r FloatRange) String() string {
	return "[" + javaDouble(r.Min) + ",...," + javaDouble(r.Max) + "]"
}

// NonEmptyString is ConfigDef.NonEmptyString: a given value must not be empty
// (after the trim every value gets).
type NonEmptyString struct{}

// Validate implements Validator.
func (NonEmptyString) Validate(name string, v Value) string {
	if !v.Null && v.Str == "" {
		return invalid(name, v.Str, "String must be non-empty")
	}
	return ""
}

// String implements Validator.
func (NonEmptyString) String() string { return "non-empty string" }

// FuncValidator is a validator written as a function (ConfigDef.LambdaValidator).
type FuncValidator struct {
	Fn   func(name string, v Value) string
	Desc string
}

// Validate implements Validator.
func (f FuncValidator) Validate(name string, v Value) string { return f.Fn(name, v) }

// String implements Validator.
func (f FuncValidator) String() string { return f.Desc }

// Topology optimizations, as topology.optimization names them.
const (
	OptimizeNone                    = "none"
	OptimizeAll                     = "all"
	OptimizeReuseKTableSourceTopics = "reuse.ktable.source.topics"
	OptimizeMergeRepartitionTopics  = "merge.repartition.topics"
	OptimizeSingleStoreSelfJoin     = "single.store.self.join"
)

// optimizationHelp is Kafka Streams 4.4's text, unexpanded placeholders and all,
// so the message matches the JVM application's byte for byte.
const optimizationHelp = `Acceptable values are: "+NO_OPTIMIZATION+", "+OPTIMIZE+", or a comma separated list of specific optimizations: ("+REUSE_KTABLE_SOURCE_TOPICS+", "+MERGE_REPARTITION_TOPICS+" + "SINGLE_STORE_SELF_JOIN+").`

// splitJavaList splits like Java's String.split("\\s*,\\s*") (trailing empty
// strings dropped).
func splitJavaList(s string) []string {
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.Trim(parts[i], " \t\n\r\f\v")
	}
	for len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

var topologyOptimizationValidator = FuncValidator{
	Desc: "[none, all, reuse.ktable.source.topics, merge.repartition.topics, single.store.self.join]",
	Fn: func(name string, v Value) string {
		configs := splitJavaList(v.Str)
		has := func(s string) bool {
			for _, c := range configs {
				if c == s {
					return true
				}
			}
			return false
		}
		if (has(OptimizeNone) || has(OptimizeAll)) && len(configs) > 1 {
			return `"` + v.Str + `" is not a valid optimization config. ` + optimizationHelp
		}
		for _, c := range configs {
			switch c {
			case OptimizeNone, OptimizeAll, OptimizeReuseKTableSourceTopics, OptimizeMergeRepartitionTopics, OptimizeSingleStoreSelfJoin:
			default:
				return "Unrecognized config. " + optimizationHelp
			}
		}
		return ""
	},
}

// applicationServerValidator accepts "", host:port or protocol://host:port, as
// Kafka Streams 4.4 does: the host must be non-empty and the port a number.
var applicationServerValidator = FuncValidator{
	Desc: `"", host:port or protocol://host:port`,
	Fn: func(name string, v Value) string {
		if v.Null || v.Str == "" {
			return ""
		}
		hostPort := v.Str
		if i := strings.Index(hostPort, "://"); i >= 0 {
			hostPort = hostPort[i+3:]
		}
		bad := invalid(name, v.Str, "Error parsing host address "+v.Str+". Expected format host:port.")
		i := strings.LastIndex(hostPort, ":")
		if i <= 0 || i == len(hostPort)-1 {
			return bad
		}
		for _, c := range hostPort[i+1:] {
			if c < '0' || c > '9' {
				return bad
			}
		}
		if strings.ContainsAny(hostPort[:i], "/?#") {
			return bad
		}
		return ""
	},
}

// hostPortValidator accepts host:port (host may be empty to listen on all
// interfaces).
var hostPortValidator = FuncValidator{
	Desc: "host:port",
	Fn: func(name string, v Value) string {
		if v.Null {
			return ""
		}
		_, port, err := net.SplitHostPort(v.Str)
		if err != nil {
			return invalid(name, v.Str, "Expected host:port, e.g. 127.0.0.1:7070 or :7070")
		}
		if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
			return invalid(name, v.Str, "Port must be a number between 0 and 65535")
		}
		return ""
	},
}
