package link

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Graph is a topology read from a file (network.topology = "file"): any
// routers, nodes and links. The format is plain text, one item per line,
// '#' starting a comment:
//
//	routers N              the number of routers, numbered 0..N-1 (first)
//	node R                 the next node (numbered from 0 in file order) on router R
//	link A B [LATENCY]     a link between routers A and B (both directions),
//	                       LATENCY cycles (0 or left out: the network's
//	                       link latency)
//
// A router's ports are its nodes' ports, in node order, then its links,
// in file order (a link from a router to itself is refused, as is a
// router with more than 64 ports). Every node must reach every other: a
// router no link joins to the others, with nodes, is refused, naming it.
type Graph struct {
	Path  string
	ports [][]Peer // ports[r][p]
	lat   [][]int  // lat[r][p], 0 for the network's
	nodes []struct{ router, port int }
	diam  int
}

// LoadGraph reads a topology file.
func LoadGraph(path string) (*Graph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadGraph(path, f)
}

// ReadGraph reads a topology in the file format from r; name names it in
// errors ("FILE:LINE: ...").
func ReadGraph(name string, r io.Reader) (*Graph, error) {
	g := &Graph{Path: name}
	sc := bufio.NewScanner(r)
	line := 0
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	var links [][3]int
	nRouters := -1
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		ints := make([]int, len(f)-1)
		for i, s := range f[1:] {
			v, err := strconv.Atoi(s)
			if err != nil || v < 0 {
				return nil, bad("%q: %q is not a number >= 0", f[0], s)
			}
			ints[i] = v
		}
		router := func(v int) error {
			if v >= nRouters {
				return bad("router %d does not exist (routers 0..%d)", v, nRouters-1)
			}
			return nil
		}
		switch f[0] {
		case "routers":
			if nRouters >= 0 || len(ints) != 1 || ints[0] < 1 || ints[0] > 1<<20 {
				return nil, bad("\"routers N\" comes once, first, with 1 <= N <= 2^20")
			}
			nRouters = ints[0]
			g.ports = make([][]Peer, nRouters)
			g.lat = make([][]int, nRouters)
		case "node":
			if nRouters < 0 {
				return nil, bad("\"routers N\" must come first")
			}
			if len(ints) != 1 {
				return nil, bad("want \"node ROUTER\"")
			}
			if err := router(ints[0]); err != nil {
				return nil, err
			}
			if len(links) > 0 {
				return nil, bad("nodes come before links (a router's node ports are its first)")
			}
			n := len(g.nodes)
			g.nodes = append(g.nodes, struct{ router, port int }{ints[0], len(g.ports[ints[0]])})
			g.ports[ints[0]] = append(g.ports[ints[0]], Peer{Router: -1, Port: -1, Node: n})
			g.lat[ints[0]] = append(g.lat[ints[0]], 0)
		case "link":
			if nRouters < 0 {
				return nil, bad("\"routers N\" must come first")
			}
			if len(ints) != 2 && len(ints) != 3 {
				return nil, bad("want \"link A B [LATENCY_CYCLES]\"")
			}
			for _, v := range ints[:2] {
				if err := router(v); err != nil {
					return nil, err
				}
			}
			lat := 0
			if len(ints) == 3 {
				lat = ints[2]
				if lat > 1000 {
					return nil, bad("link latency %d out of range (allowed: 0..1000 cycles)", lat)
				}
			}
			if ints[0] == ints[1] {
				return nil, bad("link from router %d to itself", ints[0])
			}
			a, b := ints[0], ints[1]
			pa, pb := len(g.ports[a]), len(g.ports[b])
			g.ports[a] = append(g.ports[a], Peer{Router: b, Port: pb, Node: -1})
			g.ports[b] = append(g.ports[b], Peer{Router: a, Port: pa, Node: -1})
			g.lat[a], g.lat[b] = append(g.lat[a], lat), append(g.lat[b], lat)
			links = append(links, [3]int{a, b, lat})
		default:
			return nil, bad("unknown item %q (allowed: routers, node, link)", f[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	line = 0
	switch {
	case nRouters < 0:
		return nil, fmt.Errorf("%s: no \"routers N\" line", name)
	case len(g.nodes) < 2:
		return nil, fmt.Errorf("%s: %d nodes (at least 2)", name, len(g.nodes))
	}
	for r, ps := range g.ports {
		if len(ps) > 64 {
			return nil, fmt.Errorf("%s: router %d has %d ports (at most 64)", name, r, len(ps))
		}
	}
	// Every router with nodes must reach every other one with nodes.
	dist := g.distancesFrom(g.nodes[0].router)
	for _, nd := range g.nodes {
		if dist[nd.router] < 0 {
			return nil, fmt.Errorf("%s: router %d (node %d's) is unreachable from router %d: no path of links joins them", name, nd.router, g.nodeOn(nd.router), g.nodes[0].router)
		}
	}
	for r := range g.ports {
		for _, d := range g.distancesFrom(r) {
			g.diam = max(g.diam, d)
		}
	}
	return g, nil
}

// nodeOn is the first node on router r.
func (g *Graph) nodeOn(r int) int {
	for n, nd := range g.nodes {
		if nd.router == r {
			return n
		}
	}
	return -1
}

// distancesFrom is the number of links from router r to each router by a
// breadth-first search (-1: unreachable).
func (g *Graph) distancesFrom(r int) []int {
	dist := make([]int, len(g.ports))
	for i := range dist {
		dist[i] = -1
	}
	dist[r] = 0
	queue := []int{r}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, p := range g.ports[x] {
			if p.Router >= 0 && dist[p.Router] < 0 {
				dist[p.Router] = dist[x] + 1
				queue = append(queue, p.Router)
			}
		}
	}
	return dist
}

// Distances is distancesFrom for every router: Distances()[a][b] links.
func (g *Graph) Distances() [][]int {
	d := make([][]int, len(g.ports))
	for r := range d {
		d[r] = g.distancesFrom(r)
	}
	return d
}

func (g *Graph) Kind() string { return "file" }

func (g *Graph) String() string {
	return fmt.Sprintf("topology %s (%d routers, %d nodes)", g.Path, len(g.ports), len(g.nodes))
}

func (g *Graph) Routers() int          { return len(g.ports) }
func (g *Graph) Nodes() int            { return len(g.nodes) }
func (g *Graph) Ports(r int) int       { return len(g.ports[r]) }
func (g *Graph) Peer(r, p int) Peer    { return g.ports[r][p] }
func (g *Graph) NodeName(n int) string { return "NI " + strconv.Itoa(n) }

func (g *Graph) NodePort(n int) (int, int) { return g.nodes[n].router, g.nodes[n].port }

func (g *Graph) RouterName(r int) string { return "R" + strconv.Itoa(r) }

func (g *Graph) PortName(r, p int) string {
	if q := g.ports[r][p]; q.Router >= 0 {
		return g.RouterName(r) + ">R" + strconv.Itoa(q.Router) + "." + strconv.Itoa(p)
	}
	return g.RouterName(r) + ".n" + strconv.Itoa(p)
}

// Diameter is the most links between two routers.
func (g *Graph) Diameter() int { return g.diam }

// Units: one per router.
func (g *Graph) Units() []int {
	u := make([]int, len(g.ports))
	for r := range u {
		u[r] = r
	}
	return u
}

// LatencyCycles is the link's latency from the file, 0 for the network's.
func (g *Graph) LatencyCycles(r, p int) int { return g.lat[r][p] }
