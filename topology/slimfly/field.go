package slimfly

import "fmt"

// field is the finite field of q = p^n elements. An element is an integer
// 0..q-1 whose base-p digits are the coefficients of a polynomial of
// degree below n (digit i the coefficient of x^i); sums add the digits
// mod p, products multiply the polynomials modulo an irreducible f of
// degree n (for n = 1, the integers mod p). 0 and 1 are the elements 0
// and 1. Its tables are q x q bytes (q <= 64).
type field struct {
	q, p, n   int
	add, mul  []uint8 // add[a*q+b], mul[a*q+b]
	neg       []uint8
	primitive int // an element whose powers are every nonzero element
}

// primePower reports q = p^n with p prime, n >= 1.
func primePower(q int) (p, n int, ok bool) {
	if q < 2 {
		return 0, 0, false
	}
	for p = 2; p*p <= q; p++ {
		if q%p == 0 {
			break
		}
	}
	if q%p != 0 {
		return q, 1, true // q is prime
	}
	for n = 0; q > 1; n++ {
		if q%p != 0 {
			return 0, 0, false
		}
		q /= p
	}
	return p, n, true
}

// newField builds the field of q elements, q a prime power up to 64.
func newField(q int) (*field, error) {
	p, n, ok := primePower(q)
	if !ok || q > 64 {
		return nil, fmt.Errorf("slim fly q = %d: not a prime power up to 64", q)
	}
	f := &field{q: q, p: p, n: n, add: make([]uint8, q*q), mul: make([]uint8, q*q), neg: make([]uint8, q)}
	digits := func(e int) []int {
		d := make([]int, n)
		for i := range d {
			d[i], e = e%p, e/p
		}
		return d
	}
	value := func(d []int) int {
		e := 0
		for i := n - 1; i >= 0; i-- {
			e = e*p + d[i]
		}
		return e
	}
	for a := range q {
		da := digits(a)
		for b := range q {
			db := digits(b)
			s := make([]int, n)
			for i := range s {
				s[i] = (da[i] + db[i]) % p
			}
			f.add[a*q+b] = uint8(value(s))
			if f.add[a*q+b] == 0 {
				f.neg[a] = uint8(b)
			}
		}
	}
	// Try each monic f of degree n (its lower coefficients are the digits
	// of low) until the products modulo it have an element of order q-1.
	for low := range q {
		fl := digits(low)
		for a := range q {
			da := digits(a)
			for b := range q {
				db := digits(b)
				prod := make([]int, 2*n)
				for i, x := range da {
					for j, y := range db {
						prod[i+j] = (prod[i+j] + x*y) % p
					}
				}
				// x^n = -(f's lower part): reduce from the top down.
				for k := 2*n - 1; k >= n; k-- {
					if c := prod[k]; c != 0 {
						prod[k] = 0
						for i, y := range fl {
							prod[k-n+i] = ((prod[k-n+i]-c*y)%p + p) % p
						}
					}
				}
				f.mul[a*q+b] = uint8(value(prod[:n]))
			}
		}
		for g := 1; g < q; g++ {
			x, order := g, 1
			for x != 1 && order < q {
				x = int(f.mul[x*q+g])
				order++
				if x == 0 {
					break
				}
			}
			if x == 1 && order == q-1 {
				f.primitive = g
				return f, nil
			}
		}
	}
	return nil, fmt.Errorf("slim fly q = %d: no irreducible polynomial found (a bug)", q)
}

func (f *field) sum(a, b int) int  { return int(f.add[a*f.q+b]) }
func (f *field) diff(a, b int) int { return int(f.add[a*f.q+int(f.neg[b])]) }
func (f *field) prod(a, b int) int { return int(f.mul[a*f.q+b]) }

// power is the primitive element to the power e.
func (f *field) power(e int) int {
	x := 1
	for range e {
		x = f.prod(x, f.primitive)
	}
	return x
}
