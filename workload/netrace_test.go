package workload

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ntPacket is a packet of a netrace file the tests write.
type ntPacket struct {
	cycle          uint64
	id             uint32
	kind, src, dst uint8
	dependents     []uint32
}

// netraceFile is a netrace file (uncompressed) of nodes nodes holding
// packets, with notes and one region, as netrace's writer lays it out.
func netraceFile(nodes int, packets []ntPacket) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	w := func(v any) { binary.Write(&b, le, v) }
	w(uint32(netraceMagic))
	w(math.Float32bits(1.0))
	var name [30]byte
	copy(name[:], "unit test")
	b.Write(name[:])
	b.WriteByte(byte(nodes))
	b.WriteByte(0)
	w(uint64(1000))
	w(uint64(len(packets)))
	notes := "written by a test\x00"
	w(uint32(len(notes)))
	w(uint32(1))
	b.Write(make([]byte, 8))
	b.WriteString(notes)
	w([3]uint64{0, 1000, uint64(len(packets))})
	for _, p := range packets {
		w(p.cycle)
		w(p.id)
		w(uint32(0xdead0000 + p.id))
		b.Write([]byte{p.kind, p.src, p.dst, 0x23, byte(len(p.dependents))})
		for _, d := range p.dependents {
			w(d)
		}
	}
	return b.Bytes()
}

// ntPackets: a read request 0 -> 2 and its 72-byte response 2 -> 0, which
// waits for it; a packet 2 -> 2 (never in the network) whose dependent 2
// -> 1 therefore waits for what it waited for (the request); a write
// 3 -> 1 waited for by 0 -> 3, which cannot see it arrive at node 1 (a
// dependency left out).
func ntPackets() []ntPacket {
	return []ntPacket{
		{cycle: 0, id: 10, kind: 1, src: 0, dst: 2, dependents: []uint32{11, 12}},
		{cycle: 40, id: 11, kind: 2, src: 2, dst: 0},
		{cycle: 41, id: 12, kind: 5, src: 2, dst: 2, dependents: []uint32{13}},
		{cycle: 45, id: 13, kind: 13, src: 2, dst: 1},
		{cycle: 50, id: 14, kind: 4, src: 3, dst: 1, dependents: []uint32{15}},
		{cycle: 90, id: 15, kind: 1, src: 0, dst: 3},
	}
}

// TestNetrace: a netrace file, uncompressed, gzip-compressed or the
// bzip2-compressed copy in testdata (Go writes no bzip2: it is
// netraceFile(4, ntPackets()) written out and compressed by the bzip2
// command, which a change to either must repeat), reads as sends of the packets' sizes at their cycles after the
// packets they depend on, with packets to their own node and dependencies
// the model cannot see left out and counted; its program runs under every
// timing.
func TestNetrace(t *testing.T) {
	raw := netraceFile(4, ntPackets())
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw)
	zw.Close()
	bz, err := os.ReadFile(filepath.Join("testdata", "small.tra.bz2"))
	if err != nil {
		t.Fatal(err)
	}
	want := "0->2 1 flits at 0 after []; 2->0 5 flits at 40 after [10]; 2->1 1 flits at 45 after [10]; 3->1 5 flits at 50 after []; 0->3 1 flits at 90 after []"
	for _, c := range []struct {
		name string
		data []byte
	}{{"raw", raw}, {"gzip", gz.Bytes()}, {"bzip2", bz}} {
		if !IsNetrace(c.data[:4]) {
			t.Errorf("%s: not recognised as netrace", c.name)
		}
		tr, st, err := ReadNetrace(c.name, bytes.NewReader(c.data), 16)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []string
		for _, ev := range tr.Events {
			got = append(got, fmt.Sprintf("%d->%d %d flits at %d after %v", ev.Rank, ev.Peer, ev.Flits, ev.At, ev.After))
		}
		if g := strings.Join(got, "; "); g != want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, g, want)
		}
		if st.Packets != 6 || st.SelfPackets != 1 || st.DroppedDependencies != 1 || st.Benchmark != "unit test" || tr.Motif != "netrace-unit-test" || len(tr.Nodes) != 4 {
			t.Errorf("%s: %+v, motif %q, %d ranks", c.name, st, tr.Motif, len(tr.Nodes))
		}
		for _, timing := range []string{TimingDependencies, TimingRecorded, TimingBoth} {
			prog, err := tr.Program(timing)
			if err == nil {
				err = prog.Check()
			}
			if err != nil {
				t.Errorf("%s, %s: %v", c.name, timing, err)
			}
		}
	}
	if IsNetrace([]byte("icnsim-trace 1")) {
		t.Error("an icnsim trace taken for netrace")
	}
}

// TestNetraceErrors: a malformed netrace file is one error naming the
// file, and the packet by its place, and what is wrong.
func TestNetraceErrors(t *testing.T) {
	ps := ntPackets
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"bad magic", append([]byte{1, 2, 3, 4}, netraceFile(4, ps())[4:]...), "magic 0x4030201"},
		{"bad version", func() []byte {
			b := netraceFile(4, ps())
			binary.LittleEndian.PutUint32(b[4:], math.Float32bits(2))
			return b
		}(), "version 2"},
		{"short header", netraceFile(4, ps())[:50], "the 72-byte header"},
		{"truncated packet", netraceFile(4, ps())[:len(netraceFile(4, ps()))-3], "packet 5: unexpected EOF (a truncated file?)"},
		{"unknown type", netraceFile(4, []ntPacket{{id: 1, kind: 9, src: 0, dst: 1}}), "type 9 is not a packet type"},
		{"node outside", netraceFile(4, []ntPacket{{id: 1, kind: 1, src: 0, dst: 7}}), "from node 0 to 7, the trace has nodes 0..3"},
		{"id twice", netraceFile(4, []ntPacket{{id: 1, kind: 1, src: 0, dst: 1}, {id: 1, kind: 1, src: 1, dst: 0}}), "id 1 used twice"},
		{"out of order", netraceFile(4, []ntPacket{{cycle: 9, id: 1, kind: 1, src: 0, dst: 1}, {cycle: 3, id: 2, kind: 1, src: 1, dst: 0}}), "at cycle 3, after one at cycle 9"},
		{"depends on an earlier packet", netraceFile(4, []ntPacket{{id: 1, kind: 1, src: 0, dst: 1}, {id: 2, kind: 1, src: 1, dst: 0, dependents: []uint32{1}}}), "packet id 1 depends on id 2, which comes later"},
		{"one node", netraceFile(1, ps()[:1]), "1 nodes"},
	} {
		_, _, err := ReadNetrace("n.tra", bytes.NewReader(c.data), 16)
		if err == nil || !strings.Contains(err.Error(), "n.tra: netrace: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
