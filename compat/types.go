package compat

import (
	"fmt"
	"strconv"
	"strings"
)

// Type is a ConfigDef type: how a raw string becomes a value.
type Type int

// The ConfigDef types, with Java's parsing rules (see ParseValue).
const (
	TypeBoolean Type = iota
	TypeString
	TypeInt
	TypeShort
	TypeLong
	TypeDouble
	TypeList
	TypeClass
	TypePassword
)

var typeNames = [...]string{"BOOLEAN", "STRING", "INT", "SHORT", "LONG", "DOUBLE", "LIST", "CLASS", "PASSWORD"}

// String returns the Java enum name, e.g. "INT".
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "Type(" + strconv.Itoa(int(t)) + ")"
}

// Importance is a ConfigDef importance.
type Importance int

// The ConfigDef importance levels.
const (
	High Importance = iota
	Medium
	Low
)

// String returns "HIGH", "MEDIUM" or "LOW".
func (i Importance) String() string {
	switch i {
	case High:
		return "HIGH"
	case Medium:
		return "MEDIUM"
	}
	return "LOW"
}

// Value is a parsed config value. Exactly the field matching Type is meaningful.
type Value struct {
	Type Type
	// Null is set for a null value (a key whose default is null, never a parsed string).
	Null bool
	Bool bool
	// Int holds INT, SHORT and LONG values.
	Int   int64
	Float float64
	// Str holds STRING and PASSWORD values and the binary name of a CLASS.
	Str  string
	List []string
}

// JavaString renders the value as Java's toString would in a config log:
// null as "null", a List as "[a, b]", a Class as "class <name>", a Password as
// "[hidden]".
func (v Value) JavaString() string {
	if v.Null {
		return "null"
	}
	switch v.Type {
	case TypeList:
		return "[" + strings.Join(v.List, ", ") + "]"
	case TypeClass:
		return "class " + v.Str
	case TypePassword:
		return "[hidden]"
	}
	return v.text()
}

// text renders the value as a .properties file would give it: a list
// comma-separated, a class by its binary name, a password in clear.
func (v Value) text() string {
	switch v.Type {
	case TypeBoolean:
		return strconv.FormatBool(v.Bool)
	case TypeInt, TypeShort, TypeLong:
		return strconv.FormatInt(v.Int, 10)
	case TypeDouble:
		return javaDouble(v.Float)
	case TypeList:
		return strings.Join(v.List, ",")
	}
	return v.Str
}

// Equal reports whether two values are the same.
func (v Value) Equal(o Value) bool {
	if v.Null || o.Null {
		return v.Null == o.Null
	}
	switch v.Type {
	case TypeBoolean:
		return v.Bool == o.Bool
	case TypeInt, TypeShort, TypeLong:
		return v.Int == o.Int
	case TypeDouble:
		return v.Float == o.Float
	case TypeList:
		if len(v.List) != len(o.List) {
			return false
		}
		for i := range v.List {
			if v.List[i] != o.List[i] {
				return false
			}
		}
		return true
	}
	return v.Str == o.Str
}

// javaDouble approximates Java's Double.toString.
func javaDouble(f float64) string {
	if f == float64(int64(f)) && f < 1e7 && f > -1e7 {
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	abs := f
	if abs < 0 {
		abs = -abs
	}
	if abs >= 1e-3 && abs < 1e7 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'E', -1, 64)
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return fmt.Sprintf("%sE%d", mant, e)
}
