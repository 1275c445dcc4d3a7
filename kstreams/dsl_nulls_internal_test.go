package kstreams

import (
	"testing"

	"github.com/stoatflow/stoatflow/kstreams/serde"
)

func TestCanHoldNilFollowsTheKind(t *testing.T) {
	type point struct{ X, Y int }
	for name, got := range map[string]bool{
		"string": canHoldNil[string](), "int64": canHoldNil[int64](), "struct": canHoldNil[point](),
		"array": canHoldNil[[2]byte](), "Windowed": canHoldNil[Windowed[string]](),
	} {
		if got {
			t.Errorf("canHoldNil[%s] = true", name)
		}
	}
	for name, got := range map[string]bool{
		"*string": canHoldNil[*string](), "[]byte": canHoldNil[[]byte](), "map": canHoldNil[map[string]int](),
		"any": canHoldNil[any](), "error": canHoldNil[error](), "func": canHoldNil[func()](),
	} {
		if !got {
			t.Errorf("canHoldNil[%s] = false", name)
		}
	}
}

func TestValueArgNeverFabricatesAZeroValue(t *testing.T) {
	str := valueArg[string](nil)
	if v, ok := str(nil); ok || v != "" {
		t.Errorf("string arg of null = %q, %v; want not ok", v, ok)
	}
	if v, ok := str(""); !ok || v != "" {
		t.Errorf(`string arg of "" = %q, %v; want "", ok`, v, ok)
	}
	bytes := valueArg[[]byte](nil)
	if v, ok := bytes(nil); !ok || v != nil {
		t.Errorf("[]byte arg of null = %v, %v; want nil, ok", v, ok)
	}
}

func TestNullableViewBoxesAndUnboxesRecords(t *testing.T) {
	b := NewStreamsBuilder()
	s := Stream(b, []string{"in"}, ConsumedWith[string, string](serde.String{}, serde.String{}))
	view := Nullable(s)
	arg := valueArg[*string](view.view)
	if p, ok := arg(nil); !ok || p != nil {
		t.Errorf("view arg of null = %v, %v; want nil, ok", p, ok)
	}
	if p, ok := arg(""); !ok || p == nil || *p != "" {
		t.Errorf(`view arg of "" = %v, %v; want a pointer to ""`, p, ok)
	}
	x := "x"
	if got := view.view.unboxed(&x); got != "x" {
		t.Errorf("unboxed(&x) = %#v, want the record value \"x\"", got)
	}
	if got := view.view.unboxed((*string)(nil)); got != nil {
		t.Errorf("unboxed(nil pointer) = %#v, want null", got)
	}
	// A view of a view: **string over the same string records.
	twice := Nullable(view)
	arg2 := valueArg[**string](twice.view)
	if pp, ok := arg2("y"); !ok || pp == nil || *pp == nil || **pp != "y" {
		t.Errorf("view of a view of \"y\" = %v, %v", pp, ok)
	}
	if pp, _ := arg2(nil); pp != nil {
		t.Errorf("view of a view of null = %v, want nil", pp)
	}
	y := "y"
	py := &y
	if got := twice.view.unboxed(&py); got != "y" {
		t.Errorf("view of a view unboxed = %#v, want \"y\"", got)
	}
}

func TestViewSerdeReadsAndWritesBaseRecords(t *testing.T) {
	b := NewStreamsBuilder()
	view := Nullable(Stream(b, []string{"in"}, ConsumedWith[string, string](serde.String{}, serde.String{}))).view
	u := view.wrap(serde.Erase(serde.Nullable[string](serde.String{})))
	for _, v := range []any{"", "abc"} {
		raw, err := u.SerializeAny("t", v)
		if err != nil || string(raw) != v.(string) || raw == nil {
			t.Errorf("serialize %q = %q, %v", v, raw, err)
		}
		back, err := u.DeserializeAny("t", raw)
		if err != nil || back != v {
			t.Errorf("deserialize %q = %#v, %v; want the base value", raw, back, err)
		}
	}
	if raw, err := u.SerializeAny("t", nil); raw != nil || err != nil {
		t.Errorf("serialize null = %q, %v", raw, err)
	}
	if v, err := u.DeserializeAny("t", nil); v != nil || err != nil {
		t.Errorf("deserialize null = %#v, %v", v, err)
	}
}
