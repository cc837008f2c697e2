package link_test

import (
	"fmt"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// A value sent on a lane of latency 2 at cycle 5 is visible at cycle 7 only.
func ExampleLane() {
	l := link.NewLane[string]("A->B", 2)
	l.Send(5, "hello")
	for c := 5; c <= 8; c++ {
		if v := l.Recv(int64ToCycle(c)); v != nil {
			fmt.Println("cycle", c, *v)
		}
	}
	// Output:
	// cycle 7 hello
}

func int64ToCycle(c int) clock.Cycle { return clock.Cycle(c) }
