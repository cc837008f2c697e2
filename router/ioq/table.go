package ioq

import (
	"fmt"
	"strings"

	"github.com/icnsim/icnsim/internal/keys"
	"github.com/icnsim/icnsim/internal/suggest"
	"github.com/icnsim/icnsim/router/ioq/recn"
)

// Table is the switch's configuration table, [router.ioq] of a
// configuration with router.kind = "ioq": its queue organisation, its
// port memories, the flit and link sizes that relate cycles to time, and
// RECN's own table ([router.ioq.recn]). The keys every router kind reads
// (routing, latencies) are the [router] table's; Config is the switch's
// whole view.
type Table struct {
	// Queues is the queue organisation: 1q, voq-sw, voq-net, recn
	// (ParseOrg).
	Queues string `toml:"queues"`
	// PortMemoryBytes is the memory at every ingress and egress port and
	// at every adapter's injection side (128 KB, the paper's), a whole
	// number of flits.
	PortMemoryBytes int `toml:"port_memory_bytes"`
	// FlitBytes and LinkGbps relate cycles to time: a cycle is the time a
	// link takes to carry one flit, flit_bytes * 8 / link_gbps ns (8 ns
	// for 8-byte flits on 8 Gbps links).
	FlitBytes int     `toml:"flit_bytes"`
	LinkGbps  float64 `toml:"link_gbps"`
	// RECN configures queues = "recn".
	RECN recn.Table `toml:"recn"`
}

// MaxPortMemoryFlits is the largest port memory a Table allows, in flits.
const MaxPortMemoryFlits = 1 << 24

// DefaultTable is the RECN paper's switch: one queue per port memory of
// 128 KB, 8-byte flits on 8 Gbps links, the paper's RECN.
func DefaultTable() Table {
	return Table{Queues: "1q", PortMemoryBytes: 128 << 10, FlitBytes: 8, LinkGbps: 8, RECN: recn.DefaultTable()}
}

// Check adds each key of t (relative to the table; RECN's under "recn.",
// where queues = "recn") that is out of its range or not a name the
// switch knows, and reports whether the organisation, the flit size and
// the memory are valid, so that checks of the switch's size may run
// (RECN's validity is its table's: recn.Table.Check).
func (t Table) Check(add keys.Add) bool {
	ok := true
	if _, err := ParseOrg(t.Queues); err != nil {
		add("queues", t.Queues, "allowed: "+strings.Join(Orgs(), ", ")+suggest.DidYouMean(t.Queues, Orgs()))
		ok = false
	}
	flitOK := t.FlitBytes >= 1 && t.FlitBytes <= 4096
	if !flitOK {
		add("flit_bytes", t.FlitBytes, "allowed: 1..4096 bytes per flit")
	}
	if !(t.LinkGbps >= 1e-3 && t.LinkGbps <= 1e6) {
		add("link_gbps", t.LinkGbps, "allowed: 0.001..1e6 Gbit/s (a cycle, flit_bytes x 8 / link_gbps ns, converts the results to time)")
	}
	memOK := false
	switch {
	case t.PortMemoryBytes < 1:
		add("port_memory_bytes", t.PortMemoryBytes, "allowed: >= 1 byte, a whole number of flits")
	case flitOK && t.PortMemoryBytes%t.FlitBytes != 0:
		add("port_memory_bytes", t.PortMemoryBytes, fmt.Sprintf("allowed: a whole number of flits of flit_bytes = %d bytes", t.FlitBytes))
	case flitOK && t.PortMemoryBytes/t.FlitBytes > MaxPortMemoryFlits:
		add("port_memory_bytes", t.PortMemoryBytes, fmt.Sprintf("allowed: at most 2^24 flits (%d bytes)", MaxPortMemoryFlits*t.FlitBytes))
	default:
		memOK = flitOK
	}
	if t.Queues == "recn" {
		t.RECN.Check(func(key string, v any, allowed string) { add("recn."+key, v, allowed) })
	}
	return ok && flitOK && memOK
}

// PortMemoryFlits is the port memory in whole flits.
func (t Table) PortMemoryFlits() int { return t.PortMemoryBytes / max(t.FlitBytes, 1) }

// CycleNs is the length of a cycle in nanoseconds: the time a link takes
// to carry one flit.
func (t Table) CycleNs() float64 { return float64(t.FlitBytes) * 8 / t.LinkGbps }

// KeyDocs documents t's keys for the commented default configuration
// (RECN's are its table's: recn.Table.KeyDocs).
func (t Table) KeyDocs() []keys.Doc {
	return []keys.Doc{
		{Key: "queues", Value: fmt.Sprintf("%q", t.Queues), Doc: "queue organisation per port memory: 1q, voq-sw (a queue per output port of the next switch), voq-net (a queue per destination), recn (detection queues and SAQs, [router.ioq.recn])"},
		{Key: "port_memory_bytes", Value: fmt.Sprint(t.PortMemoryBytes), Doc: "memory at every ingress and egress port and adapter, bytes (a whole number of flits; VOQ splits it equally)"},
		{Key: "flit_bytes", Value: fmt.Sprint(t.FlitBytes), Doc: "bytes per flit; a cycle is the time a link carries one flit"},
		{Key: "link_gbps", Value: fmt.Sprint(t.LinkGbps), Doc: "link rate, Gbit/s (a cycle is flit_bytes * 8 / link_gbps ns)"},
	}
}

// SubTables are t's tables in it, for the commented default
// configuration: RECN's.
func (t Table) SubTables() []keys.Sub {
	return []keys.Sub{{Key: "recn", Doc: `queues = "recn" only: RECN's set-aside queues (SAQs); thresholds are shares of port_memory_bytes, in whole flits`, Keys: t.RECN.KeyDocs()}}
}
