package vc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/internal/keys"
	"github.com/icnsim/icnsim/internal/suggest"
	"github.com/icnsim/icnsim/router/alloc"
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
	// Arbitration orders every arbiter's requests: round-robin (the
	// default), oldest-first or class-priority (alloc.ParseArbitration).
	Arbitration string `toml:"arbitration"`
	// SwitchAllocator matches input ports to output ports:
	// separable-input-first (the default), separable-output-first, islip
	// or wavefront (alloc.ParseAllocator); ISLIPIterations is iSLIP's
	// rounds.
	SwitchAllocator string `toml:"switch_allocator"`
	ISLIPIterations int    `toml:"islip_iterations"`
	// The pipeline's stages after the routing delay (Config): the VC
	// allocation stage's cycles (0: switch allocation in the same cycle),
	// the switch allocation's (1: traversal in its cycle) and the
	// crossbar's (0: none of its own).
	VCAllocationCycles     int `toml:"vc_allocation_cycles"`
	SwitchAllocationCycles int `toml:"switch_allocation_cycles"`
	CrossbarCycles         int `toml:"crossbar_cycles"`
	// The traffic classes' options (traffic.class_volume_percent):
	// ClassVCs partitions the VCs between the classes (one count per
	// class, summing to vcs; empty: the classes share every VC);
	// ClassShare is how every arbiter and network interface divides
	// itself between them: none (the default: classes not told apart),
	// priority (the first class first) or weighted (by ClassWeights, one
	// weight per class; alloc.ParseShare).
	ClassVCs     keys.List[int] `toml:"class_vcs"`
	ClassShare   string         `toml:"class_share"`
	ClassWeights keys.List[int] `toml:"class_weights"`
}

// MaxVCs is the most virtual channels per port a Table allows.
const MaxVCs = 64

// MaxBufferFlits is the deepest buffer per VC a Table allows.
const MaxBufferFlits = 32768

// DefaultTable is the built-in scenario's VC router: three VCs of 16
// flits, virtual cut-through, free-most-credits, no speedup, round-robin
// separable input-first allocation, allocation and traversal in a cycle.
func DefaultTable() Table {
	return Table{VCs: 3, BufferFlits: 16, Switching: "vct", Selection: "free-most-credits", SelectionTies: "rotation", InternalSpeedup: 1,
		Arbitration: "round-robin", SwitchAllocator: "separable-input-first", ISLIPIterations: 1, SwitchAllocationCycles: 1,
		ClassShare: "none"}
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
			Allowed: fmt.Sprintf("allowed: 1..%d switch allocation rounds per cycle (1: the input-queued router; more adds output queues)", MaxInternalSpeedup)},
		keys.IntRange{Key: "islip_iterations", Value: t.ISLIPIterations, Lo: 1, Hi: alloc.MaxISLIPIterations,
			Allowed: fmt.Sprintf("allowed: 1..%d rounds of iSLIP per allocation", alloc.MaxISLIPIterations)},
		keys.IntRange{Key: "vc_allocation_cycles", Value: t.VCAllocationCycles, Lo: 0, Hi: MaxStageCycles,
			Allowed: fmt.Sprintf("allowed: 0..%d cycles (0: a head granted an output VC may cross the switch in the same cycle)", MaxStageCycles)},
		keys.IntRange{Key: "switch_allocation_cycles", Value: t.SwitchAllocationCycles, Lo: 1, Hi: MaxStageCycles,
			Allowed: fmt.Sprintf("allowed: 1..%d cycles (1: a flit crosses in the cycle it wins the switch)", MaxStageCycles)},
		keys.IntRange{Key: "crossbar_cycles", Value: t.CrossbarCycles, Lo: 0, Hi: MaxStageCycles,
			Allowed: fmt.Sprintf("allowed: 0..%d cycles (0: traversal within the switch allocation's last cycle)", MaxStageCycles)})
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
	arb, arbErr := alloc.ParseArbitration(t.Arbitration)
	if arbErr != nil {
		add("arbitration", t.Arbitration, "allowed: "+strings.Join(alloc.ArbitrationNames(), ", ")+" (round-robin; oldest-first: the packet injected first; class-priority: the higher message class first; ties round robin)"+suggest.DidYouMean(t.Arbitration, alloc.ArbitrationNames()))
		ok = false
	}
	sa, saErr := alloc.ParseAllocator(t.SwitchAllocator)
	if saErr != nil {
		add("switch_allocator", t.SwitchAllocator, "allowed: "+strings.Join(alloc.AllocatorNames(), ", ")+suggest.DidYouMean(t.SwitchAllocator, alloc.AllocatorNames()))
		ok = false
	} else if sa != alloc.ISLIP && t.ISLIPIterations > 1 && t.ISLIPIterations <= alloc.MaxISLIPIterations {
		add("islip_iterations", t.ISLIPIterations, fmt.Sprintf("applies to switch_allocator = \"islip\" only (switch_allocator is %q): set switch_allocator = \"islip\" or leave islip_iterations at 1", sa))
		ok = false
	}
	if t.InternalSpeedup > 1 && t.InternalSpeedup <= MaxInternalSpeedup {
		if saErr == nil && sa != alloc.SeparableInputFirst {
			add("switch_allocator", t.SwitchAllocator, fmt.Sprintf("internal_speedup = %d runs rounds of separable input-first allocation: use switch_allocator = \"separable-input-first\" or internal_speedup = 1", t.InternalSpeedup))
			ok = false
		}
		if arbErr == nil && arb != alloc.RoundRobin {
			add("arbitration", t.Arbitration, fmt.Sprintf("internal_speedup = %d arbitrates round robin: use arbitration = \"round-robin\" or internal_speedup = 1", t.InternalSpeedup))
			ok = false
		}
	}
	share, shareErr := alloc.ParseShare(t.ClassShare)
	if shareErr != nil {
		add("class_share", t.ClassShare, "allowed: "+strings.Join(alloc.ShareNames(), ", ")+" (between traffic classes: none; priority, the first class first; weighted, by class_weights)"+suggest.DidYouMean(t.ClassShare, alloc.ShareNames()))
		ok = false
	}
	if slices.ContainsFunc(t.ClassVCs.Values(), func(v int) bool { return v < 1 }) {
		add("class_vcs", t.ClassVCs, "allowed: at least 1 VC per traffic class (or an empty list: the classes share every VC)")
		ok = false
	} else if sum := sumOf(t.ClassVCs.Values()); t.ClassVCs.Len() > 0 && sum != t.VCs {
		add("class_vcs", t.ClassVCs, fmt.Sprintf("sums to %d VCs; allowed: a partition of vcs = %d (one count per traffic class)", sum, t.VCs))
		ok = false
	}
	if slices.ContainsFunc(t.ClassWeights.Values(), func(w int) bool { return w < 1 || w > alloc.MaxShareWeight }) {
		add("class_weights", t.ClassWeights, fmt.Sprintf("allowed: weights 1..%d, one per traffic class", alloc.MaxShareWeight))
		ok = false
	} else if shareErr == nil && share != alloc.ShareWeighted && t.ClassWeights.Len() > 0 {
		add("class_weights", t.ClassWeights, fmt.Sprintf("weighs the classes under class_share = \"weighted\" only (class_share is %q): set it, or leave class_weights empty", share))
		ok = false
	}
	if shareErr == nil && share == alloc.ShareWeighted {
		switch {
		case saErr == nil && sa != alloc.SeparableInputFirst:
			add("class_share", t.ClassShare, fmt.Sprintf("the weighted share runs on separable input-first arbiters: switch_allocator %q needs class_share \"none\" or \"priority\"", sa))
			ok = false
		case arbErr == nil && arb != alloc.RoundRobin:
			add("class_share", t.ClassShare, fmt.Sprintf("the weighted share picks a class, then round robin within it: arbitration %q needs class_share \"none\" or \"priority\"", arb))
			ok = false
		}
	}
	if shareErr == nil && share == alloc.SharePriority {
		switch {
		case saErr == nil && !sa.Keyed():
			add("class_share", t.ClassShare, fmt.Sprintf("the priority share orders the separable allocators' arbiters; switch_allocator %q matches ports by its own rule", sa))
			ok = false
		case arbErr == nil && arb == alloc.ClassPriority:
			add("class_share", t.ClassShare, "arbitration \"class-priority\" orders by message class already (the higher first): use one of the two")
			ok = false
		}
	}
	if shareErr == nil && share != alloc.ShareNone && t.InternalSpeedup > 1 && t.InternalSpeedup <= MaxInternalSpeedup {
		add("class_share", t.ClassShare, fmt.Sprintf("internal_speedup = %d arbitrates round robin: use class_share = \"none\" or internal_speedup = 1", t.InternalSpeedup))
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
		{Key: "arbitration", Value: fmt.Sprintf("%q", t.Arbitration), Doc: "how every arbiter (VC and switch allocation) orders requests: round-robin, oldest-first (the packet that left its source first) or class-priority (the higher message class first); ties round robin"},
		{Key: "switch_allocator", Value: fmt.Sprintf("%q", t.SwitchAllocator), Doc: "separable-input-first, separable-output-first, islip or wavefront (the last two match ports by their own rules; arbitration then picks the VC)"},
		{Key: "islip_iterations", Value: fmt.Sprint(t.ISLIPIterations), Doc: fmt.Sprintf("rounds of iSLIP per allocation, 1..%d (switch_allocator = \"islip\")", alloc.MaxISLIPIterations)},
		{Key: "vc_allocation_cycles", Value: fmt.Sprint(t.VCAllocationCycles), Doc: "cycles from a head's VC grant to its first switch allocation (0: the same cycle)"},
		{Key: "switch_allocation_cycles", Value: fmt.Sprint(t.SwitchAllocationCycles), Doc: "cycles of the pipelined switch allocation (1: a flit crosses in the cycle it wins)"},
		{Key: "crossbar_cycles", Value: fmt.Sprint(t.CrossbarCycles), Doc: "cycles of switch traversal after allocation (0: none of its own); a router adds routing_delay_cycles + vc_allocation_cycles + switch_allocation_cycles - 1 + crossbar_cycles per hop"},
		{Key: "class_vcs", Value: t.ClassVCs.String(), Doc: "traffic classes (traffic.class_volume_percent): VCs of each class's own, summing to vcs, each routed by the routing with its VCs; [] shares every VC"},
		{Key: "class_share", Value: fmt.Sprintf("%q", t.ClassShare), Doc: "how arbiters and network interfaces divide between traffic classes: none, priority (the first class first) or weighted (class_weights)"},
		{Key: "class_weights", Value: t.ClassWeights.String(), Doc: fmt.Sprintf("weights of the traffic classes under class_share = \"weighted\", 1..%d each: each arbiter serves the classes asking it in proportion", alloc.MaxShareWeight)},
	}
}

// sumOf is the sum of vs.
func sumOf(vs []int) int {
	s := 0
	for _, v := range vs {
		s += v
	}
	return s
}
