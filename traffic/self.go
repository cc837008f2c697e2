package traffic

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// SelfMode says what a node does with a packet whose destination is
// itself: a permutation's fixed points (a node that transpose, butterfly,
// bit-reverse, shuffle... maps onto itself), or a random pattern drawing
// the source. Papers differ here and rarely say: BookSim2 and Dally &
// Towles let uniform traffic pick the source (loopback); the Hybrid-HAR
// paper's nodes send "to all other nodes"; FSIN, the simulator of the
// fat-tree fairness paper, generates nothing for a node that a permutation
// maps onto itself. Which one a study uses changes its per-node minimum,
// maximum and average (a fixed point sending to itself at 1 flit/cycle is
// the transpose's maximum), so the shipped reproductions state it.
type SelfMode uint8

const (
	// SelfLoopback sends the packet through the source's own router and
	// back to it (the default, and icnsim's behaviour before the choice
	// existed): it counts as injected, accepted and offered load.
	SelfLoopback SelfMode = iota
	// SelfSkip: a node never sends to itself. A permutation's fixed points
	// generate nothing and are left out of the per-node statistics and of
	// the per-node averages (offered, injected and accepted throughput are
	// per sending node); a random pattern draws again until it picks
	// another node.
	SelfSkip
	// SelfRedraw replaces a destination equal to the source by a
	// uniformly random other node: a permutation's fixed points send
	// uniform random traffic, and uniform traffic never picks the source.
	SelfRedraw
)

func selfNames() []string {
	return []string{"loopback", "skip", "redraw"}
}

func selfDocs() map[string]string {
	return map[string]string{
		"loopback": "a packet to its own source goes through the source's router and back (default; BookSim2's uniform)",
		"skip":     "a node never sends to itself: a permutation's fixed points send nothing and are left out of per-node statistics and averages; random patterns draw again (FSIN)",
		"redraw":   "a destination equal to the source is replaced by a uniformly random other node (fixed points send uniform traffic)",
	}
}

// SelfModeNames lists the self-traffic choices in a fixed order.
func SelfModeNames() []string { return slices.Clone(selfNames()) }

// SelfModeDoc describes a self-traffic choice.
func SelfModeDoc(name string) string { return selfDocs()[name] }

// ParseSelfMode reads a self-traffic choice by name; "" is the default.
func ParseSelfMode(s string) (SelfMode, error) {
	if s == "" {
		return SelfLoopback, nil
	}
	if i := slices.Index(selfNames(), s); i >= 0 {
		return SelfMode(i), nil
	}
	return 0, fmt.Errorf("unknown self-traffic choice %q (allowed: %s)", s, strings.Join(selfNames(), ", "))
}

func (m SelfMode) String() string {
	if int(m) < len(selfNames()) {
		return selfNames()[m]
	}
	return fmt.Sprintf("self(%d)", uint8(m))
}

// maxRedraws bounds the draws of a random pattern under SelfSkip before it
// falls back to a uniformly random other node (a pattern that almost
// always picks the source, such as a hot spot's own node under hotspot
// with hotspot_fraction = 1).
const maxRedraws = 64

// otherNode is a uniformly random node other than src, of n >= 2.
func otherNode(src, n int, rng *rand.Rand) int {
	d := rng.IntN(n - 1)
	if d >= src {
		d++
	}
	return d
}

// FixedPoints reports, for a permutation pattern, which nodes it maps onto
// themselves (nil for a pattern that is not a permutation). Permutations
// draw nothing from a node's stream, so this is exact.
func FixedPoints(name string, g Geometry, p PatternParams) ([]bool, error) {
	spec, ok := Patterns()[name]
	if !ok || !spec.Permutes {
		return nil, nil
	}
	pat, err := NewPattern(name, g, p)
	if err != nil {
		return nil, err
	}
	fixed := make([]bool, g.Nodes)
	for s := range fixed {
		fixed[s] = pat.Dest(s, nil) == s
	}
	return fixed, nil
}

// Silent reports the nodes that configuration c, on geometry g with the
// given seed (random-pair draws its permutation from it), never lets send:
// under SelfSkip, the fixed points of its pattern (and, with a phase
// change, those that are fixed points of both patterns, so that a node
// sending in either phase counts). nil when every node sends.
func Silent(c Config, g Geometry, seed uint64) ([]bool, error) {
	if c.Self != SelfSkip {
		return nil, nil
	}
	pp := c.PatternParams
	pp.Seed = seed
	silent, err := FixedPoints(c.Pattern, g, pp)
	if err != nil || silent == nil {
		return nil, err
	}
	if c.PhaseCycle > 0 {
		phase, err := FixedPoints(c.PhasePattern, g, pp)
		if err != nil {
			return nil, err
		}
		if phase == nil {
			return nil, nil
		}
		for i := range silent {
			silent[i] = silent[i] && phase[i]
		}
	}
	if !slices.Contains(silent, true) {
		return nil, nil
	}
	return silent, nil
}
