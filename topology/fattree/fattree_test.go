package fattree

import (
	"testing"
)

// TestFatTreeShape checks counts and every switch's neighbours against the
// definition, and that minimal hop counts are twice the NCA level.
func TestFatTreeShape(t *testing.T) {
	for _, c := range []struct{ k, n, nodes, switches, links int }{
		{4, 2, 16, 8, 16}, // links: switch-to-switch, undirected: (n-1) * k^n
		{4, 3, 64, 48, 128},
		{4, 5, 1024, 1280, 4096},
		{2, 3, 8, 12, 16},
		{3, 1, 3, 1, 0},
	} {
		f, err := NewFatTree(c.k, c.n)
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
					if pl != l+1 || ps != f.setDigit(s, l, p-c.k) || peer.Port != f.digit(s, l) {
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
