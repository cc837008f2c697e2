package entropy

import "math"

// ThresholdBox is the set of threshold values that would have taken every
// throttled-mode decision a run's gates took, each exactly as it was taken.
//
// A gate's thresholds enter a run only through the comparisons of Next:
// 100·N_v < R_n·N_r (forced release), R_a < R_th, R_a < R_ON and
// R_a > R_OFF. Two runs of one configuration that differ only in the
// thresholds therefore stay identical, cycle by cycle, for as long as every
// comparison a gate makes comes out the same under both: the gates then take
// the same decisions, so the network, the circuit and every reading stay
// the same, so the next comparisons are made on the same values. The gates
// record, for every comparison that decided a mode, the bound it puts on the
// threshold; the intersection over the run is a box, and any thresholds in
// it give the run's result exactly (the same trajectory, so the same
// numbers). Studies use it to reproduce a sweep point from an equivalent
// run instead of simulating it again (runner, study.Equivalence).
//
// Where an off decision has two sufficient reasons (the forced release and
// the model's own condition), one is enough to reproduce it, and the gate
// records the one that narrows the box least. The box is therefore exact
// (every point in it reproduces the run) but not always the largest such
// set.
type ThresholdBox struct {
	// R_n reproduces the run iff RnAbove < R_n·N_r <= RnAtMost, the product
	// computed as in Next; the bounds are values of 100·N_v.
	RnAbove, RnAtMost float64
	// R_ON reproduces it iff OnAbove < R_ON <= OnAtMost (R_a values, percent).
	OnAbove, OnAtMost float64
	// R_OFF reproduces it iff OffAtLeast <= R_OFF < OffBelow.
	OffAtLeast, OffBelow float64
	// R_th reproduces it iff ThAbove < R_th <= ThAtMost.
	ThAbove, ThAtMost float64
}

// AnyThresholds is the box of a run that compared nothing: every
// threshold reproduces it.
func AnyThresholds() ThresholdBox {
	inf := math.Inf(1)
	return ThresholdBox{RnAbove: -inf, RnAtMost: inf, OnAbove: -inf, OnAtMost: inf, OffAtLeast: -inf, OffBelow: inf, ThAbove: -inf, ThAtMost: inf}
}

// Contains reports whether the thresholds of q reproduce every recorded
// decision on a network of the given number of routers. The model and the
// guard time are not thresholds: the caller checks that they are the same.
func (b *ThresholdBox) Contains(q GateParams, routers int) bool {
	y := q.RnPercent * float64(routers)
	return b.RnAbove < y && y <= b.RnAtMost &&
		b.OnAbove < q.ROnPercent && q.ROnPercent <= b.OnAtMost &&
		b.OffAtLeast <= q.ROffPercent && q.ROffPercent < b.OffBelow &&
		b.ThAbove < q.RthPercent && q.RthPercent <= b.ThAtMost
}

// Intersect narrows b to the thresholds that also reproduce o's decisions.
func (b *ThresholdBox) Intersect(o ThresholdBox) {
	b.RnAbove, b.RnAtMost = max(b.RnAbove, o.RnAbove), min(b.RnAtMost, o.RnAtMost)
	b.OnAbove, b.OnAtMost = max(b.OnAbove, o.OnAbove), min(b.OnAtMost, o.OnAtMost)
	b.OffAtLeast, b.OffBelow = max(b.OffAtLeast, o.OffAtLeast), min(b.OffBelow, o.OffBelow)
	b.ThAbove, b.ThAtMost = max(b.ThAbove, o.ThAbove), min(b.ThAtMost, o.ThAtMost)
}

// forced records that the release was forced at scaled count x = 100·N_v
// (x < R_n·N_r); notForced that it was not (x >= R_n·N_r).
func (b *ThresholdBox) forced(x float64)    { b.RnAbove = max(b.RnAbove, x) }
func (b *ThresholdBox) notForced(x float64) { b.RnAtMost = min(b.RnAtMost, x) }

// model records the outcome keep of the model's own comparison of ra.
func (b *ThresholdBox) model(m Model, on bool, ra float64, keep bool) {
	switch {
	case m == Base && keep: // ra < R_th
		b.ThAbove = max(b.ThAbove, ra)
	case m == Base: // R_th <= ra
		b.ThAtMost = min(b.ThAtMost, ra)
	case on && keep: // !(ra > R_OFF): R_OFF >= ra
		b.OffAtLeast = max(b.OffAtLeast, ra)
	case on: // ra > R_OFF
		b.OffBelow = min(b.OffBelow, ra)
	case keep: // ra < R_ON
		b.OnAbove = max(b.OnAbove, ra)
	default: // R_ON <= ra
		b.OnAtMost = min(b.OnAtMost, ra)
	}
}

// modelNarrows reports whether recording the model's (failed) comparison
// of ra would narrow the box, and forcedNarrows the same of a forced release
// at x.
func (b *ThresholdBox) modelNarrows(m Model, on bool, ra float64) bool {
	switch {
	case m == Base:
		return ra < b.ThAtMost
	case on:
		return ra < b.OffBelow
	default:
		return ra < b.OnAtMost
	}
}

func (b *ThresholdBox) forcedNarrows(x float64) bool { return x > b.RnAbove }
