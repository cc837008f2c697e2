package vc

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/icnsim/icnsim/routing"
)

// Selection is the selection function: which output VC, among those the
// routing function offers, a routed head asks for.
//
// The default (SelectFreeMostCredits) asks for a free output VC that has
// room for the head (the whole packet under virtual cut-through, a flit
// under wormhole), the one with the most credits, ties by rotation, in the
// first candidate level that has one; a head that finds none waits until
// a VC of its ports is freed or a free one receives a credit.
//
// SelectLeastOccupied is FSIN's rule (the simulator of the fat-tree
// fairness paper, papers/001; INSEE's fattree.c, check_rr_fattree_adaptive
// with min_queue_occupation): the head picks, among all the VCs offered,
// the one whose downstream buffer holds the fewest flits (the most
// credits), whether or not it is free or has room now, and waits for it
// when it is held by another packet or short of room; the choice is made
// again every cycle until the head is granted. It does not spread heads
// greedily over whatever port is free this cycle, so a queue that is
// already fuller is not fed while an emptier one is busy for a packet's
// time. Ties go by rotation unless SelectionTies says otherwise (FSIN
// breaks them at random; see TiesFSIN). Under transpose
// on the 256-node 4-ary 4-tree it raises the throughput that SAT l32k32
// can reach to the paper's (k x 16 flits per idle interval: the nodes
// never hold the signal) where the default rule leaves the interval
// stretched by 22% (see the study README). It needs routing functions
// whose candidates form one level of preference: those with an escape
// level after the adaptive one (duato, hybrid-har, har-dor) would wait on
// an adaptive VC with the escape free, so they are refused.
type Selection uint8

const (
	// SelectFreeMostCredits: a free VC with room, most credits (default).
	SelectFreeMostCredits Selection = iota
	// SelectLeastOccupied: the least occupied VC, waited for (FSIN).
	SelectLeastOccupied
)

func selectionNames() []string {
	return []string{"free-most-credits", "least-occupied"}
}

// SelectionNames lists the selection functions in a fixed order.
func SelectionNames() []string { return selectionNames() }

// ParseSelection reads a selection function by name; "" is the default.
func ParseSelection(s string) (Selection, error) {
	return routing.ParseChoice[Selection](selectionNames(), s, "selection", true)
}

func (s Selection) String() string { return routing.ChoiceName(selectionNames(), s, "selection") }

// SelectionTies is how SelectLeastOccupied breaks a tie between VCs
// equally occupied downstream.
//
// TiesRotation (the default) takes the first tied VC at or after a
// pointer that advances by one every time the router selects. TiesRandom
// draws one of the tied VCs uniformly. TiesFSIN is FSIN's draw
// (min_queue_occupation in INSEE's fattree.c): it lists the tied ports in
// port order, the first of the least occupied listed twice (it is added
// when the new minimum is found and again by the equality test that
// follows), and takes entry rand() % n; when every queue is full, the
// minimum is never lowered and each port is listed once (a case that
// cannot grant a VC either way: none has room). FSIN has one VC per port
// in the paper's networks; with several, icnsim lists the candidates' VCs
// in candidate order (group, port, VC) and doubles the first.
//
// Which one decides figures: on the 1,024-node 4-ary 5-tree under
// transpose without SAT, at the fairness paper's length (5 batches of
// 10 N^2 packets), rotation gives 0.413 / 0.301 / 0.766 flits/node/cycle
// (avg / min / max), FSIN's draw 0.443 / 0.359 / 0.686 (the paper: 0.446
// / 0.362 / 0.702); at 256 nodes the rules differ by at most 0.006
// (studies/README.md).
//
// The random draws come from a PCG stream of the router's own, seeded by
// Config.SelectionSeed and the router id, and a router draws only in its
// own Tick, so results stay a function of the seed under every executor.
type SelectionTies uint8

const (
	// TiesRotation: the first tied VC at or after a rotating pointer.
	TiesRotation SelectionTies = iota
	// TiesRandom: a tied VC drawn uniformly.
	TiesRandom
	// TiesFSIN: FSIN's draw, the first least occupied port weighted twice.
	TiesFSIN
)

func selectionTiesNames() []string {
	return []string{"rotation", "random", "fsin"}
}

// SelectionTiesNames lists the tie-breaking rules in a fixed order.
func SelectionTiesNames() []string { return selectionTiesNames() }

// ParseSelectionTies reads a tie-breaking rule by name; "" is the default.
func ParseSelectionTies(s string) (SelectionTies, error) {
	return routing.ParseChoice[SelectionTies](selectionTiesNames(), s, "selection ties", true)
}

func (t SelectionTies) String() string { return routing.ChoiceName(selectionTiesNames(), t, "ties") }

// checkSelection reports a selection function the routing cannot use.
func checkSelection(sel Selection, ties SelectionTies, rs routing.Spec) error {
	if ties > TiesFSIN {
		return fmt.Errorf("unknown selection ties %d (allowed: rotation, random, fsin)", ties)
	}
	if ties != TiesRotation && sel != SelectLeastOccupied {
		return fmt.Errorf("selection ties %q break ties of least-occupied only (selection is %q)", ties, sel)
	}
	if sel > SelectLeastOccupied {
		return fmt.Errorf("unknown selection %d (allowed: free-most-credits, least-occupied)", sel)
	}
	if sel == SelectLeastOccupied && rs.EscapeLevel {
		return fmt.Errorf("selection \"least-occupied\" waits for the least occupied VC offered; routing %q offers an escape level after its adaptive one, which the head must be free to take (use free-most-credits)", rs.Name)
	}
	return nil
}

// selectLeastOccupied is selectVC under SelectLeastOccupied: among every
// VC of the candidates' first level, the one with the most credits (ties
// as r.sh.ties says), returned only if it is free and has need credits; -1
// otherwise (the head waits, and chooses again next cycle).
func (r *Router) selectLeastOccupied(s *routing.Candidates, need int32) (best int32, bestPort, bestV uint8) {
	if r.sh.ties != TiesRotation {
		return r.selectLeastOccupiedDrawn(s, need)
	}
	V := int(r.vcs)
	best, bestCred := int32(-1), int32(-1)
	bestRank := uint32(0)
	for g := 0; g < int(s.N) && s.Level[g] == s.Level[0]; g++ {
		for pm := s.G[g].Ports; pm != 0; pm &= pm - 1 {
			p := bits.TrailingZeros64(pm)
			for vm := s.G[g].VCs; vm != 0; vm &= vm - 1 {
				v := bits.TrailingZeros64(vm)
				o := int32(p*V + v)
				c := int32(r.outs[o].credits)
				rank := uint32(o) - r.selRR
				if uint32(o) < r.selRR {
					rank += uint32(len(r.outs))
				}
				if c > bestCred || (c == bestCred && rank < bestRank) {
					best, bestCred, bestRank = o, c, rank
					bestPort, bestV = uint8(p), uint8(v)
				}
			}
		}
	}
	if best < 0 {
		return -1, 0, 0
	}
	if r.selRR++; r.selRR == uint32(len(r.outs)) {
		r.selRR = 0
	}
	return r.grantLeastOccupied(best, bestCred, bestPort, bestV, need)
}

// grantLeastOccupied returns the chosen VC if a head needing need credits
// may take it now (free, with room, and empty if its allocation is
// atomic), or -1: the head waits for it and chooses again next cycle.
func (r *Router) grantLeastOccupied(best, credits int32, port, v uint8, need int32) (int32, uint8, uint8) {
	atomic := r.sh.atomicAt != nil && r.sh.atomicAt[port]>>(v&63)&1 != 0
	if r.outs[best].owner >= 0 || credits < need || (atomic && credits != r.sh.depth) {
		return -1, 0, 0
	}
	return best, port, v
}

// selectLeastOccupiedDrawn is selectLeastOccupied with a tie broken by a
// draw from the router's own stream (TiesRandom, TiesFSIN): a first pass
// finds the most credits and counts the VCs that have them, one draw
// picks an entry of that list, a second pass walks to it.
func (r *Router) selectLeastOccupiedDrawn(s *routing.Candidates, need int32) (best int32, bestPort, bestV uint8) {
	V := int(r.vcs)
	bestCred, ties := int32(-1), uint64(0)
	for g := 0; g < int(s.N) && s.Level[g] == s.Level[0]; g++ {
		for pm := s.G[g].Ports; pm != 0; pm &= pm - 1 {
			p := bits.TrailingZeros64(pm)
			for vm := s.G[g].VCs; vm != 0; vm &= vm - 1 {
				c := int32(r.outs[p*V+bits.TrailingZeros64(vm)].credits)
				if c > bestCred {
					bestCred, ties = c, 1
				} else if c == bestCred {
					ties++
				}
			}
		}
	}
	if ties == 0 {
		return -1, 0, 0
	}
	// FSIN lists its first least occupied port twice unless every queue
	// is full (no credits): entry 0 and entry 1 both name it.
	double := r.sh.ties == TiesFSIN && bestCred > 0
	n := ties
	if double {
		n++
	}
	pick := r.sh.tieRand[r.id].Uint64() % n
	if double && pick > 0 {
		pick--
	}
walk:
	for g := 0; g < int(s.N) && s.Level[g] == s.Level[0]; g++ {
		for pm := s.G[g].Ports; pm != 0; pm &= pm - 1 {
			p := bits.TrailingZeros64(pm)
			for vm := s.G[g].VCs; vm != 0; vm &= vm - 1 {
				v := bits.TrailingZeros64(vm)
				o := int32(p*V + v)
				if int32(r.outs[o].credits) != bestCred {
					continue
				}
				if pick == 0 {
					best, bestPort, bestV = o, uint8(p), uint8(v)
					break walk
				}
				pick--
			}
		}
	}
	return r.grantLeastOccupied(best, bestCred, bestPort, bestV, need)
}

// newTieStreams returns one PCG stream per router for drawn tie-breaks.
func newTieStreams(routers int, seed uint64) []rand.PCG {
	st := make([]rand.PCG, routers)
	for i := range st {
		st[i] = *rand.NewPCG(seed, uint64(i)^0x7e1e_b4ea_c0de_5eed)
	}
	return st
}
