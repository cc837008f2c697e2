package actor_test

import (
	"fmt"

	"github.com/icnsim/icnsim/actor"
)

// A line of six actors, each joined by lanes to the next, run in blocks of
// two cycles: the first piece ticks actors 0-2 at the first step and 0-1 at
// the second, leaning towards itself; the second piece ticks the rest. A
// plan whose pieces do not lean is refused.
func ExampleNewSchedule() {
	g := actor.Graph{Off: []int32{0, 1, 2, 3, 4, 5, 5}, Adj: []int32{1, 2, 3, 4, 5}}
	plan := [][]actor.PieceStep{
		{{{0, 3}}, {{0, 2}}},
		{{{3, 6}}, {{2, 6}}},
	}
	sc, err := actor.NewSchedule(6, 2, plan, g)
	fmt.Println(sc.Steps(), sc.Pieces(), sc.Deps(), err)

	flat := [][]actor.PieceStep{
		{{{0, 3}}, {{0, 3}}},
		{{{3, 6}}, {{3, 6}}},
	}
	_, err = actor.NewSchedule(6, 2, flat, g)
	fmt.Println(err)
	// Output:
	// 2 2 1 <nil>
	// actor: schedule step 1: actor 2 (piece 0) runs before its neighbour 3's step 0 (piece 1)
}
