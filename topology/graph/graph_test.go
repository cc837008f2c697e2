package graph

import (
	"bytes"
	"context"
	"io"
	"math/bits"
	"time"

	"fmt"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/internal/badinput"
	"github.com/icnsim/icnsim/internal/fuzzguard"
)

// TestReadGraph reads a small graph: ports, peers, latencies, parallel
// links, CRLF line ends and comments.
func TestReadGraph(t *testing.T) {
	g, err := ReadGraph(context.Background(), "ring.txt", strings.NewReader("# a ring of 4 routers, a node each\r\n"+
		"routers 4\r\nnode 0\r\nnode 1\r\nnode 2\r\nnode 3\r\n"+
		"link 0 1\r\nlink 1 2 5   # a longer link\r\nlink 2 3\r\nlink 3 0\r\nlink 3 0 # parallel\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if g.Routers() != 4 || g.Nodes() != 4 || g.Diameter() != 2 || g.Ports(1) != 3 || g.Ports(3) != 4 || g.Ports(0) != 4 {
		t.Fatalf("routers %d nodes %d diameter %d ports %d %d %d", g.Routers(), g.Nodes(), g.Diameter(), g.Ports(1), g.Ports(3), g.Ports(0))
	}
	if p := g.Peer(1, 2); p.Router != 2 || g.Peer(2, p.Port).Router != 1 || g.LatencyCycles(1, 2) != 5 || g.LatencyCycles(2, p.Port) != 5 {
		t.Fatalf("link 1-2: %+v, latency %d", p, g.LatencyCycles(1, 2))
	}
	if p, q := g.Peer(3, 2), g.Peer(3, 3); p.Router != 0 || q.Router != 0 || p.Port == q.Port || g.Peer(0, p.Port).Port != 2 || g.Peer(0, q.Port).Port != 3 {
		t.Fatalf("parallel links 3-0: %+v, %+v", p, q)
	}
	if n := g.Peer(2, 0); n.Node != 2 || n.Router != -1 {
		t.Fatalf("node port of router 2: %+v", n)
	}
	if b := g.DiameterBound(); b < g.Diameter() {
		t.Fatalf("diameter bound %d below the diameter %d", b, g.Diameter())
	}
}

// TestGraphDiameterIsBetweenNodes: the diameter is the longest shortest
// path between routers with nodes; a router without nodes farther out
// does not count.
func TestGraphDiameterIsBetweenNodes(t *testing.T) {
	// 0 - 1 - 2 - 3 - 4, nodes on 1 and 2 only.
	g, err := ReadGraph(context.Background(), "path.txt", strings.NewReader("routers 5\nnode 1\nnode 2\nlink 0 1\nlink 1 2\nlink 2 3\nlink 3 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	rt := g.Routes()
	if g.Diameter() != 1 || rt.Hops(4, 1) != 3 || rt.Hops(0, 2) != 2 || rt.NextPorts(4, 1) != 1 || rt.NextPorts(2, 2) != 0 {
		t.Fatalf("diameter %d, hops 4->1 %d, 0->2 %d, next 4->1 %b", g.Diameter(), rt.Hops(4, 1), rt.Hops(0, 2), rt.NextPorts(4, 1))
	}
	if g.Destinations() != 2 || g.Destination(2) != 1 || g.Destination(0) != -1 || g.RouteTableBytes() != 5*2*12 {
		t.Fatalf("destinations %d, of router 2 %d, of 0 %d, table %d bytes", g.Destinations(), g.Destination(2), g.Destination(0), g.RouteTableBytes())
	}
}

// TestGraphFileDefects: every defect of a topology file is one error
// naming the file, the line and what is allowed.
func TestGraphFileDefects(t *testing.T) {
	for _, c := range badinput.GraphFiles() {
		t.Run(c.Name, func(t *testing.T) {
			_, err := ReadGraph(context.Background(), "bad.txt", strings.NewReader(c.File))
			if err == nil || err.Error() != c.Want {
				t.Errorf("error %v\nwant  %s", err, c.Want)
			}
		})
	}
	if _, err := ReadGraph(context.Background(), "ok.txt", strings.NewReader(badinput.ManyPortsGraph())); err != nil {
		t.Errorf("64 ports: %v", err)
	}
}

// TestGraphTooManyNodes: the 2^20+1-th node line is refused.
func TestGraphTooManyNodes(t *testing.T) {
	var b strings.Builder
	fmt.Fprintf(&b, "routers %d\n", MaxRouters)
	for n := 0; n <= MaxNodes; n++ {
		fmt.Fprintf(&b, "node %d\n", n%MaxRouters)
	}
	_, err := ReadGraph(context.Background(), "big.txt", strings.NewReader(b.String()))
	if want := "big.txt:1048578: node 1048576: allowed: at most 1048576 (2^20) nodes"; err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
}

// cancelAfter is an io.Reader that cancels its context once it has given
// after bytes, and counts the bytes it gives.
type cancelAfter struct {
	r      io.Reader
	after  int
	read   int
	cancel func()
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if c.read += n; c.read >= c.after {
		c.cancel()
	}
	return n, err
}

// errAfter is a context whose Err is nil for its first calls and then
// context.Canceled, counting the calls.
type errAfter struct {
	context.Context
	calls, after int
}

func (c *errAfter) Err() error {
	if c.calls++; c.calls > c.after {
		return context.Canceled
	}
	return nil
}

// TestGraphReadStops: a context cancelled while a large file is read stops
// the reading soon after (it looks every 4096 lines, not at the end), and
// one cancelled while the route tables are computed stops them between
// two searches, keeping nothing.
func TestGraphReadStops(t *testing.T) {
	var b strings.Builder
	const n = 1 << 17 // a path of routers, a node on every 8192nd
	fmt.Fprintf(&b, "routers %d\n", n)
	for r := 0; r < n; r += 8192 {
		fmt.Fprintf(&b, "node %d\n", r)
	}
	for r := 1; r < n; r++ {
		fmt.Fprintf(&b, "link %d %d\n", r-1, r)
	}
	src := b.String()
	ctx, cancel := context.WithCancel(context.Background())
	rd := &cancelAfter{r: strings.NewReader(src), after: 100_000, cancel: cancel}
	if _, err := ReadGraph(ctx, "path.txt", rd); err != context.Canceled {
		t.Fatalf("reading under a context cancelled after 100 kB: %v", err)
	}
	if rd.read > 300_000 || rd.read >= len(src) {
		t.Errorf("read %d of %d bytes after a cancellation at 100,000", rd.read, len(src))
	}
	g, err := ReadGraph(context.Background(), "path.txt", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	// 16 searches of 2^17 routers, the context looked at before each and
	// every 64K routers: cancelled at the third look, it stops in the
	// second search.
	ec := &errAfter{Context: context.Background(), after: 2}
	if err := g.PrepareRoutes(ec); err != context.Canceled || ec.calls > 3 {
		t.Fatalf("route tables under a context cancelled at its third look: %v after %d looks", err, ec.calls)
	}
	if g.routes != nil {
		t.Fatal("a cancelled computation kept its tables")
	}
	// Uncancelled, it looks before each of the 16 searches and twice in
	// each (every 64K of its 2^17 routers).
	ec = &errAfter{Context: context.Background(), after: 1 << 30}
	if err := g.PrepareRoutes(ec); err != nil || ec.calls < 1+16*3 {
		t.Fatalf("route tables: %v after %d looks at the context, want at least %d", err, ec.calls, 1+16*3)
	}
	if g.Diameter() != n-8192 || g.Routes().Hops(0, n-8192) != n-8192 {
		t.Fatalf("diameter %d, want %d", g.Diameter(), n-8192)
	}
}

// TestGraphLineLimit: a line of MaxLineBytes bytes is read, with LF
// or CR LF or none at the end of the file; one byte more is refused.
func TestGraphLineLimit(t *testing.T) {
	head := "routers 2\nnode 0\nnode 1\n"
	long := func(n int) string { return "link 0 1 #" + strings.Repeat("x", n-len("link 0 1 #")) }
	for _, end := range []string{"\n", "\r\n", ""} {
		if _, err := ReadGraph(context.Background(), "long.txt", strings.NewReader(head+long(MaxLineBytes)+end)); err != nil {
			t.Errorf("a line of %d bytes ending %q: %v", MaxLineBytes, end, err)
		}
		_, err := ReadGraph(context.Background(), "long.txt", strings.NewReader(head+long(MaxLineBytes+1)+end))
		if want := "long.txt:4: line longer than 4096 bytes (allowed: lines of at most 4096 bytes, comments included)"; err == nil || err.Error() != want {
			t.Errorf("a line of %d bytes ending %q: %v", MaxLineBytes+1, end, err)
		}
	}
}

// FuzzGraphFile feeds whole topology files to the reader: it returns an
// error naming the file, or a graph that keeps the format's promises
// (checkGraph); it never panics or hangs. The seeds are every defect of
// badinput.GraphFiles and well-formed files.
func FuzzGraphFile(f *testing.F) {
	for _, c := range badinput.GraphFiles() {
		f.Add([]byte(c.File))
	}
	for _, ok := range []string{badinput.ManyPortsGraph(), "routers 1\nnode 0\nnode 0\n", "routers 3\r\nnode 0\r\nnode 2\r\nlink 0 1 7\r\nlink 1 2\r\nlink 1 2 # parallel\r\n",
		"# ring\nrouters 4\nnode 0\nnode 1\nnode 2\nnode 3\nlink 0 1\nlink 1 2 5\nlink 2 3\nlink 3 0\n"} {
		f.Add([]byte(ok))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		defer fuzzguard.Start(time.Minute, src)()
		g, err := ReadGraph(context.Background(), "fuzz.txt", bytes.NewReader(src))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.txt") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		checkGraph(t, g)
	})
}

// checkGraph checks what a graph the reader accepted promises: every
// router has a port and at most MaxPorts, links are symmetric with
// one latency, each node is on the port its router lists, every router
// reaches node 0's, and (for small graphs) the route tables lead to every
// router with nodes along shortest paths within the diameter bound.
func checkGraph(t *testing.T, g *Graph) {
	t.Helper()
	if g.Nodes() < 2 || g.Routers() < 1 {
		t.Fatalf("%d routers, %d nodes", g.Routers(), g.Nodes())
	}
	for r := 0; r < g.Routers(); r++ {
		if g.Ports(r) < 1 || g.Ports(r) > MaxPorts {
			t.Fatalf("router %d has %d ports", r, g.Ports(r))
		}
		for p := 0; p < g.Ports(r); p++ {
			q := g.Peer(r, p)
			switch {
			case q.Router >= 0:
				if back := g.Peer(q.Router, q.Port); back.Router != r || back.Port != p || q.Router == r || g.LatencyCycles(q.Router, q.Port) != g.LatencyCycles(r, p) {
					t.Fatalf("R%d port %d -> %+v -> %+v", r, p, q, back)
				}
			case q.Node >= 0:
				if nr, np := g.NodePort(q.Node); nr != r || np != p {
					t.Fatalf("R%d port %d holds node %d, which is on R%d port %d", r, p, q.Node, nr, np)
				}
			default:
				t.Fatalf("R%d port %d leads nowhere", r, p)
			}
		}
	}
	if g.Routers() > 256 {
		return
	}
	rt := g.Routes()
	if rt.Diameter > g.DiameterBound() {
		t.Fatalf("diameter %d above its bound %d", rt.Diameter, g.DiameterBound())
	}
	for n := 0; n < g.Nodes(); n++ {
		dr, _ := g.NodePort(n)
		for r := 0; r < g.Routers(); r++ {
			h := rt.Hops(r, dr)
			if h < 0 || (h == 0) != (r == dr) {
				t.Fatalf("R%d to R%d: %d hops", r, dr, h)
			}
			for m := rt.NextPorts(r, dr); m != 0; m &= m - 1 {
				if q := g.Peer(r, bits.TrailingZeros64(m)); q.Router < 0 || rt.Hops(q.Router, dr) != h-1 {
					t.Fatalf("R%d to R%d: next port %d leads to %+v", r, dr, bits.TrailingZeros64(m), q)
				}
			}
			if h > 0 && rt.NextPorts(r, dr) == 0 {
				t.Fatalf("R%d to R%d: no next port", r, dr)
			}
		}
	}
}
