package routing

import (
	"fmt"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/topology"
)

// Param is a parameter a routing function reads, declared in its Spec: its
// key under [router] in a configuration, what it means, and its values.
type Param struct {
	Key string // e.g. "ugal_threshold_flits", "har.free"
	Doc string
	// Choices, for a parameter that picks one of a few rules, lists them,
	// the default first; nil for an integer parameter, whose default is 0.
	Choices []string
	// ChoicesDoc says what each choice does.
	ChoicesDoc string
	// MinInt and MaxInt bound an integer parameter.
	MinInt, MaxInt int
}

// Params are the values a configuration gives to routing parameters, by
// key: an int for an integer parameter, a string for a choice. A value
// left out (or the zero value) is the parameter's default.
type Params map[string]any

// Configurable is implemented by routing functions with parameters:
// Configure is called once, before the network is built, with the values
// of the parameters its Spec declares.
type Configurable interface {
	Configure(p Params) error
}

// Param returns the parameter of s with the given key.
func (s Spec) Param(key string) (Param, bool) {
	i := slices.IndexFunc(s.Params, func(p Param) bool { return p.Key == key })
	if i < 0 {
		return Param{}, false
	}
	return s.Params[i], true
}

// MinVCsFor is the smallest VC count with which s is deadlock free on t.
func (s Spec) MinVCsFor(t topology.Topology) int {
	if s.MinVCsOn != nil {
		return s.MinVCsOn(t)
	}
	return s.MinVCs
}

// CheckParams reports a value of p that s does not read, or that is
// outside its parameter's values; a zero value of a parameter s does not
// read is no value.
func (s Spec) CheckParams(p Params) error {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := p[k]
		par, ok := s.Param(k)
		if !ok {
			if v == nil || v == 0 || v == "" {
				continue
			}
			return fmt.Errorf("%s = %v: routing %q has no such parameter", k, v, s.Name)
		}
		if err := par.Check(v); err != nil {
			return err
		}
	}
	return nil
}

// Check reports a value v that p does not allow.
func (p Param) Check(v any) error {
	switch x := v.(type) {
	case nil:
		return nil
	case int:
		if p.Choices == nil && x >= p.MinInt && x <= p.MaxInt {
			return nil
		}
	case string:
		if p.Choices != nil && (x == "" || slices.Contains(p.Choices, x)) {
			return nil
		}
	}
	if p.Choices != nil {
		return fmt.Errorf("%s = %v: allowed: %s", p.Key, v, strings.Join(p.Choices, ", "))
	}
	return fmt.Errorf("%s = %v: allowed: integers %d..%d", p.Key, v, p.MinInt, p.MaxInt)
}

// Int is the value of integer parameter key in p (0 when not given).
func (p Params) Int(key string) int {
	v, _ := p[key].(int)
	return v
}

// Choice is the value of choice parameter key in p ("" when not given:
// the default).
func (p Params) Choice(key string) string {
	v, _ := p[key].(string)
	return v
}

// ParseChoice reads one of a choice's names as its value (its index in
// names); with emptyIsDefault, "" is the first, the default.
func ParseChoice[T ~uint8](names []string, s, what string, emptyIsDefault bool) (T, error) {
	if s == "" && emptyIsDefault {
		return 0, nil
	}
	for i, n := range names {
		if n == s {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (allowed: %s)", what, s, strings.Join(names, ", "))
}

// ChoiceName is the name of a choice's value, or label(value) for one outside
// names.
func ChoiceName[T ~uint8](names []string, v T, label string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", label, uint8(v))
}
