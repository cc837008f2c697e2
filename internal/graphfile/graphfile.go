// Package graphfile writes topology files (network.topology = "file",
// package topology/graph's format) for tests: random connected graphs.
// It imports nothing of icnsim's.
package graphfile

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// RandomConnected is a random connected graph file: a random spanning
// tree over routers routers (each router after the first linked to a
// random earlier one), extra further random links (parallel links
// included, self-links left out), and one or two nodes on a random half of
// the routers and on routers 0 and 1 (at least two nodes in all).
func RandomConnected(rng *rand.Rand, routers, extra int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "routers %d\n", routers)
	for r := range routers {
		if r < 2 || rng.IntN(2) == 0 {
			for range 1 + rng.IntN(2) {
				fmt.Fprintf(&b, "node %d\n", r)
			}
		}
	}
	for r := 1; r < routers; r++ {
		fmt.Fprintf(&b, "link %d %d\n", r, rng.IntN(r))
	}
	for range extra {
		if a, c := rng.IntN(routers), rng.IntN(routers); a != c {
			fmt.Fprintf(&b, "link %d %d\n", a, c)
		}
	}
	return b.String()
}
