package dragonflyplus_test

import (
	"fmt"
	"strings"

	"github.com/icnsim/icnsim/topology/dragonflyplus"
)

// A balanced Dragonfly+ of 2 leaves a group: 2 spines, 2 nodes a leaf, 2
// global links a spine, g = 2*2 + 1 = 5 groups. Spine 0 of group 0 holds
// the group's global links 0 and 1, which the palmtree arrangement sends
// to groups 1 and 2, arriving there as link g-2-o = 3 and 2: on spine 1.
func ExampleNew() {
	d, err := dragonflyplus.New(2, 2, 2, 2, 5)
	if err != nil {
		panic(err)
	}
	fmt.Println(d)
	spine := d.Spine(0, 0)
	var ports []string
	for p := range d.Ports(spine) {
		ports = append(ports, d.PortName(spine, p)+">"+d.RouterName(d.Peer(spine, p).Router))
	}
	fmt.Println(strings.Join(ports, " "))
	// Output:
	// dragonfly+ p=2 leaves=2 spines=2 h=2 g=5 (20 nodes)
	// S(0,0).d0>L(0,0) S(0,0).d1>L(0,1) S(0,0).g0>S(1,1) S(0,0).g1>S(2,1)
}
