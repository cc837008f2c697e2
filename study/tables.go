package study

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// A selector is a key whose value selects one of several tables of the
// catalog: network.topology a family's ([network.<topology>]), router.kind
// a router kind's ([router.<kind>]). A table no configuration of a file
// selects is refused (its keys would be ignored), and a key of the flat
// table of earlier versions names the table it moved to.
type selector struct {
	parent, key string // "network", "topology"
	tables      any    // the catalog's struct of tables: families{}, kinds{}
	owner       string // whose keys the tables hold, in words: "a topology"
}

// selectors are the catalog's selectors.
func selectors() []selector {
	return []selector{{"network", "topology", families{}, "a topology"}, {"router", "kind", kinds{}, "a router kind"}}
}

// names are the values of the selector: its tables' TOML keys, in the
// catalog's order.
func (s selector) names() []string {
	t := reflect.TypeOf(s.tables)
	names := make([]string, t.NumField())
	for i := range names {
		names[i] = tomlName(t.Field(i))
	}
	return names
}

// keys are the keys of each table, by the selector's value (a table in a
// table, as the ioq switch's recn, is one key).
func (s selector) keys() map[string][]string {
	out := map[string][]string{}
	t := reflect.TypeOf(s.tables)
	for i := range t.NumField() {
		ft := t.Field(i).Type
		for j := range ft.NumField() {
			if f := ft.Field(j); f.IsExported() {
				out[tomlName(t.Field(i))] = append(out[tomlName(t.Field(i))], tomlName(f))
			}
		}
	}
	return out
}

// selected is the selector's value in c.
func (s selector) selected(c *Config) string {
	v, _ := keyValue(c, s.parent+"."+s.key)
	if str, _ := v.(string); str != "" {
		return str
	}
	return s.names()[0] // a Config built in Go leaves router.kind out: vc
}

// tomlName is a struct field's TOML key.
func tomlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	return name
}

// movedKey words the error of a key of the flat [network] or [router]
// table of earlier versions ("network.k", "router.vc.vcs", "router.ioq.recn.saqs"),
// which is now a key of a family's or a router kind's table; "" for a key
// that never was one.
func movedKey(k toml.Key, c *Config) string {
	for _, s := range selectors() {
		if len(k) < 2 || k[0] != s.parent {
			continue
		}
		var in []string
		keys := s.keys()
		for _, name := range s.names() {
			if slices.Contains(keys[name], k[1]) {
				in = append(in, strings.Join(append([]string{s.parent, name}, k[1:]...), "."))
			}
		}
		sel := s.selected(c)
		switch at := strings.Join(append([]string{s.parent, sel}, k[1:]...), "."); {
		case slices.Contains(in, at):
			return fmt.Sprintf("moved to %s: %s's keys are in its own table, [%s.%s]", at, s.owner, s.parent, sel)
		case len(in) > 0:
			return fmt.Sprintf("moved into the table of each %s that has it (%s); %s.%s = %q has no %s", strings.TrimPrefix(s.owner, "a "), strings.Join(in, ", "), s.parent, s.key, sel, k[1])
		}
	}
	return ""
}

// unselectedTables refuses a table of a selector that no configuration of
// the file selects (selected: the selector's value in each): its keys
// would be ignored, silently.
func unselectedTables(md toml.MetaData, s selector, selected []string, add func(key []string, allowed string)) {
	for _, name := range s.names() { // in the catalog's order: errors in a fixed order
		if md.IsDefined(s.parent, name) && !slices.Contains(selected, name) {
			add([]string{s.parent, name}, fmt.Sprintf("the table of %s.%s = %q, which nothing here selects (%s.%s: %s): its keys would be ignored; remove it, or set %s.%s",
				s.parent, s.key, name, s.parent, s.key, strings.Join(slices.Compact(slices.Sorted(slices.Values(selected))), ", "), s.parent, s.key))
		}
	}
}

// unselectedAxis words the error of an axis over a key of a table that no
// point selects ("" for any other key).
func unselectedAxis(key string, s selector, selected []string) string {
	parts := strings.Split(key, ".")
	if len(parts) < 3 || parts[0] != s.parent || !slices.Contains(s.names(), parts[1]) || slices.Contains(selected, parts[1]) {
		return ""
	}
	return fmt.Sprintf("a key of the table of %s.%s = %q, which no point selects (%s.%s: %s): the axis would change nothing",
		s.parent, s.key, parts[1], s.parent, s.key, strings.Join(slices.Compact(slices.Sorted(slices.Values(selected))), ", "))
}

// keepSelected zeroes every table of the struct of tables at ptr (a
// *families, a *kinds) but the one named name, as a record stores them.
func keepSelected(ptr any, name string) {
	v := reflect.ValueOf(ptr).Elem()
	for i := range v.NumField() {
		if tomlName(v.Type().Field(i)) != name {
			v.Field(i).SetZero()
		}
	}
}
