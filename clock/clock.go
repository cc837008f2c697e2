// Package clock owns simulated time: the global cycle counter type and the
// barrier that separates one cycle from the next.
//
// Every actor of a simulation advances in lock step: all actors execute cycle
// c, meet at the barrier, then all execute cycle c+1. Lanes (package link)
// make a value written in cycle c visible no earlier than c+1, so the order
// in which actors run inside a cycle cannot change any result.
//
// It imports the standard library only.
package clock

import "math"

// Cycle is a simulated clock cycle. Cycle 0 is the first simulated cycle.
type Cycle int64

// Never is a cycle that is never reached; use it for "no event scheduled".
const Never Cycle = math.MaxInt64
