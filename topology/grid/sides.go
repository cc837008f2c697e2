package grid

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Sides is the k of a grid's configuration ([network.torus] k,
// [network.mesh] k): one number, the routers of every dimension (k = 16,
// with dimensions = 3 for a 16x16x16 torus), or a list, the routers of
// each dimension (k = [4, 4, 4, 4, 2]). It is held in a fixed array so
// that a configuration stays comparable.
type Sides struct {
	list int // 0: one number, k[0]; else the number of dimensions listed
	k    [MaxDimensions]int
}

// Side is k routers in every dimension.
func Side(k int) Sides { return Sides{k: [MaxDimensions]int{k}} }

// SidesOf lists the routers of each dimension (at most MaxDimensions).
func SidesOf(ks ...int) Sides {
	var s Sides
	s.list = min(len(ks), MaxDimensions)
	copy(s.k[:], ks)
	return s
}

// IsList reports k given as a list.
func (s Sides) IsList() bool { return s.list > 0 }

// K is the one number, or the first of the list.
func (s Sides) K() int { return s.k[0] }

// List is the routers of each dimension listed (nil for one number).
func (s Sides) List() []int {
	if s.list == 0 {
		return nil
	}
	return append([]int(nil), s.k[:s.list]...)
}

// SetUniform makes k one number (icnsim bench --sizes, tests).
func (s *Sides) SetUniform(k int) { *s = Side(k) }

// SweepKind is the kind of value an axis over k sweeps: numbers.
func (Sides) SweepKind() reflect.Kind { return reflect.Int }

// String is k as TOML writes it: 32, or [8, 8, 4].
func (s Sides) String() string {
	if s.list == 0 {
		return strconv.Itoa(s.k[0])
	}
	p := make([]string, s.list)
	for i, k := range s.k[:s.list] {
		p[i] = strconv.Itoa(k)
	}
	return "[" + strings.Join(p, ", ") + "]"
}

// UnmarshalTOML reads a number or an array of numbers (toml.Unmarshaler).
func (s *Sides) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case int64:
		*s = Side(int(v))
		return nil
	case []any:
		if len(v) < 1 || len(v) > MaxDimensions {
			return fmt.Errorf("k lists %d dimensions; allowed: 1..%d", len(v), MaxDimensions)
		}
		ks := make([]int, len(v))
		for i, x := range v {
			n, ok := x.(int64)
			if !ok {
				return fmt.Errorf("k[%d] = %v is not a whole number of routers", i, x)
			}
			ks[i] = int(n)
		}
		*s = SidesOf(ks...)
		return nil
	}
	return fmt.Errorf("k must be a whole number of routers per dimension, or a list of them (one per dimension), not %v", v)
}

// MarshalTOML writes the number or the array (toml.Marshaler).
func (s Sides) MarshalTOML() ([]byte, error) { return []byte(s.String()), nil }
