package slimfly

import "testing"

// TestField: for every prime power up to 64 the tables are a field: sums
// and products commute and associate, products distribute over sums, 0
// and 1 are the identities, every element has a negative and every
// nonzero one an inverse, and the primitive element's powers are every
// nonzero element once; other orders are refused.
func TestField(t *testing.T) {
	for q := 2; q <= 64; q++ {
		f, err := newField(q)
		if _, _, pp := primePower(q); !pp {
			if err == nil {
				t.Errorf("q = %d: not a prime power, accepted", q)
			}
			continue
		}
		if err != nil {
			t.Fatalf("q = %d: %v", q, err)
		}
		for a := range q {
			if f.sum(a, 0) != a || f.prod(a, 1) != a || f.prod(a, 0) != 0 || f.sum(a, int(f.neg[a])) != 0 {
				t.Fatalf("q = %d: identities fail at %d", q, a)
			}
			inv := false
			for b := range q {
				if f.sum(a, b) != f.sum(b, a) || f.prod(a, b) != f.prod(b, a) {
					t.Fatalf("q = %d: %d, %d do not commute", q, a, b)
				}
				inv = inv || f.prod(a, b) == 1
				for c := range q {
					if f.prod(a, f.sum(b, c)) != f.sum(f.prod(a, b), f.prod(a, c)) || f.prod(a, f.prod(b, c)) != f.prod(f.prod(a, b), c) || f.sum(a, f.sum(b, c)) != f.sum(f.sum(a, b), c) {
						t.Fatalf("q = %d: %d, %d, %d break a law", q, a, b, c)
					}
				}
			}
			if a != 0 && !inv {
				t.Fatalf("q = %d: %d has no inverse", q, a)
			}
		}
		seen := map[int]bool{}
		for e := range q - 1 {
			seen[f.power(e)] = true
		}
		if len(seen) != q-1 || seen[0] {
			t.Fatalf("q = %d: the primitive element %d reaches %d elements", q, f.primitive, len(seen))
		}
	}
}
