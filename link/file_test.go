package link

import (
	"strings"
	"testing"
)

// TestReadGraph reads a small graph and refuses bad files with the line
// and what is wrong.
func TestReadGraph(t *testing.T) {
	g, err := ReadGraph("ring.txt", strings.NewReader(`# a ring of 4 routers, a node each
routers 4
node 0
node 1
node 2
node 3
link 0 1
link 1 2 5   # a longer link
link 2 3
link 3 0
`))
	if err != nil {
		t.Fatal(err)
	}
	if g.Routers() != 4 || g.Nodes() != 4 || g.Diameter() != 2 || g.Ports(1) != 3 {
		t.Fatalf("routers %d nodes %d diameter %d ports %d", g.Routers(), g.Nodes(), g.Diameter(), g.Ports(1))
	}
	if p := g.Peer(1, 2); p.Router != 2 || g.Peer(2, p.Port).Router != 1 || g.LatencyCycles(1, 2) != 5 || g.LatencyCycles(2, p.Port) != 5 {
		t.Fatalf("link 1-2: %+v, latency %d", p, g.LatencyCycles(1, 2))
	}
	for _, c := range []struct{ file, want string }{
		{"routers 2\nnode 0\nnode 1\nlink 0 2\n", "bad.txt:4: router 2 does not exist (routers 0..1)"},
		{"routers 3\nnode 0\nnode 2\nlink 0 1\n", "router 2 (node 1's) is unreachable from router 0"},
		{"routers 2\nnode 0\nnode 1\nwire 0 1\n", `bad.txt:4: unknown item "wire"`},
		{"node 0\n", `"routers N" must come first`},
		{"routers 2\nnode 0\nnode 1\nlink 0 0\n", "link from router 0 to itself"},
		{"routers 2\nnode 0\nnode 1\nlink 0 x\n", `"x" is not a number`},
		{"routers 2\nnode 0\n", "1 nodes (at least 2)"},
	} {
		_, err := ReadGraph("bad.txt", strings.NewReader(c.file))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.file, err, c.want)
		}
	}
}
