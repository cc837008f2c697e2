package fattree

import (
	"testing"
)

// TestFatTreeShape checks counts and every switch's neighbours against the
// definition, and that minimal hop counts are twice the NCA level, on full
// and tapered trees.
func TestFatTreeShape(t *testing.T) {
	for _, c := range []struct {
		k, n                   int
		up                     []int
		nodes, switches, links int
	}{
		{4, 2, nil, 16, 8, 16}, // links: switch-to-switch, undirected: (n-1) * k^n
		{4, 3, nil, 64, 48, 128},
		{4, 5, nil, 1024, 1280, 4096},
		{2, 3, nil, 8, 12, 16},
		{3, 1, nil, 3, 1, 0},
		{4, 3, []int{4, 4}, 64, 48, 128}, // a ratio of 1 everywhere: the full tree
		// 2:1 at the leaves: 16 leaves of 2 up ports, 8 switches a level
		// above (2 replicas of each 4-leaf subtree); links 16*2 + 8*4.
		{4, 3, []int{2, 4}, 64, 32, 64},
		// 2:1 at level 1: 16 + 16 + 8 switches; links 16*4 + 16*2.
		{4, 3, []int{4, 2}, 64, 40, 96},
		// 4:1 then 2:1 on a 4-ary 4-tree: 64 + 16 + 8 + 8 switches
		// (level l: Up(0)...Up(l-1) * k^(3-l)); links 64*1 + 16*2 + 8*4.
		{4, 4, []int{1, 2, 4}, 256, 96, 128},
		{6, 3, []int{3, 2}, 216, 36 + 18 + 6, 36*3 + 18*2},
		{2, 4, []int{1, 1, 1}, 16, 8 + 4 + 2 + 1, 8 + 4 + 2}, // a tree of single up links
	} {
		f, err := NewTapered(c.k, c.n, c.up)
		if err != nil {
			t.Fatal(err)
		}
		if f.Nodes() != c.nodes || f.Routers() != c.switches {
			t.Fatalf("%s: %d nodes, %d switches", f, f.Nodes(), f.Routers())
		}
		links := 0
		seenNode := make([]bool, f.Nodes())
		for r := 0; r < f.Routers(); r++ {
			l, s := f.Switch(r)
			if f.Router(l, s) != r {
				t.Fatalf("%s: router numbering is not a bijection at %d", f, r)
			}
			for p := 0; p < f.Ports(r); p++ {
				peer := f.Peer(r, p)
				switch {
				case p >= c.k && l < c.n-1 && p-c.k >= f.Up(l):
					t.Fatalf("%s: %s beyond the level's %d up ports", f, f.PortName(r, p), f.Up(l))
				case p < c.k && l == 0:
					if peer.Node != s*c.k+p {
						t.Fatalf("%s: %s has node %d", f, f.PortName(r, p), peer.Node)
					}
					seenNode[peer.Node] = true
				case p < c.k:
					pl, _ := f.Switch(peer.Router)
					if pl != l-1 || peer.Port < c.k {
						t.Fatalf("%s: %s goes to %s", f, f.PortName(r, p), f.PortName(peer.Router, peer.Port))
					}
				case l == c.n-1:
					if peer.Connected() {
						t.Fatalf("%s: root up port %s connected", f, f.PortName(r, p))
					}
				default:
					pl, ps := f.Switch(peer.Router)
					// Butterfly: digit l replaced by the up port number.
					if pl != l+1 || ps != f.withDigit(l, s, l, p-c.k, l+1) || peer.Port != f.SwitchDigit(l, s, l) {
						t.Fatalf("%s: %s goes to %s", f, f.PortName(r, p), f.PortName(peer.Router, peer.Port))
					}
					links++
				}
				if peer.Router >= 0 {
					if back := f.Peer(peer.Router, peer.Port); back.Router != r || back.Port != p {
						t.Fatalf("%s: %s is not symmetric", f, f.PortName(r, p))
					}
				}
			}
		}
		if links != c.links {
			t.Errorf("%s: %d switch-to-switch links, want %d", f, links, c.links)
		}
		for i, ok := range seenNode {
			if !ok {
				t.Fatalf("%s: node %d attached nowhere", f, i)
			}
		}
		if c.nodes > 64 {
			continue
		}
		// BFS over switches from every leaf: hops between leaves = 2 * NCA level.
		for a := 0; a < f.Nodes(); a++ {
			ra, _ := f.NodePort(a)
			dist := map[int]int{ra: 0}
			queue := []int{ra}
			for len(queue) > 0 {
				r := queue[0]
				queue = queue[1:]
				for p := 0; p < f.Ports(r); p++ {
					if q := f.Peer(r, p); q.Router >= 0 {
						if _, ok := dist[q.Router]; !ok {
							dist[q.Router] = dist[r] + 1
							queue = append(queue, q.Router)
						}
					}
				}
			}
			for b := 0; b < f.Nodes(); b++ {
				rb, _ := f.NodePort(b)
				if dist[rb] != 2*f.NCALevel(a, b) {
					t.Fatalf("%s: nodes %d and %d are %d hops apart, NCA level %d", f, a, b, dist[rb], f.NCALevel(a, b))
				}
			}
		}
	}
}
