package workload

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// Netrace is the trace format of Hestness, Grot and Keckler's netrace
// library (the booksim/netrace repository, format version 1.0): the
// memory-system packets of a 64-node chip multiprocessor simulated in
// full-system M5, with the dependencies between them. A file is
// bzip2-compressed (gzip or uncompressed are read too), little endian:
//
//   - a 72-byte header: magic 0x484A5455, version 1.0 (float32), the
//     benchmark's name (30 bytes), the node count (a byte), a pad byte,
//     the cycles and the packets (uint64 each), the notes' length and the
//     regions' count (uint32 each), 8 bytes of padding;
//   - the notes (their length, when below 8,192), then 24 bytes a region
//     (its offset, cycles and packets: uint64 each);
//   - the packets, in cycle order, 21 bytes each: cycle (uint64), id,
//     address (uint32 each), type, source, destination, node types and
//     the count of its dependents (a byte each), then those dependents'
//     ids (uint32 each): packets that may be sent only once this one has
//     arrived.
//
// ReadNetrace turns it into a Trace: rank i on node i for each of the
// trace's nodes, and each packet a send of its type's size (8 or 72
// bytes: netrace's table) in flits of flitBytes, at its cycle, after
// the packets it depends on. What the trace holds that the model cannot
// replay is left out and counted (NetraceStats): a packet from a node to
// itself never enters the network (its dependents wait for what it waited
// for instead), and a dependency on a packet that arrived at another node
// than the dependent's source cannot be seen there (no message tells it).
type NetraceStats struct {
	Packets, SelfPackets, DroppedDependencies int
	Benchmark                                 string
}

// netraceMagic is a netrace file's first four bytes, little endian.
const netraceMagic = 0x484A5455

// netracePacketBytes is the size of each netrace packet type (netrace's
// nt_packet_sizes; 0 for an invalid type).
func netracePacketBytes() [31]int {
	return [31]int{0, 8, 72, 72, 72, 8, 72, 0, 0, 0, 0, 0, 0, 8, 8, 8, 72, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 8, 8, 8, 72}
}

// IsNetrace reports whether a file starting with head is a netrace file:
// bzip2 or gzip compressed, or its magic.
func IsNetrace(head []byte) bool {
	return bytes.HasPrefix(head, []byte("BZh")) || bytes.HasPrefix(head, []byte{0x1f, 0x8b}) ||
		len(head) >= 4 && binary.LittleEndian.Uint32(head) == netraceMagic
}

// ReadNetrace reads a netrace file (see NetraceStats) as a Trace of
// flitBytes-byte flits; name is the file's name in errors.
func ReadNetrace(name string, r io.Reader, flitBytes int) (*Trace, NetraceStats, error) {
	var st NetraceStats
	if flitBytes < 1 {
		return nil, st, fmt.Errorf("%s: flits of %d bytes (allowed: >= 1)", name, flitBytes)
	}
	br := bufio.NewReader(r)
	head, _ := br.Peek(4)
	var in io.Reader = br
	switch {
	case bytes.HasPrefix(head, []byte("BZh")):
		in = bufio.NewReader(bzip2.NewReader(br))
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, st, fmt.Errorf("%s: %w", name, err)
		}
		in = bufio.NewReader(gz)
	}
	fail := func(format string, args ...any) (*Trace, NetraceStats, error) {
		return nil, st, fmt.Errorf("%s: netrace: %s", name, fmt.Sprintf(format, args...))
	}
	var hdr [72]byte
	if _, err := io.ReadFull(in, hdr[:]); err != nil {
		return fail("the 72-byte header: %v", err)
	}
	le := binary.LittleEndian
	if m := le.Uint32(hdr[0:]); m != netraceMagic {
		return fail("magic %#x, not netrace's %#x", m, netraceMagic)
	}
	if v := math.Float32frombits(le.Uint32(hdr[4:])); v != 1.0 {
		return fail("version %g (allowed: 1.0)", v)
	}
	st.Benchmark = strings.TrimRight(string(hdr[8:38]), "\x00")
	nodes := int(hdr[38])
	packets := le.Uint64(hdr[48:])
	notes, regions := le.Uint32(hdr[56:]), le.Uint32(hdr[60:])
	if nodes < 2 {
		return fail("%d nodes (allowed: at least 2)", nodes)
	}
	if notes > 0 && notes < 8192 {
		if _, err := io.CopyN(io.Discard, in, int64(notes)); err != nil {
			return fail("the notes: %v", err)
		}
	}
	if regions > 100 {
		return fail("%d regions (netrace allows at most 100)", regions)
	}
	if _, err := io.CopyN(io.Discard, in, 24*int64(regions)); err != nil {
		return fail("the regions: %v", err)
	}
	type packet struct {
		cycle          uint64
		id             uint32
		src, dst, kind uint8
		dependents     []uint32
	}
	sizes := netracePacketBytes()
	var all []packet
	index := map[uint32]int{} // id -> its packet
	for {
		var b [21]byte
		n, err := io.ReadFull(in, b[:])
		if err == io.EOF && n == 0 {
			break
		}
		if err != nil {
			return fail("packet %d: %v (a truncated file?)", len(all), err)
		}
		p := packet{cycle: le.Uint64(b[0:]), id: le.Uint32(b[8:]), kind: b[16], src: b[17], dst: b[18]}
		if int(p.kind) >= len(sizes) || sizes[p.kind] == 0 {
			return fail("packet %d (id %d): type %d is not a packet type", len(all), p.id, p.kind)
		}
		if int(p.src) >= nodes || int(p.dst) >= nodes {
			return fail("packet %d (id %d): from node %d to %d, the trace has nodes 0..%d", len(all), p.id, p.src, p.dst, nodes-1)
		}
		if _, dup := index[p.id]; dup {
			return fail("packet %d: id %d used twice", len(all), p.id)
		}
		if len(all) > 0 && p.cycle < all[len(all)-1].cycle {
			return fail("packet %d (id %d) at cycle %d, after one at cycle %d (packets are in cycle order)", len(all), p.id, p.cycle, all[len(all)-1].cycle)
		}
		if k := int(b[20]); k > 0 {
			deps := make([]byte, 4*k)
			if _, err := io.ReadFull(in, deps); err != nil {
				return fail("packet %d (id %d): its %d dependents: %v", len(all), p.id, k, err)
			}
			p.dependents = make([]uint32, k)
			for i := range p.dependents {
				p.dependents[i] = le.Uint32(deps[4*i:])
			}
		}
		index[p.id] = len(all)
		all = append(all, p)
	}
	if packets != 0 && uint64(len(all)) != packets {
		return fail("%d packets, the header says %d", len(all), packets)
	}
	// after[i]: the packets packet i depends on (those listing it).
	after := make([][]int, len(all))
	for i, p := range all {
		for _, d := range p.dependents {
			j, ok := index[d]
			if !ok {
				continue // a dependent beyond the trace's end (a cut trace)
			}
			if j <= i {
				return fail("packet id %d depends on id %d, which comes later or is itself", d, p.id)
			}
			after[j] = append(after[j], i)
		}
	}
	// waits[i]: what a send of packet i waits for, a packet to its own
	// node standing for what it waited for.
	waits := make([][]int, len(all))
	for i := range all {
		for _, j := range after[i] {
			if all[j].src == all[j].dst {
				waits[i] = append(waits[i], waits[j]...)
			} else {
				waits[i] = append(waits[i], j)
			}
		}
	}
	tr := &Trace{Motif: "netrace"}
	if st.Benchmark != "" {
		tr.Motif = "netrace-" + strings.Join(strings.Fields(st.Benchmark), "-")
	}
	for i := range nodes {
		tr.Nodes = append(tr.Nodes, i)
	}
	for i, p := range all {
		st.Packets++
		if p.src == p.dst {
			st.SelfPackets++
			continue
		}
		ev := TraceEvent{Line: i + 1, ID: int(p.id), Rank: int(p.src), Peer: int(p.dst), At: int64(p.cycle), Timed: true, Dependent: true,
			Flits: int64((sizes[p.kind] + flitBytes - 1) / flitBytes)}
		seen := map[int]bool{}
		for _, j := range waits[i] {
			switch q := all[j]; {
			case seen[j]:
			case q.dst != p.src && q.src != p.src:
				st.DroppedDependencies++
			default:
				ev.After = append(ev.After, int(q.id))
			}
			seen[j] = true
		}
		tr.Events = append(tr.Events, ev)
	}
	if len(tr.Events) == 0 {
		return nil, st, errors.New(name + ": netrace: no packet between two nodes")
	}
	ids := map[int]int{}
	for _, ev := range tr.Events {
		ids[ev.ID] = ev.Line
	}
	// Errors name a packet by its place in the file (from 1), as a text
	// trace's by its line.
	return tr, st, tr.check(name, ids)
}
