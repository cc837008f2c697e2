package deadlock

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/topology"
)

// MessageClasses are the message classes of a traffic in which a node
// must send messages of one class to consume messages of another (a
// server answers a request with a reply), and the virtual networks they
// travel on (routing.Networks).
type MessageClasses struct {
	// Names are the classes' names ("request", "reply"), Network the
	// virtual network of each.
	Names   []string
	Network []int
	// Answers lists the pairs (c, a): a node consumes a message of class
	// c only once it can send one of class a.
	Answers [][2]int
	// Flows visits the nodes to which node src sends messages of class c
	// (any order; repeats allowed).
	Flows func(c, src int, visit func(dst int))
}

// CheckMessageClasses checks the message-dependent (protocol) deadlock
// freedom of the classes mc on t: nil, or an error naming a cycle.
//
// The extended channel dependency graph (Song and Pinkston; Hansson et
// al.) adds to each virtual network's channel graph a node's ejection and
// injection channels, with an edge from a network's ejection channel at
// node n to the injection channel of class a's network at n wherever n
// receives messages of a class c that it answers with class a: a message
// of class c waiting to be consumed waits for n to send. Each network's
// own graph is the routing function's (Check proves it acyclic); a route
// from s to d is a path from s's injection channel to d's ejection
// channel. This check collapses every route to that one edge and searches
// the graph of the endpoint channels for a cycle, which is then a cycle
// of the extended graph. Where every answer goes to a network of its own
// from which nothing is answered (requests on one network, replies on
// another), the collapsed graph has no cycle and, the networks sharing no
// channel, neither has the extended graph. On one shared network it
// finds a cycle wherever a node that receives requests also sends one;
// where the collapsed graph has none but the networks are shared, routes
// can still chain through shared channels, so the check refuses that too,
// with that reason.
//
// Where no answer shares its class's network, a cycle would have to
// return to a network through answers alone; so when the graph of the
// networks (an edge from a class's network to its answer's) has no cycle,
// neither has the endpoints' graph, and the check ends there without
// visiting a flow. ctx stops the search of the others (its cost grows as
// the flows, nodes squared under uniform traffic).
func CheckMessageClasses(ctx context.Context, t topology.Topology, mc MessageClasses) error {
	nodes := t.Nodes()
	K := slices.Max(mc.Network) + 1
	if networksAcyclic(K, mc) {
		return nil
	}
	// Vertex (k, n, side): side 0 the ejection channel, 1 the injection.
	vid := func(k, n, side int) int { return (k*nodes+n)*2 + side }
	V := K * nodes * 2
	receives := make([][]bool, len(mc.Names)) // receives[c][n]
	for c := range mc.Names {
		receives[c] = make([]bool, nodes)
		for s := range nodes {
			if s&255 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			mc.Flows(c, s, func(d int) { receives[c][d] = true })
		}
	}
	shared := false
	for _, a := range mc.Answers {
		shared = shared || mc.Network[a[0]] == mc.Network[a[1]]
	}
	type edge struct{ to, class int }
	// out lists v's edges, made when the search reaches v (a uniform
	// pattern has nodes^2 of them, which are not all kept at once).
	out := func(v int) []edge {
		var es []edge
		side, kn := v%2, v/2
		k, n := kn/nodes, kn%nodes
		if side == 1 {
			for c := range mc.Names {
				if mc.Network[c] == k {
					mc.Flows(c, n, func(d int) { es = append(es, edge{vid(k, d, 0), c}) })
				}
			}
			return es
		}
		for _, a := range mc.Answers {
			if mc.Network[a[0]] == k && receives[a[0]][n] {
				es = append(es, edge{vid(mc.Network[a[1]], n, 1), -1 - a[1]})
			}
		}
		return es
	}
	// Iterative depth-first search for a cycle.
	const white, grey, black = 0, 1, 2
	colour := make([]uint8, V)
	parent := make([]int32, V)
	via := make([]int32, V) // the class of the edge into v (-1-a: an answer of class a)
	type frame struct {
		v    int
		es   []edge
		next int
	}
	for root := range V {
		if colour[root] != white {
			continue
		}
		stack := []frame{{v: root, es: out(root)}}
		colour[root] = grey
		for len(stack) > 0 {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			f := &stack[len(stack)-1]
			if f.next == len(f.es) {
				colour[f.v] = black
				stack = stack[:len(stack)-1]
				continue
			}
			e := f.es[f.next]
			f.next++
			u := f.v
			switch colour[e.to] {
			case white:
				colour[e.to], parent[e.to], via[e.to] = grey, int32(u), int32(e.class)
				stack = append(stack, frame{v: e.to, es: out(e.to)})
			case grey:
				// The cycle e.to -> ... -> u -> e.to, collected backwards.
				var verts, classes []int
				for v := u; ; v = int(parent[v]) {
					verts = append(verts, v)
					if v == e.to {
						break
					}
					classes = append(classes, int(via[v]))
				}
				slices.Reverse(verts)
				slices.Reverse(classes)
				classes = append(classes, e.class)
				return fmt.Errorf("message-dependent deadlock: %s", describeClassCycle(t, mc, nodes, verts, classes))
			}
		}
	}
	if shared {
		return fmt.Errorf("message classes share a virtual network, which only separate networks prove free of message-dependent deadlock (their routes can chain through shared channels)")
	}
	return nil
}

// networksAcyclic reports whether no answer shares its class's network
// and the networks' graph (class's network -> answer's network) has no
// cycle.
func networksAcyclic(K int, mc MessageClasses) bool {
	adj := make([][]int, K)
	for _, a := range mc.Answers {
		from, to := mc.Network[a[0]], mc.Network[a[1]]
		if from == to {
			return false
		}
		adj[from] = append(adj[from], to)
	}
	state := make([]uint8, K) // 0 new, 1 on the path, 2 done
	var cyclic func(k int) bool
	cyclic = func(k int) bool {
		state[k] = 1
		for _, j := range adj[k] {
			if state[j] == 1 || state[j] == 0 && cyclic(j) {
				return true
			}
		}
		state[k] = 2
		return false
	}
	for k := range K {
		if state[k] == 0 && cyclic(k) {
			return false
		}
	}
	return true
}

// describeClassCycle names the cycle's endpoint channels in order, each
// followed by why it waits for the next: classes[i] is the class of the
// edge from verts[i] to the next (-1-a: an answer of class a).
func describeClassCycle(t topology.Topology, mc MessageClasses, nodes int, verts, classes []int) string {
	nets := slices.Max(mc.Network) > 0
	name := func(v int) string {
		side, kn := v%2, v/2
		what := "ejection"
		if side == 1 {
			what = "injection"
		}
		s := fmt.Sprintf("%s's %s channel", t.NodeName(kn%nodes), what)
		if nets {
			s += fmt.Sprintf(" (virtual network %d)", kn/nodes)
		}
		return s
	}
	var b strings.Builder
	for i, v := range verts {
		b.WriteString(name(v))
		if c := classes[i]; c < 0 {
			fmt.Fprintf(&b, " -(a %s waits there until its node can send a %s)-> ", mc.Names[answered(mc, -1-c)], mc.Names[-1-c])
		} else {
			fmt.Fprintf(&b, " -(%s route)-> ", mc.Names[c])
		}
	}
	b.WriteString(name(verts[0]))
	return b.String()
}

// answered is the class that class a answers.
func answered(mc MessageClasses, a int) int {
	for _, p := range mc.Answers {
		if p[1] == a {
			return p[0]
		}
	}
	return a
}
