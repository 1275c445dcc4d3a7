package compat

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// javaTrim trims what Java's String.trim trims: every char <= U+0020.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// invalid formats Kafka's ConfigException(name, value, message) text.
func invalid(name, value, msg string) string {
	return "Invalid value " + value + " for configuration " + name + ": " + msg
}

var (
	javaIntPattern    = regexp.MustCompile(`^[+-]?[0-9]+$`)
	javaDoublePattern = regexp.MustCompile(`^[+-]?(NaN|Infinity|(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+)[fFdD]?)$`)
	javaClassPattern  = regexp.MustCompile(`^[\p{L}_$][\p{L}\p{N}_$]*(\.[\p{L}_$][\p{L}\p{N}_$]*)*$`)
)

// ParseValue parses raw as Kafka's ConfigDef.parseType does for a String value
// of type t, returning Kafka's exact message on failure: BOOLEAN accepts only
// true/false in any case; INT, SHORT and LONG accept an optional sign and decimal
// digits within range ("Not a number of type INT" otherwise); DOUBLE accepts
// Java's Double.parseDouble syntax; LIST splits on commas with surrounding blanks
// removed (an empty string is an empty list); STRING, PASSWORD and CLASS are
// trimmed. A CLASS must look like a Java binary class name; whether StoatFlow
// has an equivalent is decided later, per key.
func ParseValue(name, raw string, t Type) (Value, error) {
	tr := javaTrim(raw)
	v := Value{Type: t}
	fail := func(msg string) (Value, error) {
		return Value{}, fmt.Errorf("%s", invalid(name, raw, msg))
	}
	switch t {
	case TypeBoolean:
		switch strings.ToLower(tr) {
		case "true":
			v.Bool = true
		case "false":
		default:
			return fail("Expected value to be either true or false")
		}
	case TypeString, TypePassword:
		v.Str = tr
	case TypeInt, TypeShort, TypeLong:
		bits := map[Type]int{TypeInt: 32, TypeShort: 16, TypeLong: 64}[t]
		if !javaIntPattern.MatchString(tr) {
			return fail("Not a number of type " + t.String())
		}
		n, err := strconv.ParseInt(strings.TrimPrefix(tr, "+"), 10, bits)
		if err != nil {
			return fail("Not a number of type " + t.String())
		}
		v.Int = n
	case TypeDouble:
		if !javaDoublePattern.MatchString(tr) {
			return fail("Not a number of type DOUBLE")
		}
		s := strings.TrimRight(tr, "fFdD")
		if strings.HasPrefix(strings.ToLower(strings.TrimLeft(s, "+-")), "0x") {
			s = tr // hex floats keep their suffix-free form below
			s = strings.TrimRight(s, "fFdD")
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				f = math.Inf(1)
				if strings.HasPrefix(s, "-") {
					f = math.Inf(-1)
				}
				if math.Abs(f) == 0 {
					f = 0
				}
			} else {
				return fail("Not a number of type DOUBLE")
			}
		}
		v.Float = f
	case TypeList:
		if tr == "" {
			v.List = []string{}
		} else {
			parts := strings.Split(tr, ",")
			for i, p := range parts {
				parts[i] = strings.Trim(p, " \t\n\r\f\v")
			}
			v.List = parts
		}
	case TypeClass:
		if !javaClassPattern.MatchString(tr) {
			return fail("Class " + raw + " could not be found.")
		}
		v.Str = tr
	}
	return v, nil
}

// parseDefault parses a catalog default; a bad one is a programming error.
func parseDefault(k *Key) Value {
	if k.NullDefault {
		return Value{Type: k.Type, Null: true}
	}
	v, err := ParseValue(k.Name, k.Default, k.Type)
	if err != nil {
		panic("compat: bad catalog default: " + err.Error())
	}
	return v
}
