package routing

import (
	"fmt"

	"github.com/icnsim/icnsim/topology"
)

// NonMinimalTopology is the capability of a topology family with Valiant,
// UGAL and PAR routings (dragonflies, HyperX): the registry entries are
// shared (NonMinimalSpecs), and each family builds its own function of
// each mode.
type NonMinimalTopology interface {
	topology.Topology
	// NonMinimal is the family's routing function of mode m with vcs VCs.
	NonMinimal(m NonMinMode, vcs int) Func
	// NonMinimalClasses is the number of VC classes mode m needs.
	NonMinimalClasses(m NonMinMode) int
	// NonMinimalSecondsPerPortPair is the time to check and build a
	// network of mode m per router port and port of the largest router
	// (Spec.BuildSeconds).
	NonMinimalSecondsPerPortPair(m NonMinMode) float64
}

// NonMinimalFamily is a family that offers non-minimal routings: its
// topology kind and the modes it offers.
type NonMinimalFamily struct {
	Kind  string
	Modes []NonMinMode
}

// nonMinimalDocs are the modes' documentation, for every family.
func nonMinimalDocs() [6]string {
	return [6]string{
		"minimal: on a dragonfly local, global, local hops (VC class = global hops taken, 2 classes); on a Dragonfly+ up, global, down (1 class); on a HyperX dimension order, any trunk (1 class); on a Slim Fly 1 or 2 hops (VC class = hops taken, 2 classes)",
		"Valiant: to an intermediate drawn per packet (a group of a dragonfly, a leaf of a Dragonfly+ group, a router of a HyperX or Slim Fly), minimally, then minimally to the destination; dragonfly and Dragonfly+ 3 VC classes (global hops taken), HyperX 2 (before and after the intermediate), Slim Fly 4 (hops taken)",
		"UGAL-L: at the source router, minimal when q_min*H_min <= q_val*H_val + threshold, else Valiant; q is the occupancy of the first hop's output port (credits), H the path's hops; Valiant's VC classes",
		"UGAL-G (dragonfly): UGAL with global queue estimates, the occupancy of the global link each path takes out of the source group (as its router published it one cycle earlier); Valiant's VC classes",
		"PAR (progressive adaptive routing, dragonfly): UGAL-L at the source router, and a packet sent minimally decides again, by the same rule, at the next router of its source group; 4 VC classes (the second local hop of a re-routed packet has its own)",
		"UGAL-L as BookSim2's dragonflynew has it (ugal_dragonflynew, for cross-checks): at the source router, an intermediate node drawn uniformly (minimal when it lies in the source group), minimal when q_min <= 2*q_nonmin + 30 with q the used credits of each path's first output port over every VC; Valiant's path goes to the intermediate node's router; VCs by BookSim2's phases: 0 up to the intermediate router, 1 after it (and on a minimal path's first local hop), 2 from the next global hop on and within the source group. Its phase-0 VCs carry the hop into a group and the hop out of it, a channel-dependency cycle: it runs only with allow_deadlock = true (the check prints the cycle)",
	}
}

// NonMinimalSpecs are the registry entries of min, val, ugal-l, ugal-g and
// par on the families that offer them: each entry is defined on the
// families offering its mode, and builds the topology's own function
// (NonMinimalTopology). MinVCs is the most classes a mode needs on any
// family (MinVCsOn gives the topology's).
func NonMinimalSpecs(families ...NonMinimalFamily) []Spec {
	var specs []Spec
	for m := ModeMin; m <= ModeUGALLBookSim; m++ {
		mode := m
		spec := Spec{Name: m.String(), Doc: nonMinimalDocs()[m]}
		for _, f := range families {
			for _, fm := range f.Modes {
				if fm == m {
					spec.Topologies = append(spec.Topologies, f.Kind)
				}
			}
		}
		if spec.Topologies == nil {
			continue
		}
		classes := func(t topology.Topology) int { return t.(NonMinimalTopology).NonMinimalClasses(mode) }
		spec.MinVCs = [...]int{2, 4, 4, 3, 4, 3}[m] // the most of any family (a Slim Fly's Valiant and UGAL-L, a dragonfly's UGAL-G and PAR)
		spec.MinVCsOn = classes
		if m > ModeMin {
			spec.ClassVCs = func(t topology.Topology, vcs int) error {
				// A packet reads its class from its VC: with fewer VCs two
				// classes share one, and a packet past its intermediate
				// reads as one before it and is sent back to it, a livelock
				// (Valiant on a 72-node dragonfly with 2 VCs delivered 13 of
				// 72 packets in 3,000 cycles, its flits hopping all the
				// while).
				if need := classes(t); vcs < need {
					return fmt.Errorf("routing %q needs at least %d VCs on a %s, one per VC class, even with allow_deadlock: a packet's class is its VC's, and with fewer a packet that passed its intermediate is sent to it again (got %d)", mode, need, t.Kind(), vcs)
				}
				return nil
			}
		}
		if m >= ModeUGALL && m != ModeUGALLBookSim { // BookSim2's threshold is its own constant
			spec.Params = []Param{{Key: "ugal_threshold_flits", MinInt: 0, MaxInt: 1 << 20,
				Doc: "UGAL's threshold T in flits: minimal when q_min*H_min <= q_nonmin*H_nonmin + T"}}
		}
		spec.BuildSeconds = func(t topology.Topology, vcs int) float64 {
			return SecondsPerPortPair(t.(NonMinimalTopology).NonMinimalSecondsPerPortPair(mode))(t, vcs)
		}
		spec.New = func(t topology.Topology, vcs int) Func { return t.(NonMinimalTopology).NonMinimal(mode, vcs) }
		specs = append(specs, spec)
	}
	return specs
}
