package recn

import (
	"fmt"
	"testing"

	"github.com/icnsim/icnsim/topology/grid"
)

// walk is the XY route of a packet to node dst from switch from, as the
// (switch, output port) pairs it leaves by, computed hop by hop.
func walk(g Mesh, from int, dst int) []Point {
	var route []Point
	r := dst / g.C
	for s := from; ; {
		x, y, tx, ty := s%g.K, s/g.K, r%g.K, r/g.K
		var p int
		switch {
		case x < tx:
			p, s = grid.PortXPlus, s+1
		case x > tx:
			p, s = grid.PortXMinus, s-1
		case y < ty:
			p, s = grid.PortYPlus, s+g.K
		case y > ty:
			p, s = grid.PortYMinus, s-g.K
		default:
			return append(route, Point{Switch: int32(r), Port: uint8(grid.PortLocal + dst%g.C)})
		}
		route = append(route, Point{Switch: int32(x + y*g.K), Port: uint8(p)})
	}
}

// TestThrough: a line's point is on a packet's route exactly when the
// hop-by-hop XY walk leaves that switch by that port.
func TestThrough(t *testing.T) {
	for _, g := range []Mesh{{K: 4, C: 1}, {K: 3, C: 2}, {K: 5, C: 1}} {
		S := g.K * g.K
		for from := range S {
			for dst := range S * g.C {
				on := map[Point]bool{}
				for _, p := range walk(g, from, dst) {
					on[p] = true
				}
				for s := range S {
					for port := range grid.PortLocal + g.C {
						pt := Point{Switch: int32(s), Port: uint8(port)}
						if got := g.Through(from, int32(dst), pt); got != on[pt] {
							t.Fatalf("%+v from %d to %d: Through(%v) = %v, the walk says %v", g, from, dst, pt, got, on[pt])
						}
					}
				}
			}
		}
	}
}

// TestPrefixes: a line's prefixes are exactly the lines whose point some
// XY route from the port passes before the line's point (the same for
// every route through it), and longest-match prefers the farther point.
func TestPrefixes(t *testing.T) {
	cfg := Config{SAQs: 2, DetectFlits: 4, XoffFlits: 4, XonFlits: 1, IdleCycles: 100}
	for _, g := range []Mesh{{K: 4, C: 1}, {K: 3, C: 2}} {
		S := g.K * g.K
		for from := range S {
			before := map[[2]Point]bool{} // (t, u): u precedes t on a route
			through := map[Point]bool{}   // points on some route from from
			for dst := range S * g.C {
				r := walk(g, from, dst)
				for b, pt := range r {
					through[pt] = true
					for _, u := range r[:b] {
						before[[2]Point{pt, u}] = true
					}
				}
			}
			for tp := range through {
				for s := range S {
					for port := range grid.PortLocal + g.C {
						u := Point{Switch: int32(s), Port: uint8(port)}
						if u == tp {
							continue
						}
						p, _ := newPort(Ingress, &cfg, from, 0)
						p.Receive(0, Msg{Target: tp, Kind: Notify, Hops: 1}, 0)
						p.Receive(0, Msg{Target: u, Kind: Notify, Hops: 1}, 0)
						if got := p.Prefixes(g, from, 0)&2 != 0; got != before[[2]Point{tp, u}] {
							t.Fatalf("%+v from %d: %v before %v: Prefixes says %v", g, from, u, tp, got)
						}
					}
				}
			}
		}
	}
}

// TestDetectedWithLine: a detection queue that passes the threshold while
// a notification has already given its output a line (the packet that
// crossed it was arriving when the line was allocated) allocates no second
// line for the same point.
func TestDetectedWithLine(t *testing.T) {
	cfg := Config{SAQs: 4, DetectFlits: 4, XoffFlits: 4, XonFlits: 1, IdleCycles: 100}
	p, _ := newPort(Ingress, &cfg, 5, 0)
	pt := Point{Switch: 5, Port: grid.PortXPlus}
	if i := p.Receive(0, Msg{Target: pt, Kind: Notify, Hops: 1}, grid.PortXPlus); i != 0 {
		t.Fatalf("notification allocated line %d", i)
	}
	if i := p.Detected(1, grid.PortXPlus, 9); i != -1 || p.InUse() != 1 {
		t.Fatalf("detection with a line for the point: line %d, %d in use", i, p.InUse())
	}
	expect(t, p)
}

// fakeQueues is a port's SAQs as a test sets them.
type fakeQueues struct{ flits []int32 }

func (q *fakeQueues) Flits(i int) int32 { return q.flits[i] }
func (q *fakeQueues) Empty(i int) bool  { return q.flits[i] == 0 }

func newPort(side Side, cfg *Config, s, port int) (*Port, *fakeQueues) {
	q := &fakeQueues{flits: make([]int32, cfg.SAQs)}
	p := &Port{}
	p.Init(cfg, side, s, port, make([]Line, cfg.SAQs), q)
	return p, q
}

func outbox(p *Port) []string {
	var s []string
	for _, m := range p.Out {
		s = append(s, fmt.Sprintf("%s %d.%d h%d ->%d", m.Kind, m.Target.Switch, m.Target.Port, m.Hops, m.Port))
	}
	p.Out = p.Out[:0]
	return s
}

func expect(t *testing.T, p *Port, want ...string) {
	t.Helper()
	got := outbox(p)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("outbox %q, want %q", got, want)
	}
}

// TestIngressLifecycle walks an ingress line through detection,
// Xoff/Xon, its child's deallocation and its own.
func TestIngressLifecycle(t *testing.T) {
	cfg := Config{SAQs: 2, DetectFlits: 10, XoffFlits: 20, XonFlits: 5, IdleCycles: 100}
	p, q := newPort(Ingress, &cfg, 7, 0)
	if i := p.Detected(1, 2, 9); i >= 0 {
		t.Fatal("detection below the threshold")
	}
	i := p.Detected(2, 2, 10)
	if i != 0 || !p.Lines[0].InUse || p.Lines[0].Target != (Point{7, 2}) || p.Lines[0].Leaf() {
		t.Fatalf("line %d: %+v", i, p.Lines[0])
	}
	expect(t, p, "notify 7.2 h1 ->255")
	q.flits[0] = 20
	p.Arrived(3, 0, 0)
	expect(t, p, "xoff 7.2 h0 ->255")
	p.Arrived(4, 0, 0) // Xoff already sent
	expect(t, p)
	q.flits[0] = 6
	p.Departed(0)
	expect(t, p)
	q.flits[0] = 5
	p.Departed(0)
	expect(t, p, "xon 7.2 h0 ->255")
	q.flits[0] = 0
	p.Departed(0) // empty, but not a leaf: its child lives
	expect(t, p)
	p.Receive(5, Msg{Target: Point{7, 2}, Kind: Dealloc, Hops: 1}, Link)
	expect(t, p, "dealloc 7.2 h1 ->2") // now a leaf and empty: freed, the egress port of output 2 told
	if p.InUse() != 0 || p.MaxInUse != 1 {
		t.Fatalf("%d in use, max %d", p.InUse(), p.MaxInUse)
	}
}

// TestLimitAndRefusal: a port with every line in use refuses, and the
// notifier records the refusal and frees its line as a leaf.
func TestLimitAndRefusal(t *testing.T) {
	cfg := Config{SAQs: 1, DetectFlits: 4, XoffFlits: 4, XonFlits: 1, IdleCycles: 100}
	up, _ := newPort(Egress, &cfg, 3, 0) // egress port 0 of switch 3, one line
	if up.Receive(1, Msg{Target: Point{4, 1}, Kind: Notify, Hops: 1}, Link) != 0 {
		t.Fatal("no line allocated")
	}
	if up.Receive(2, Msg{Target: Point{5, 1}, Kind: Notify, Hops: 2}, Link) >= 0 || up.Refusals != 1 {
		t.Fatal("a second line allocated past the limit")
	}
	expect(t, up, "refuse 5.1 h2 ->255")
	// The ingress line whose notification was refused.
	down, dq := newPort(Ingress, &cfg, 5, 3)
	if down.Receive(1, Msg{Target: Point{5, 1}, Kind: Notify, Hops: 1}, 1) != 0 {
		t.Fatal("no line")
	}
	dq.flits[0] = 4
	down.Arrived(2, 0, 0)
	expect(t, down, "notify 5.1 h1 ->255", "xoff 5.1 h0 ->255")
	down.Receive(3, Msg{Target: Point{5, 1}, Kind: Refuse, Hops: 1}, Link)
	if l := down.Lines[0]; l.Children != 0 || l.Refused != 1 || l.XoffSent != 0 {
		t.Fatalf("after the refusal: %+v", l)
	}
	down.Arrived(4, 0, 0) // over the threshold again: the refused child is not notified again
	expect(t, down)
	dq.flits[0] = 0
	down.Departed(0)
	expect(t, down, "dealloc 5.1 h1 ->1")
}

// TestEgressMatchingAndIdle: an egress line matches the packets whose
// route from the next switch passes its point, the farther point's line
// wins, and a line that never fills is freed after IdleCycles.
func TestEgressMatchingAndIdle(t *testing.T) {
	g := Mesh{K: 4, C: 1}
	cfg := Config{SAQs: 4, DetectFlits: 4, XoffFlits: 4, XonFlits: 1, IdleCycles: 100}
	p, q := newPort(Egress, &cfg, 0, grid.PortXPlus) // switch 0 towards switch 1
	far := Point{Switch: 3, Port: grid.PortYPlus}    // leaving (3,0) northwards
	near := Point{Switch: 2, Port: grid.PortXPlus}   // leaving (2,0) eastwards
	p.Receive(10, Msg{Target: far, Kind: Notify, Hops: 3}, Link)
	p.Receive(11, Msg{Target: near, Kind: Notify, Hops: 2}, Link)
	// Node 7 is switch (3,1): its route from switch 1 passes both points.
	if got := p.Match(g, 1, 7); got != 0 {
		t.Errorf("packet to 7 matched line %d, want line 0 (the farther point)", got)
	}
	if got := p.Prefixes(g, 1, 0); got != 1<<1 {
		t.Errorf("prefixes of the far line: %b, want the near line's", got)
	}
	if got := p.Prefixes(g, 1, 1); got != 0 {
		t.Errorf("prefixes of the near line: %b, want none", got)
	}
	// Node 3 is switch (3,0): it passes near only.
	if got := p.Match(g, 1, 3); got != 1 {
		t.Errorf("packet to 3 matched line %d, want 1", got)
	}
	if got := p.Match(g, 1, 5); got != -1 {
		t.Errorf("packet to 5 matched line %d, want none", got)
	}
	p.Sweep(100)
	expect(t, p)
	q.flits[1] = 8 // line 1 holds packets: it stays
	p.Sweep(111)
	expect(t, p, "dealloc 3.2 h3 ->255")
	if p.InUse() != 1 {
		t.Fatalf("%d lines in use after the sweep", p.InUse())
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		cfg     Config
		setting string
	}{
		{Defaults(16384), ""},
		{Config{SAQs: 0, DetectFlits: 1, XoffFlits: 1, IdleCycles: 1}, "saqs"},
		{Config{SAQs: 8, DetectFlits: 0, XoffFlits: 1, IdleCycles: 1}, "detect"},
		{Config{SAQs: 8, DetectFlits: 5, XoffFlits: 4, IdleCycles: 1}, "xoff"},
		{Config{SAQs: 8, DetectFlits: 4, XoffFlits: 4, XonFlits: 4, IdleCycles: 1}, "xon"},
		{Config{SAQs: 8, DetectFlits: 4, XoffFlits: 4, XonFlits: 2, IdleCycles: -1}, "idle"},
		{Config{SAQs: 8, DetectFlits: 4, XoffFlits: 4, XonFlits: 2, IdleCycles: 1, Scope: Feeders + 1}, "scope"},
	} {
		if s, _ := c.cfg.Validate(16384); s != c.setting {
			t.Errorf("%+v: setting %q, want %q", c.cfg, s, c.setting)
		}
	}
	if d := Defaults(16384); d.XoffFlits != 163 || d.XonFlits != 81 || d.SAQs != 8 {
		t.Errorf("defaults for 128 KB of 8-byte flits: %+v", d)
	}
}

// TestFeedersIngress: in Feeders scope a SAQ that fills to XoffFlits is
// Full and tells the far end of its link, notifying it first if it is not
// a child (it holds the point's packets from now on and should set them
// aside), and says Xon once drained to XonFlits; its own Stopped is never
// set and no child-addressed Xoff is sent.
func TestFeedersIngress(t *testing.T) {
	cfg := Config{SAQs: 2, DetectFlits: 10, XoffFlits: 20, XonFlits: 5, IdleCycles: 100, Scope: Feeders}
	p, q := newPort(Ingress, &cfg, 7, 0)
	p.Receive(1, Msg{Target: Point{9, 1}, Kind: Notify, Hops: 2}, 3) // from egress port 3
	q.flits[0] = 19
	p.Filled(0)
	expect(t, p) // below Xoff: nothing
	q.flits[0] = 20
	p.Arrived(2, 0, 0) // the arrival notifies (over detect) and fills it
	expect(t, p, "notify 9.1 h2 ->255", "xoff 9.1 h0 ->255")
	if l := p.Lines[0]; !l.Full || l.Stopped || l.XoffSent != 0 {
		t.Fatalf("after Xoff: %+v", l)
	}
	p.Arrived(3, 0, 0)
	expect(t, p) // already full
	q.flits[0] = 6
	p.Departed(0)
	expect(t, p)
	q.flits[0] = 5
	p.Departed(0)
	expect(t, p, "xon 9.1 h0 ->255")
	// A refused far end is not notified again, but still held.
	p.Receive(4, Msg{Target: Point{9, 1}, Kind: Refuse, Hops: 2}, Link)
	q.flits[0] = 25
	p.Filled(0)
	expect(t, p, "xoff 9.1 h0 ->255")
	// A SAQ swapped in from a detection queue over the threshold is full
	// at once.
	q.flits[1] = 30
	if i := p.Detected(5, 4, 30); i != 1 {
		t.Fatalf("detection allocated line %d", i)
	}
	expect(t, p, "notify 7.4 h1 ->255")
	p.Filled(1)
	expect(t, p, "xoff 7.4 h0 ->255")
}

// TestFeedersEgress: an egress SAQ in Feeders scope becomes Full without
// a message (the crossbar reads it), notifies an input the crossbar held
// for it once, and the link side keeps the far end's full points: a
// packet whose route passes one of them is held, until Xon.
func TestFeedersEgress(t *testing.T) {
	g := Mesh{K: 4, C: 1}
	cfg := Config{SAQs: 3, DetectFlits: 4, XoffFlits: 8, XonFlits: 2, IdleCycles: 100, Scope: Feeders}
	p, q := newPort(Egress, &cfg, 0, grid.PortXPlus) // switch 0 towards switch 1
	far := Point{Switch: 3, Port: grid.PortYPlus}    // leaving (3,0) northwards
	p.Receive(1, Msg{Target: far, Kind: Notify, Hops: 3}, Link)
	q.flits[0] = 8
	p.Arrived(2, 0, 2) // from ingress port 2: notified (over detect), full
	expect(t, p, "notify 3.2 h4 ->2")
	if !p.Lines[0].Full {
		t.Fatal("not full at the Xoff threshold")
	}
	if !p.Holding(0, 1) || p.Holding(0, 1) || p.Holding(0, 2) {
		t.Fatal("Holding notifies a new input once, and never a child")
	}
	expect(t, p, "notify 3.2 h4 ->1")
	q.flits[0] = 2
	p.Departed(0)
	expect(t, p)
	if p.Lines[0].Full {
		t.Fatal("still full at Xon")
	}
	// The far end's Xoff for a point: packets through it are held,
	// whatever this port's lines.
	near := Point{Switch: 2, Port: grid.PortXPlus} // leaving (2,0) eastwards
	p.Receive(3, Msg{Target: near, Kind: Xoff}, Link)
	p.Receive(3, Msg{Target: near, Kind: Xoff}, Link) // a repeat changes nothing
	if len(p.Held) != 1 || !p.Holds(g, 1, 3) || !p.Holds(g, 1, 7) || p.Holds(g, 1, 5) {
		t.Fatalf("held %v: packets to 3 and 7 pass (2,0) eastwards, to 5 not", p.Held)
	}
	if p.Lines[0].Stopped {
		t.Fatal("a line stopped in Feeders scope")
	}
	p.Receive(4, Msg{Target: near, Kind: Xon}, Link)
	if len(p.Held) != 0 || p.Holds(g, 1, 3) {
		t.Fatalf("held %v after Xon", p.Held)
	}
	// The far end has at most SAQs full points at once.
	defer func() {
		if recover() == nil {
			t.Fatal("a fourth held point accepted from a far end of three SAQs")
		}
	}()
	for s := range int32(4) {
		p.Receive(5, Msg{Target: Point{Switch: s, Port: grid.PortYPlus}, Kind: Xoff}, Link)
	}
}

// TestIdleOff: with IdleCycles 0 a line that never fills is never swept;
// one that empties is still freed (the paper's rule).
func TestIdleOff(t *testing.T) {
	cfg := Config{SAQs: 2, DetectFlits: 4, XoffFlits: 4, XonFlits: 1, IdleCycles: 0}
	p, q := newPort(Egress, &cfg, 0, grid.PortXPlus)
	p.Receive(1, Msg{Target: Point{Switch: 2, Port: grid.PortXPlus}, Kind: Notify, Hops: 2}, Link)
	p.Receive(1, Msg{Target: Point{Switch: 3, Port: grid.PortXPlus}, Kind: Notify, Hops: 3}, Link)
	p.Sweep(1 << 40)
	expect(t, p)
	q.flits[1] = 8
	p.Enqueued(2, 1)
	q.flits[1] = 0
	p.Departed(1)
	expect(t, p, "dealloc 3.0 h3 ->255")
	if p.InUse() != 1 {
		t.Fatalf("%d lines in use", p.InUse())
	}
}
