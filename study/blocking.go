package study

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/router/vc"
	"github.com/icnsim/icnsim/topology"
)

// Blocking says when the serial and shards executors run the network in
// temporal blocks (actor.Schedule over the grid's tiles, fabric.Tiling): a block
// of routers is ticked for many cycles while its state is in the
// processor's cache, instead of the whole network's state streaming
// through the cache once per cycle. Results are byte-identical either
// way; only the speed differs.
type Blocking string

// The blocking modes.
const (
	// BlockingAuto blocks a torus or mesh of VC routers whose state
	// outgrows the cache (vc.Network.StateBytes at least
	// BlockingStateBytes), and a network of VC routers without tiles whose
	// links allow a lead (fabric.LeadTiling: a dragonfly's groups over its
	// long global links) once its state outgrows a core's L2 cache
	// (LeadBlockingStateBytes); nothing else: not a fat-tree, whose split
	// tiling gains too little to be worth it (see fattree.FatTree.TileSplit).
	BlockingAuto Blocking = "auto"
	// BlockingOff never blocks.
	BlockingOff Blocking = "off"
	// BlockingOn blocks any torus, mesh or fat-tree, of either router
	// kind, and any other network whose links allow a lead, whatever its
	// state, and refuses one that has neither.
	BlockingOn Blocking = "on"
)

// Blockings lists the modes for help texts and errors.
func Blockings() []Blocking { return []Blocking{BlockingAuto, BlockingOff, BlockingOn} }

// ParseBlocking checks a blocking mode's name; its error names the value
// and what is allowed, for the caller to prefix with the key or flag.
func ParseBlocking(s string) (Blocking, error) {
	for _, b := range Blockings() {
		if string(b) == s {
			return b, nil
		}
	}
	return "", fmt.Errorf("%q: allowed: auto, off, on", s)
}

// Blocks of BlockSteps cycles over tiles of BlockSide x BlockSide routers
// unless Options say otherwise. Measured on a 256x256 torus at 0.02
// flits/node/cycle (2 vCPUs, 1 MiB L2 per core, 32 MiB L3; serial, in
// router-cycles/s): no blocking 1.68M; 8 x 32 2.85M; 16 x 48 3.09M;
// 8 x 16 3.20M; 16 x 32 3.55M; 24 x 48 3.53M; 20 x 40 3.86M; 32 x 64 1.65M
// (a tile of 64 x 64 routers, 20 MB, no longer stays in the cache).
const (
	BlockSteps = 20
	BlockSide  = 40
)

// BlockingStateBytes is the network state from which BlockingAuto blocks:
// where the state outgrows half of a 32 MiB last-level cache.
const BlockingStateBytes = 16 << 20

// ActorsCannotBlock is the refusal of blocking = on with the actors
// executor, whatever the topology: the same as serial's and shards' would
// be on a network they cannot tile, rather than a run without blocks.
const ActorsCannotBlock = "blocking = on: the actors executor runs one goroutine per actor, all of them a cycle at a time, and has no temporal blocks (the serial and shards executors have them); use blocking off or auto with it"

// blockingRefusal is why blocking mode cannot be done on a run of executor
// exec whose hook runs every chunk cycles, whatever the network: nil where
// it can (or need not: auto and off are never refused). Whether a network
// without tiles can is the built network's (noBlocksRefusal).
func blockingRefusal(mode Blocking, exec actor.Kind, chunk int64) error {
	switch {
	case mode != BlockingOn:
		return nil
	case exec == actor.Actors:
		return errors.New(ActorsCannotBlock)
	case chunk < 2:
		return errors.New("blocking = on: this run stops every cycle (its warm-up, measurement, batch and sample cycles have no common divisor above 1, or every cycle is checked), so a block cannot span two cycles; use blocking off or auto, or lengths with a common divisor")
	}
	return nil
}

// CheckBlocking reports what Run would refuse of opt's blocking for cfg:
// blocking on with the actors executor, in a run that stops every cycle,
// or on a network that has no tiles and whose links allow no lead
// (fabric.LeadTiling). For that last one, on a topology without tiles, it
// builds the network (with its policies, whose lanes decide it; without
// the channel-dependency check, which is not its to make), under ctx.
func CheckBlocking(ctx context.Context, cfg Config, opt Options) error {
	if opt.Blocking != BlockingOn {
		return nil
	}
	exec := opt.Exec
	if exec == "" {
		exec = actor.Shards
	}
	_, chunk := cfg.runSteps(opt)
	t, err := cfg.Topology()
	if err != nil {
		return err
	}
	if err := blockingRefusal(opt.Blocking, exec, chunk); err != nil {
		return err
	}
	if fabric.Tileable(t) {
		// A family that tiles some of its shapes only (a grid of one
		// dimension has no tiles) says so before anything runs.
		if r, ok := t.(interface{ TilesRefused() error }); ok {
			return r.TilesRefused()
		}
		return nil
	}
	b, err := build(ctx, cfg, true)
	if err != nil {
		return err
	}
	if !fabric.LeadTileable(b.Fabric) {
		return noBlocksRefusal(t)
	}
	return nil
}

// noBlocksRefusal is the refusal of blocking on over a network that has no
// tiles and whose links allow no lead.
func noBlocksRefusal(t topology.Topology) error {
	return fmt.Errorf("blocking = on: this %s cannot be tiled (tori, meshes and fat-trees can), and no link of it lets its two ends run two cycles apart (a link of L cycles whose wires' rings have S slots allows min(L, S-L): 6 for a 10-cycle link; a policy's control lanes, UGAL-G's group board and the ioq router kind allow 1), so it cannot run in blocks; use blocking off or auto", t)
}

// Schedule returns the temporal-blocking schedule of a run with executor
// exec and the given workers, whose hook runs every chunk cycles; nil when
// it runs cycle by cycle. Blocking on is refused where it cannot be done:
// on the actors executor, in a run that stops every cycle, on a network
// that has no tiles and whose links allow no lead.
func Schedule(f fabric.Fabric, exec actor.Kind, opt Options, chunk int64) (*actor.Schedule, error) {
	mode := opt.Blocking
	if mode == "" {
		mode = BlockingAuto
	}
	if err := blockingRefusal(mode, exec, chunk); err != nil {
		return nil, err
	}
	if mode == BlockingOff || exec == actor.Actors || chunk < 2 {
		return nil, nil
	}
	parts := 1
	if exec == actor.Shards {
		parts = opt.Workers
		if parts <= 0 {
			parts = runtime.GOMAXPROCS(0)
		}
	}
	if !fabric.Tileable(f.Topology()) {
		return leadSchedule(f, mode, opt, chunk, parts)
	}
	if mode == BlockingAuto {
		n, ok := f.(*vc.Network)
		if _, plane := f.Topology().(topology.Plane); !ok || !plane || n.StateBytes() < BlockingStateBytes {
			return nil, nil
		}
	}
	steps, side := BlockSteps, BlockSide
	if opt.BlockSteps > 0 {
		steps = opt.BlockSteps
	}
	if opt.BlockSide > 0 {
		side = opt.BlockSide
	}
	return fabric.Tiling(f, int(min(int64(steps), chunk)), side, parts)
}

// LeadBlockingStateBytes is the network state (less the queues of internal
// speedup, which are held more than touched) from which BlockingAuto runs a
// network with long links in blocks over them (fabric.LeadTiling): where
// the state outgrows a core's 1 MiB L2 cache, while each of its pieces (a
// dragonfly's group) fits in it.
const LeadBlockingStateBytes = 1 << 20

// leadSchedule is Schedule on a network that has no tiles but may have
// links long enough to run its pieces cycles apart (fabric.LeadTiling):
// nil where auto finds none or the state small, an error where on does.
func leadSchedule(f fabric.Fabric, mode Blocking, opt Options, chunk int64, parts int) (*actor.Schedule, error) {
	if !fabric.LeadTileable(f) {
		if mode == BlockingOn {
			return nil, noBlocksRefusal(f.Topology())
		}
		return nil, nil
	}
	if mode == BlockingAuto {
		n, ok := f.(*vc.Network)
		if !ok || n.HotStateBytes() < LeadBlockingStateBytes {
			return nil, nil
		}
	}
	steps := BlockSteps
	if opt.BlockSteps > 0 {
		steps = opt.BlockSteps
	}
	return fabric.LeadTiling(f, int(min(int64(steps), chunk)), parts)
}
