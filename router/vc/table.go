package vc

import (
	"fmt"
	"strings"

	"github.com/icnsim/icnsim/internal/keys"
	"github.com/icnsim/icnsim/internal/suggest"
)

// Table is the VC router's configuration table, [router.vc] of a
// configuration with router.kind = "vc": its virtual channels and
// buffers, its switching, its selection function and its internal
// speedup. The keys every router kind reads (routing, latencies) are the
// [router] table's; Config is the router's whole view.
type Table struct {
	// VCs is the virtual channels per port, at least the routing's
	// minimum, at most MaxVCs.
	VCs int `toml:"vcs"`
	// BufferFlits is the buffer depth per VC, flits.
	BufferFlits int `toml:"buffer_flits"`
	// Switching is vct or wormhole (ParseSwitching).
	Switching string `toml:"switching"`
	// Selection is the selection function: free-most-credits (a free VC
	// with room, most credits) or least-occupied (FSIN's: the least
	// occupied VC offered, waited for; ParseSelection).
	Selection string `toml:"selection"`
	// SelectionTies is how least-occupied breaks a tie: rotation (the
	// default), random, or fsin (FSIN's draw; ParseSelectionTies).
	SelectionTies string `toml:"selection_ties"`
	// InternalSpeedup is the switch allocation rounds per cycle: 1, the
	// input-queued router; 2..MaxInternalSpeedup add output queues
	// (BookSim2's internal_speedup).
	InternalSpeedup int `toml:"internal_speedup"`
}

// MaxVCs is the most virtual channels per port a Table allows.
const MaxVCs = 64

// MaxBufferFlits is the deepest buffer per VC a Table allows.
const MaxBufferFlits = 32768

// DefaultTable is the built-in scenario's VC router: three VCs of 16
// flits, virtual cut-through, free-most-credits, no speedup.
func DefaultTable() Table {
	return Table{VCs: 3, BufferFlits: 16, Switching: "vct", Selection: "free-most-credits", SelectionTies: "rotation", InternalSpeedup: 1}
}

// Check adds each key of t whose value is out of its range or not a name
// the router knows (keys relative to the table), and a selection_ties
// that breaks no tie of the selection; it reports whether t is valid.
// What depends on other tables (the routing's minimum VCs, a whole packet
// per buffer under vct) is checked by the configuration that holds them.
func (t Table) Check(add keys.Add) bool {
	ok := keys.CheckRanges(add,
		keys.IntRange{Key: "vcs", Value: t.VCs, Lo: 1, Hi: MaxVCs, Allowed: fmt.Sprintf("allowed: 1..%d", MaxVCs)},
		keys.IntRange{Key: "buffer_flits", Value: t.BufferFlits, Lo: 1, Hi: MaxBufferFlits, Allowed: fmt.Sprintf("allowed: 1..%d flits per VC", MaxBufferFlits)},
		keys.IntRange{Key: "internal_speedup", Value: t.InternalSpeedup, Lo: 1, Hi: MaxInternalSpeedup,
			Allowed: fmt.Sprintf("allowed: 1..%d switch allocation rounds per cycle (1: the input-queued router; more adds output queues)", MaxInternalSpeedup)})
	sel, selErr := ParseSelection(t.Selection)
	if selErr != nil {
		add("selection", t.Selection, "allowed: "+strings.Join(SelectionNames(), ", ")+" (free-most-credits: a free VC with room, most credits; least-occupied: FSIN's, the least occupied VC offered, waited for)"+suggest.DidYouMean(t.Selection, SelectionNames()))
		ok = false
	}
	if ties, err := ParseSelectionTies(t.SelectionTies); err != nil {
		add("selection_ties", t.SelectionTies, "allowed: "+strings.Join(SelectionTiesNames(), ", ")+" (how least-occupied breaks a tie: a rotating pointer, a uniform draw, or FSIN's draw)"+suggest.DidYouMean(t.SelectionTies, SelectionTiesNames()))
		ok = false
	} else if selErr == nil && sel != SelectLeastOccupied && ties != TiesRotation {
		add("selection_ties", t.SelectionTies, fmt.Sprintf("breaks ties of selection = \"least-occupied\" only (selection is %q, which ties by rotation): set selection = \"least-occupied\" or leave selection_ties at \"rotation\"", sel))
		ok = false
	}
	if _, err := ParseSwitching(t.Switching); err != nil {
		add("switching", t.Switching, "allowed: vct, wormhole"+suggest.DidYouMean(t.Switching, []string{"vct", "wormhole"}))
		ok = false
	}
	return ok
}

// KeyDocs documents t's keys for the commented default configuration.
func (t Table) KeyDocs() []keys.Doc {
	return []keys.Doc{
		{Key: "vcs", Value: fmt.Sprint(t.VCs), Doc: fmt.Sprintf("virtual channels per port, at least the routing function's minimum, at most %d", MaxVCs)},
		{Key: "buffer_flits", Value: fmt.Sprint(t.BufferFlits), Doc: "buffer depth per VC, flits"},
		{Key: "switching", Value: fmt.Sprintf("%q", t.Switching), Doc: "vct (virtual cut-through: a head advances only if the whole packet fits) or wormhole"},
		{Key: "selection", Value: fmt.Sprintf("%q", t.Selection), Doc: "which offered output VC a head asks for: free-most-credits (a free VC with room, most credits, ties rotate) or least-occupied (FSIN's: the least occupied VC offered, waited for if busy; not with duato, hybrid-har, har-dor)"},
		{Key: "selection_ties", Value: fmt.Sprintf("%q", t.SelectionTies), Doc: "how least-occupied breaks a tie: rotation (a rotating pointer), random (a uniform draw) or fsin (FSIN's draw: the first least occupied port weighted twice)"},
		{Key: "internal_speedup", Value: fmt.Sprint(t.InternalSpeedup), Doc: fmt.Sprintf("switch allocation rounds per cycle, 1..%d; above 1 the router has output queues (BookSim2's internal_speedup)", MaxInternalSpeedup)},
	}
}
