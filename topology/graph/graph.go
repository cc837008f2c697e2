package graph

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"

	"github.com/icnsim/icnsim/topology"
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
//	root R                 up*/down* routing's root (optional; left out:
//	                       the graph's centre, UpDown)
//
// A router's ports are its nodes' ports, in node order, then its links,
// in file order. What a file may hold, each refused with its file and
// line otherwise:
//
//   - 1 <= N <= MaxRouters routers, 2..MaxNodes nodes, nodes
//     before links, latencies 0..MaxLatencyCycles, lines of at most
//     MaxLineBytes bytes;
//   - every router has a node or a link (a router with neither is refused
//     at the "routers" line that declares it), and at most MaxPorts
//     ports (refused at the line of its first port too many);
//   - every router is joined by links to every other (a router, with nodes
//     or without, that no path of links joins to node 0's router is
//     refused at its first line);
//   - a link from a router to itself is refused; two or more links between
//     the same two routers are parallel links, each a port of its own at
//     both ends (as a HyperX's trunking);
//   - a node is on one router: its line names it, and its number is its
//     place in the file, so no file can put a node on two routers.
//
// Reading is linear in the size of the file: one pass over its lines and
// one breadth-first search (every router reachable, and a bound on the
// diameter). Before the lines have shown every router, it allocates five
// bytes per router the header declares. The shortest-path tables the
// routings use (PrepareRoutes) take a search per router with nodes, after
// the memory guard has seen their size (RouteTableBytes).
type Graph struct {
	Path string
	// first[r]..first[r+1] are router r's ports in the flat arrays: to[i]
	// is the router port i leads to, or -(node+1) for a node port, toPort
	// the far end's port, lat the latency (0: the network's).
	first  []int32
	to     []int32
	toPort []uint8
	lat    []uint16
	nodes  []struct{ router, port int32 }
	// dests are the routers with nodes, in the order of their first node,
	// and dest[r] is r's index among them (-1: none).
	dests []int32
	dest  []int32
	// diamBound is twice the eccentricity of node 0's router: at least the
	// diameter (DiameterBound).
	diamBound int
	// ShortestLink is the least latency a link line gives (0: every link
	// takes the network's), and ShortestLinkLine that line.
	ShortestLink, ShortestLinkLine int
	// Root is the router a "root R" line names (-1: none).
	Root int

	updownMu sync.Mutex
	updown   *UpDown // nil until UpDown

	routesMu sync.Mutex
	routes   *Routes // nil until PrepareRoutes
}

// Limits of a topology file.
const (
	MaxRouters       = 1 << 20
	MaxNodes         = 1 << 20
	MaxPorts         = topology.MaxPorts
	MaxLatencyCycles = 1000
	MaxLineBytes     = 4096
)

// LoadGraph reads a topology file; ctx stops it.
func LoadGraph(ctx context.Context, path string) (*Graph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadGraph(ctx, path, f)
}

// graphReader is the state of ReadGraph.
type graphReader struct {
	name  string
	line  int
	n     int     // routers; -1 before the header
	nLine int     // the header's line
	ports []uint8 // ports seen per router (at most MaxPorts + 1)
	// seen[r] is the first line naming router r (0: none yet), for errors
	// about it after the file is read.
	seen  []int32
	nodes []int32    // router of each node
	links [][3]int32 // A, B, latency
	// shortest is the least latency given, at line shortestLine.
	shortest, shortestLine int
	root, rootLine         int // a "root R" line's router and line (-1, 0: none)
}

func (rd *graphReader) bad(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", rd.name, rd.line, fmt.Sprintf(format, args...))
}

// badAt is bad at another line.
func (rd *graphReader) badAt(line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", rd.name, line, fmt.Sprintf(format, args...))
}

// fields splits a line at spaces and tabs (a carriage return ends it),
// up to '#': at most len(out) fields; more give n > len(out).
func fields(b []byte, out *[5][]byte) (n int) {
	i := 0
	for i < len(b) {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\v' || b[i] == '\f') {
			i++
		}
		if i == len(b) || b[i] == '#' {
			break
		}
		j := i
		for j < len(b) && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' && b[j] != '\v' && b[j] != '\f' && b[j] != '#' {
			j++
		}
		if n < len(out) {
			out[n] = b[i:j]
		}
		n++
		i = j
	}
	return n
}

// number reads a field as a whole number >= 0; ok is false for anything
// else. A number too large for an int reads as the largest int: every
// caller compares it with a limit.
func number(b []byte) (v int, ok bool) {
	if len(b) == 0 {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	x, err := strconv.ParseInt(string(b), 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		return int(^uint(0) >> 1), true
	}
	return int(x), err == nil
}

// router reads field b of item as a router number.
func (rd *graphReader) router(item string, b []byte) (int, error) {
	v, ok := number(b)
	switch {
	case !ok:
		return 0, rd.bad("%s: %q is not a router number (allowed: 0..%d)", item, b, rd.n-1)
	case v >= rd.n:
		return 0, rd.bad("%s: router %s does not exist (routers 0..%d, from \"routers %d\" at line %d)", item, b, rd.n-1, rd.n, rd.nLine)
	}
	return v, nil
}

// port counts a port of router r on this line.
func (rd *graphReader) port(r int) error {
	if rd.seen[r] == 0 {
		rd.seen[r] = int32(rd.line)
	}
	if rd.ports[r] == MaxPorts {
		return rd.bad("router %d would have %d ports, its nodes' and links' (allowed: at most %d ports per router)", r, MaxPorts+1, MaxPorts)
	}
	rd.ports[r]++
	return nil
}

func (rd *graphReader) item(f [][]byte, n int) error {
	what := string(f[0])
	switch what {
	case "routers":
		if rd.n >= 0 {
			return rd.bad("\"routers N\" comes once (it came at line %d)", rd.nLine)
		}
		if n != 2 {
			return rd.bad("want \"routers N\" with 1 <= N <= %d", MaxRouters)
		}
		v, ok := number(f[1])
		if !ok || v < 1 || v > MaxRouters {
			return rd.bad("routers %q: allowed: 1..%d (2^20) routers", f[1], MaxRouters)
		}
		rd.n, rd.nLine = v, rd.line
		rd.ports, rd.seen = make([]uint8, v), make([]int32, v)
	case "node", "link":
		if rd.n < 0 {
			return rd.bad("%q before \"routers N\": the routers line comes first", what)
		}
		if what == "node" {
			if n != 2 {
				return rd.bad("want \"node ROUTER\" (a node's number is its place among the node lines, from 0)")
			}
			if len(rd.links) > 0 {
				return rd.bad("a node after links (allowed: every node line before the first link line: a router's node ports are its first)")
			}
			if len(rd.nodes) == MaxNodes {
				return rd.bad("node %d: allowed: at most %d (2^20) nodes", len(rd.nodes), MaxNodes)
			}
			r, err := rd.router("node", f[1])
			if err != nil {
				return err
			}
			if err := rd.port(r); err != nil {
				return err
			}
			rd.nodes = append(rd.nodes, int32(r))
			return nil
		}
		if n != 3 && n != 4 {
			return rd.bad("want \"link A B [LATENCY_CYCLES]\"")
		}
		a, err := rd.router("link", f[1])
		if err != nil {
			return err
		}
		b, err := rd.router("link", f[2])
		if err != nil {
			return err
		}
		lat := 0
		if n == 4 {
			v, ok := number(f[3])
			if !ok || v > MaxLatencyCycles {
				return rd.bad("link %d %d: latency %q: allowed: 0 (the network's link latency) or 1..%d cycles", a, b, f[3], MaxLatencyCycles)
			}
			lat = v
			if lat > 0 && (rd.shortest == 0 || lat < rd.shortest) {
				rd.shortest, rd.shortestLine = lat, rd.line
			}
		}
		if a == b {
			return rd.bad("link from router %d to itself (allowed: links between two routers; several between the same two are parallel links)", a)
		}
		if err := rd.port(a); err != nil {
			return err
		}
		if err := rd.port(b); err != nil {
			return err
		}
		rd.links = append(rd.links, [3]int32{int32(a), int32(b), int32(lat)})
	case "root":
		if rd.n < 0 {
			return rd.bad("%q before \"routers N\": the routers line comes first", what)
		}
		if rd.rootLine > 0 {
			return rd.bad("\"root R\" comes once (it came at line %d)", rd.rootLine)
		}
		if n != 2 {
			return rd.bad("want \"root ROUTER\" (up*/down* routing's root)")
		}
		r, err := rd.router("root", f[1])
		if err != nil {
			return err
		}
		rd.root, rd.rootLine = r, rd.line
	default:
		return rd.bad("unknown item %q (allowed: routers, node, link, root)", f[0])
	}
	return nil
}

// ReadGraph reads a topology in the file format from r; name names it in
// errors ("FILE:LINE: ..."). ctx stops it.
func ReadGraph(ctx context.Context, name string, r io.Reader) (*Graph, error) {
	rd := &graphReader{name: name, n: -1, root: -1}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLineBytes+2) // a longest line and its CR LF
	var f [5][]byte
	for sc.Scan() {
		rd.line++
		if len(sc.Bytes()) > MaxLineBytes {
			return nil, rd.bad("line longer than %d bytes (allowed: lines of at most %d bytes, comments included)", MaxLineBytes, MaxLineBytes)
		}
		if rd.line&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		n := fields(sc.Bytes(), &f)
		if n == 0 {
			continue
		}
		if n > len(f) {
			n = len(f) + 1 // too many: each item refuses it
		}
		if err := rd.item(f[:min(n, len(f))], n); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes (allowed: lines of at most %d bytes, comments included)", name, rd.line+1, MaxLineBytes, MaxLineBytes)
		}
		return nil, fmt.Errorf("%s: line %d: %w", name, rd.line+1, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch {
	case rd.n < 0:
		return nil, fmt.Errorf("%s: no \"routers N\" line (a topology file starts with it)", name)
	case len(rd.nodes) < 2:
		return nil, fmt.Errorf("%s: %d node lines (allowed: at least 2 nodes, each a line \"node ROUTER\")", name, len(rd.nodes))
	}
	for r, p := range rd.ports {
		if p == 0 {
			return nil, rd.badAt(rd.nLine, "router %d has no node and no link (\"routers %d\" declares routers 0..%d; every router needs a node or a link)", r, rd.n, rd.n-1)
		}
	}
	return rd.graph(ctx)
}

// graph builds the graph of a file read without error, and checks that
// every router is reachable.
func (rd *graphReader) graph(ctx context.Context) (*Graph, error) {
	R := rd.n
	g := &Graph{Path: rd.name, first: make([]int32, R+1), dest: make([]int32, R), ShortestLink: rd.shortest, ShortestLinkLine: rd.shortestLine, Root: rd.root}
	for r, p := range rd.ports {
		g.first[r+1] = g.first[r] + int32(p)
	}
	P := int(g.first[R])
	g.to, g.toPort, g.lat = make([]int32, P), make([]uint8, P), make([]uint16, P)
	next := rd.ports // reused: the ports filled so far of each router
	clear(next)
	for i := range g.dest {
		g.dest[i] = -1
	}
	g.nodes = make([]struct{ router, port int32 }, len(rd.nodes))
	for n, r := range rd.nodes {
		p := int32(next[r])
		next[r]++
		g.to[g.first[r]+p] = -int32(n) - 1
		g.nodes[n] = struct{ router, port int32 }{r, p}
		if g.dest[r] < 0 {
			g.dest[r] = int32(len(g.dests))
			g.dests = append(g.dests, r)
		}
	}
	for _, l := range rd.links {
		a, b := l[0], l[1]
		pa, pb := next[a], next[b]
		next[a]++
		next[b]++
		ia, ib := g.first[a]+int32(pa), g.first[b]+int32(pb)
		g.to[ia], g.toPort[ia], g.lat[ia] = b, pb, uint16(l[2])
		g.to[ib], g.toPort[ib], g.lat[ib] = a, pa, uint16(l[2])
	}
	root := int(g.nodes[0].router)
	dist, err := g.distancesTo(ctx, root, nil)
	if err != nil {
		return nil, err
	}
	ecc := 0
	for r, d := range dist {
		if d < 0 {
			what := "a router without nodes"
			if g.dest[r] >= 0 {
				what = fmt.Sprintf("node %d's", g.firstNode(r))
			}
			return nil, rd.badAt(int(rd.seen[r]), "router %d, %s, is unreachable from router %d (node 0's): no path of links joins them (allowed: every router joined to every other)", r, what, root)
		}
		ecc = max(ecc, int(d))
	}
	g.diamBound = 2 * ecc
	return g, nil
}

// firstNode is the first node on router r (-1: none).
func (g *Graph) firstNode(r int) int {
	for p := g.first[r]; p < g.first[r+1]; p++ {
		if g.to[p] < 0 {
			return int(-g.to[p] - 1)
		}
	}
	return -1
}

// distancesTo is the number of links from each router to router r by a
// breadth-first search (-1: unreachable), in buf[:Routers()] (buf, of
// twice that length, holds its queue too; nil: allocated), checking ctx
// every 64K routers.
func (g *Graph) distancesTo(ctx context.Context, r int, buf []int32) ([]int32, error) {
	R := len(g.dest)
	if len(buf) < 2*R {
		buf = make([]int32, 2*R)
	}
	dist, queue := buf[:R], buf[R:2*R] // a router enters the queue once
	for i := range dist {
		dist[i] = -1
	}
	dist[r], queue[0] = 0, int32(r)
	head, tail := 0, 1
	for head < tail {
		x := queue[head]
		if head++; head&65535 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for p := g.first[x]; p < g.first[x+1]; p++ {
			if y := g.to[p]; y >= 0 && dist[y] < 0 {
				dist[y] = dist[x] + 1
				queue[tail] = y
				tail++
			}
		}
	}
	return dist, nil
}

func (g *Graph) Kind() string { return "file" }

func (g *Graph) String() string {
	return fmt.Sprintf("topology %s (%d routers, %d nodes)", g.Path, len(g.dest), len(g.nodes))
}

func (g *Graph) Routers() int { return len(g.dest) }

func (g *Graph) Nodes() int { return len(g.nodes) }

func (g *Graph) Ports(r int) int { return int(g.first[r+1] - g.first[r]) }

func (g *Graph) Peer(r, p int) topology.Peer {
	i := g.first[r] + int32(p)
	if to := g.to[i]; to >= 0 {
		return topology.Peer{Router: int(to), Port: int(g.toPort[i]), Node: -1}
	}
	return topology.Peer{Router: -1, Port: -1, Node: int(-g.to[i] - 1)}
}

func (g *Graph) NodeName(n int) string { return "NI " + strconv.Itoa(n) }

func (g *Graph) NodePort(n int) (int, int) { return int(g.nodes[n].router), int(g.nodes[n].port) }

func (g *Graph) RouterName(r int) string { return "R" + strconv.Itoa(r) }

func (g *Graph) PortName(r, p int) string {
	if q := g.Peer(r, p); q.Router >= 0 {
		return g.RouterName(r) + ">R" + strconv.Itoa(q.Router) + "." + strconv.Itoa(p)
	}
	return g.RouterName(r) + ".n" + strconv.Itoa(p)
}

// Diameter is the most links on a shortest path between two routers with
// nodes (the longest route a packet takes; a router without nodes farther
// out is never a route's end), from the route tables (Routes);
// DiameterBound is the linear bound.
func (g *Graph) Diameter() int { return g.Routes().Diameter }

// DiameterBound is at least Diameter, known from reading the file: twice
// the most links from node 0's router to any router.
func (g *Graph) DiameterBound() int { return g.diamBound }

// Units: one per router.
func (g *Graph) Units() []int {
	u := make([]int, len(g.dest))
	for r := range u {
		u[r] = r
	}
	return u
}

// LatencyCycles is the link's latency from the file, 0 for the network's.
func (g *Graph) LatencyCycles(r, p int) int { return int(g.lat[g.first[r]+int32(p)]) }

// Destinations is the number of routers with nodes, and Destination(r)
// router r's index among them, in the order of their first node (-1 for
// a router without nodes): the columns of the route tables.
func (g *Graph) Destinations() int { return len(g.dests) }

func (g *Graph) Destination(r int) int { return int(g.dest[r]) }

// Routes are the shortest paths of a graph to every router with
// nodes (PrepareRoutes).
type Routes struct {
	g *Graph
	d int // routers with nodes: a row's length
	// next[r*D+d] is the set of router r's ports on a shortest path to the
	// router of destination index d, hops[r*D+d] its length in links.
	next []uint64
	hops []int32
	// Diameter is the most links between two routers with nodes.
	Diameter int
}

// RouteTableBytes is the memory of the route tables (PrepareRoutes).
func (g *Graph) RouteTableBytes() int64 {
	return int64(len(g.dest)) * int64(len(g.dests)) * 12
}

// PrepareRoutes computes the route tables once (RouteTableBytes of them),
// by a breadth-first search from every router with nodes, checking ctx
// between searches and every 64K routers; a cancelled computation keeps
// nothing and returns ctx's error. Safe for concurrent use: the runs of a
// study share a graph.
func (g *Graph) PrepareRoutes(ctx context.Context) error {
	g.routesMu.Lock()
	defer g.routesMu.Unlock()
	if g.routes != nil {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	R, D := len(g.dest), len(g.dests)
	rt := &Routes{g: g, d: D, next: make([]uint64, R*D), hops: make([]int32, R*D)}
	buf := make([]int32, 2*R)
	for d, dr := range g.dests {
		if err := ctx.Err(); err != nil {
			return err
		}
		dist, err := g.distancesTo(ctx, int(dr), buf)
		if err != nil {
			return err
		}
		for r := range R {
			rt.hops[r*D+d] = dist[r]
			if g.dest[r] >= 0 {
				rt.Diameter = max(rt.Diameter, int(dist[r]))
			}
			var m uint64
			for p := g.first[r]; p < g.first[r+1]; p++ {
				if y := g.to[p]; y >= 0 && dist[y] == dist[r]-1 {
					m |= 1 << (p - g.first[r])
				}
			}
			rt.next[r*D+d] = m
		}
	}
	g.routes = rt
	return nil
}

// Routes are the route tables, computed now (uninterruptibly) where
// PrepareRoutes has not run.
func (g *Graph) Routes() *Routes {
	if err := g.PrepareRoutes(context.Background()); err != nil {
		panic(err) // context.Background is never cancelled
	}
	g.routesMu.Lock()
	defer g.routesMu.Unlock()
	return g.routes
}

// NextPorts is the set of router r's ports on a shortest path to router
// dr, which has nodes (0 when r == dr).
func (rt *Routes) NextPorts(r, dr int) uint64 {
	return rt.next[r*rt.d+int(rt.g.dest[dr])]
}

// Hops is the number of links on a shortest path from router r to router
// dr, which has nodes.
func (rt *Routes) Hops(r, dr int) int {
	return int(rt.hops[r*rt.d+int(rt.g.dest[dr])])
}

// MinimalExtraCycles is the least, over the shortest-hop routes from node
// src's router to node dst's, of the latency their links add to
// linkLatencyCycles each (topology.MinimalLatencies): a search back from
// dst's router, one hop distance at a time.
func (g *Graph) MinimalExtraCycles(src, dst, linkLatencyCycles int) int {
	sr, _ := g.NodePort(src)
	dr, _ := g.NodePort(dst)
	routes := g.Routes()
	best := make([]int, g.Routers()) // best[r]: least extra from r to dr, once r's distance is done
	for k := 1; k <= routes.Hops(sr, dr); k++ {
		for r := range best {
			if routes.Hops(r, dr) != k {
				continue
			}
			best[r] = -1
			for p := 0; p < g.Ports(r); p++ {
				q := g.Peer(r, p).Router
				if q < 0 || routes.Hops(q, dr) != k-1 {
					continue
				}
				extra := best[q]
				if l := g.LatencyCycles(r, p); l != 0 {
					extra += l - linkLatencyCycles
				}
				if best[r] < 0 || extra < best[r] {
					best[r] = extra
				}
			}
		}
	}
	return best[sr]
}

// MaxMinimalExtraCycles bounds MinimalExtraCycles: every hop of the
// diameter on the longest link.
func (g *Graph) MaxMinimalExtraCycles(linkLatencyCycles int) int {
	most := 0
	for r := 0; r < g.Routers(); r++ {
		for p := 0; p < g.Ports(r); p++ {
			most = max(most, g.LatencyCycles(r, p)-linkLatencyCycles)
		}
	}
	return g.Diameter() * most
}
