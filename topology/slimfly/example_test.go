package slimfly_test

import (
	"fmt"
	"strings"

	"github.com/icnsim/icnsim/topology/slimfly"
)

// A Slim Fly of q = 5 (d = 1) with Besta and Hoefler's ceil(k'/2) = 4
// nodes per router: 50 routers of network radix 7 at diameter 2. Over
// F_5 with primitive element 2, X = {2^0, 2^2} = {1, 4}, so router
// (0,0,0) is joined to (0,0,y') for 0 - y' in X, y' = 4 or 1, and to
// (1,m,c) with c = y - m*x = 0 for every m.
func ExampleNew() {
	s, err := slimfly.New(5, 4)
	if err != nil {
		panic(err)
	}
	fmt.Println(s)
	fmt.Println(s.Routers(), "routers,", s.Nodes(), "nodes, radix", s.Radix(), "diameter", s.Diameter())
	var links []string
	for p := s.P; p < s.Ports(0); p++ {
		links = append(links, s.PortName(0, p))
	}
	fmt.Println(strings.Join(links, " "))
	// Output:
	// slim fly q=5 (50 routers of radix 7, 4 nodes per router)
	// 50 routers, 200 nodes, radix 7 diameter 2
	// R(0,0,0)>R(0,0,1) R(0,0,0)>R(0,0,4) R(0,0,0)>R(1,0,0) R(0,0,0)>R(1,1,0) R(0,0,0)>R(1,2,0) R(0,0,0)>R(1,3,0) R(0,0,0)>R(1,4,0)
}
