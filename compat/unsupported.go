package compat

import (
	"fmt"
	"strings"
)

// notHonoured is a StreamsConfig key that StoatFlow parses and validates but
// does not act on yet. Load reports any value other than Kafka's default (a
// default never warns), naming the key, the value and what StoatFlow does
// instead: a warning when the results are those Kafka Streams would give, an
// error when they would differ.
type notHonoured struct {
	key string
	sev Severity
	// instead says what StoatFlow does instead.
	instead string
	// active, when set, decides from the typed Config whether the setting
	// differs from Kafka's default (for keys a twin or a deprecated key can
	// also set, or whose unknown values are already refused).
	active func(c *Config) bool
}

// notHonouredKeys are the keys StoatFlow does not act on yet. A key leaves
// this list in the change that implements it (the config-field test then
// requires it: a field the runtime reads may not be warned about).
var notHonouredKeys = []notHonoured{
	{key: "task.timeout.ms", sev: SeverityWarning,
		instead: "StoatFlow has no per-task timeout: franz-go retries timed-out requests itself, and a stream thread fails on the first error its clients give up on"},

	{key: "dsl.store.format", sev: SeverityWarning,
		instead: "StoatFlow's DSL stores do not keep record headers yet",
		active:  func(c *Config) bool { return c.DSLStoreHeaders }},
}

// shown renders a value as the user wrote it: a class by its name, a list
// comma-separated, anything else as Java prints it.
func shown(v Value) string {
	switch {
	case v.Null:
		return "null"
	case v.Type == TypeClass:
		return v.Str
	case v.Type == TypeList:
		return strings.Join(v.List, ",")
	}
	return v.JavaString()
}

// notHonoured reports every key of notHonouredKeys set to a value other than
// its default.
func (l *loader) notHonoured(c *Config) {
	for _, n := range notHonouredKeys {
		key := n.key
		if n.active != nil {
			if !n.active(c) {
				continue
			}
			if key == DSLStoreSuppliersClassConfig && !l.given(key) {
				key = DefaultDSLStoreConfig // the deprecated key chose the store
			}
		} else {
			k, ok := streamsIndex[key]
			if !ok {
				continue // TestNotHonouredKeysAreCatalogKeys keeps this from happening
			}
			v, def := l.values[key], k.DefaultValue()
			if !l.given(key) || v.Equal(def) || (v.Type == TypeString && strings.EqualFold(v.Str, def.Str)) {
				continue
			}
		}
		hint := "remove the line to silence this warning"
		if n.sev == SeverityError {
			hint = "remove the line: StoatFlow does not run where its results would differ from Kafka Streams'"
		}
		l.add(n.sev, key, fmt.Sprintf("%s = %s is not supported yet: %s", key, shown(l.values[key]), n.instead), hint)
	}
}
