package keys

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxListed is the most values a List holds.
const MaxListed = 8

// List is a short TOML array of numbers as a comparable value (a
// configuration is a map key, so it holds no slices): at most MaxListed
// values, whole numbers when T is int. The zero value is the empty list,
// which TOML writes as [].
type List[T int | float64] struct {
	n int
	v [MaxListed]T
}

// ListOf is the list vs (at most MaxListed of them).
func ListOf[T int | float64](vs ...T) List[T] {
	var l List[T]
	l.n = min(len(vs), MaxListed)
	copy(l.v[:], vs)
	return l
}

// Len is the number of values.
func (l List[T]) Len() int { return l.n }

// At is value i (0 <= i < Len).
func (l List[T]) At(i int) T { return l.v[i] }

// Values is the values, nil for the empty list.
func (l List[T]) Values() []T {
	if l.n == 0 {
		return nil
	}
	return append([]T(nil), l.v[:l.n]...)
}

// String is the list as TOML writes it: [25, 75].
func (l List[T]) String() string {
	s := make([]string, l.n)
	for i, x := range l.v[:l.n] {
		s[i] = strconv.FormatFloat(float64(x), 'g', -1, 64)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// UnmarshalTOML reads an array of numbers (toml.Unmarshaler).
func (l *List[T]) UnmarshalTOML(v any) error {
	a, ok := v.([]any)
	if !ok {
		return fmt.Errorf("must be an array of numbers, not %v", v)
	}
	if len(a) > MaxListed {
		return fmt.Errorf("lists %d values; at most %d", len(a), MaxListed)
	}
	*l = List[T]{n: len(a)}
	var zero T
	_, whole := any(zero).(int)
	for i, x := range a {
		var f float64
		switch x := x.(type) {
		case int64:
			f = float64(x)
		case float64:
			f = x
		default:
			return fmt.Errorf("value %d (%v) is not a number", i, x)
		}
		if whole && (f != math.Trunc(f) || math.Abs(f) > 1<<31) {
			return fmt.Errorf("value %d (%v) is not a whole number", i, x)
		}
		l.v[i] = T(f)
	}
	return nil
}

// MarshalTOML writes the array (toml.Marshaler), floats with a point.
func (l List[T]) MarshalTOML() ([]byte, error) {
	var zero T
	_, whole := any(zero).(int)
	s := make([]string, l.n)
	for i, x := range l.v[:l.n] {
		s[i] = strconv.FormatFloat(float64(x), 'f', -1, 64)
		if !whole && !strings.ContainsAny(s[i], ".eE") {
			s[i] += ".0"
		}
	}
	return []byte("[" + strings.Join(s, ", ") + "]"), nil
}
