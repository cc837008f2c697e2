package fattree

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxLevels is the most switch levels of a fat-tree.
const MaxLevels = 10

// Ratios is the oversubscription list of a tapered fat-tree's
// configuration (Config.Oversubscription): a ratio of down to up ports for
// each level below the roots, from the leaves up. It is written as a TOML
// array of numbers and held in a fixed array, so that a configuration
// stays comparable (studies use networks as map keys).
type Ratios struct {
	n int
	r [MaxLevels]float64
}

// RatiosOf is the list rs.
func RatiosOf(rs ...float64) Ratios {
	var o Ratios
	o.n = min(len(rs), MaxLevels)
	copy(o.r[:], rs)
	return o
}

// List is the ratios, nil when left out.
func (o Ratios) List() []float64 {
	if o.n == 0 {
		return nil
	}
	return append([]float64(nil), o.r[:o.n]...)
}

// String is the list as TOML writes it: [2, 1.5].
func (o Ratios) String() string {
	s := make([]string, o.n)
	for i, r := range o.r[:o.n] {
		s[i] = strconv.FormatFloat(r, 'g', -1, 64)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// UnmarshalTOML reads an array of numbers (toml.Unmarshaler).
func (o *Ratios) UnmarshalTOML(v any) error {
	a, ok := v.([]any)
	if !ok {
		return fmt.Errorf("oversubscription must be an array of numbers (one ratio per level below the roots), not %v", v)
	}
	if len(a) > MaxLevels-1 {
		return fmt.Errorf("oversubscription lists %d ratios; a fat-tree has at most %d levels below its roots", len(a), MaxLevels-1)
	}
	*o = Ratios{n: len(a)}
	for i, x := range a {
		switch x := x.(type) {
		case int64:
			o.r[i] = float64(x)
		case float64:
			o.r[i] = x
		default:
			return fmt.Errorf("oversubscription[%d] = %v is not a number", i, x)
		}
	}
	return nil
}

// MarshalTOML writes the array (toml.Marshaler).
func (o Ratios) MarshalTOML() ([]byte, error) {
	s := make([]string, o.n)
	for i, r := range o.r[:o.n] {
		s[i] = strconv.FormatFloat(r, 'f', -1, 64)
		if !strings.ContainsAny(s[i], ".eE") {
			s[i] += ".0"
		}
	}
	return []byte("[" + strings.Join(s, ", ") + "]"), nil
}
