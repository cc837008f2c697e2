package recn

import (
	"fmt"

	"github.com/icnsim/icnsim/internal/keys"
)

// Table is RECN's configuration table, [router.ioq.recn] of a
// configuration with router.ioq.queues = "recn": its SAQs and its thresholds
// as shares of the port memory (Config is the same in whole flits, for a
// memory of a given size).
type Table struct {
	// SAQs is the number of set-aside queues per port memory (the paper's 8).
	SAQs int `toml:"saqs"`
	// DetectFraction is the occupancy, as a share of the port memory, at
	// which a detection, standard or set-aside queue is congested; Xoff
	// and Xon the occupancies of a SAQ at which it stops and restarts its
	// upstream SAQs (the paper fixes 1% of the memory for its threshold).
	DetectFraction float64 `toml:"detect_fraction"`
	XoffFraction   float64 `toml:"xoff_fraction"`
	XonFraction    float64 `toml:"xon_fraction"`
	// IdleCycles frees an empty leaf SAQ that has received no packet for
	// this long (one that was allocated for a flow that stopped); 0 never
	// does (the paper frees a SAQ only when it empties).
	IdleCycles int64 `toml:"idle_cycles"`
	// ControlLanes is "shared" (control packets take link cycles between
	// data packets, as the paper's) or "dedicated" (lanes of their own).
	ControlLanes string `toml:"control_lanes"`
	// XoffScope is what a SAQ's Xoff stops: "children" (the upstream SAQs
	// for its point, the paper's text, which bounds no SAQ) or "feeders"
	// (every queue of every port feeding it, for the packets that would
	// enter it: no SAQ holds more than its Xoff threshold plus what is in
	// flight; see Scope).
	XoffScope string `toml:"xoff_scope"`
}

// DefaultTable is the paper's RECN: 8 SAQs, detection and Xoff at 1% of
// the memory, Xon at half of that, idle SAQs freed after 1024 cycles,
// control packets sharing the links, Xoff stopping the children.
func DefaultTable() Table {
	return Table{SAQs: 8, DetectFraction: 0.01, XoffFraction: 0.01, XonFraction: 0.005, IdleCycles: 1024, ControlLanes: "shared", XoffScope: "children"}
}

// Check adds each key of t that is not one RECN knows or out of its range
// (keys relative to the table), and reports whether t is valid. The SAQs
// a port memory has room for, and the thresholds in whole flits, depend
// on the switch (Config.Validate).
func (t Table) Check(add keys.Add) bool {
	ok := true
	if t.ControlLanes != "shared" && t.ControlLanes != "dedicated" {
		add("control_lanes", t.ControlLanes, "allowed: shared (control packets take link cycles between data packets), dedicated")
		ok = false
	}
	if _, known := ParseScope(t.XoffScope); !known {
		add("xoff_scope", t.XoffScope, "allowed: children (Xoff stops the upstream SAQs for the point, the paper's text), feeders (every queue feeding the SAQ: bounds it)")
		ok = false
	}
	if t.IdleCycles < 0 {
		add("idle_cycles", t.IdleCycles, "allowed: 0 (never free an idle SAQ, as the paper) or >= 1 cycles")
		ok = false
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"detect_fraction", t.DetectFraction}, {"xoff_fraction", t.XoffFraction}, {"xon_fraction", t.XonFraction}} {
		if !(f.v >= 0 && f.v <= 1) {
			add(f.key, f.v, "allowed: a share of the port memory, 0..1")
			ok = false
		}
	}
	return ok
}

// InFlits is t for port memories of memFlits flits: each threshold its
// share of the memory, rounded down to whole flits.
func (t Table) InFlits(memFlits int) Config {
	flits := func(f float64) int32 { return int32(f * float64(memFlits)) }
	scope, _ := ParseScope(t.XoffScope)
	return Config{SAQs: t.SAQs, DetectFlits: flits(t.DetectFraction), XoffFlits: flits(t.XoffFraction),
		XonFlits: flits(t.XonFraction), IdleCycles: t.IdleCycles, Scope: scope}
}

// KeyDocs documents t's keys for the commented default configuration.
func (t Table) KeyDocs() []keys.Doc {
	return []keys.Doc{
		{Key: "saqs", Value: fmt.Sprint(t.SAQs), Doc: "SAQs per port memory (the paper's 8); a notification finding all in use is refused and counted"},
		{Key: "detect_fraction", Value: fmt.Sprint(t.DetectFraction), Doc: "a detection, standard or SAQ queue this full is congested (notifies upstream)"},
		{Key: "xoff_fraction", Value: fmt.Sprint(t.XoffFraction), Doc: "a SAQ this full sends Xoff upstream (>= detect_fraction; the paper's 1%)"},
		{Key: "xon_fraction", Value: fmt.Sprint(t.XonFraction), Doc: "and Xon once down to this (below xoff_fraction)"},
		{Key: "idle_cycles", Value: fmt.Sprint(t.IdleCycles), Doc: "an empty leaf SAQ with no arrival for this long is freed; 0: never (the paper frees a SAQ only when it empties)"},
		{Key: "control_lanes", Value: fmt.Sprintf("%q", t.ControlLanes), Doc: "shared (control packets take link cycles between data packets) or dedicated"},
		{Key: "xoff_scope", Value: fmt.Sprintf("%q", t.XoffScope), Doc: "what a full SAQ's Xoff stops: children (the upstream SAQs for its point, the paper's text; bounds no SAQ) or feeders (every queue feeding it: each SAQ holds at most xoff + what is in flight)"},
	}
}
