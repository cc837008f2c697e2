package runner

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/study"
)

// simulateFunc simulates run i; finishFunc records its result.
type (
	simulateFunc func(ctx context.Context, i int) (*report.Result, *study.Equivalence, error)
	finishFunc   func(i int, res *report.Result) error
)

// runAll simulates every pending run, jobs at a time.
func runAll(ctx context.Context, pending []int, jobs int, simulate simulateFunc, finish finishFunc) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(jobs)
	for _, i := range pending {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			res, _, err := simulate(gctx, i)
			if err != nil {
				return err
			}
			return finish(i, res)
		})
	}
	return g.Wait()
}

// reuseGroup holds the pending runs of configurations that differ only in
// their gate thresholds, and the equivalences of those already simulated.
type reuseGroup struct {
	queue    []int // pending runs, in run order
	probes   map[int]study.Probe
	inFlight int
	done     []reuseDone
	free     bool // runs without a gate: nothing to reuse, no limit in flight
}

type reuseDone struct {
	eq  *study.Equivalence
	res *report.Result
}

// reproduce finishes run i from an equivalent finished run, if there is one.
func (g *reuseGroup) reproduce(i int, finish finishFunc, reproduced *int) (bool, error) {
	if g.free {
		return false, nil
	}
	for _, d := range g.done {
		if res, ok := d.eq.Reproduce(d.res, g.probes[i]); ok {
			*reproduced++
			return true, finish(i, res)
		}
	}
	return false, nil
}

// runReusing simulates the pending runs jobs at a time, but gives a run the
// result of an equivalent finished run where there is one (a threshold sweep
// of entropy throttling: study.Equivalence). To find equivalences before
// simulating, it runs one configuration of a group at a time while other
// groups have work, and starts a second one of the same group, taken from
// the far end of its queue, only when a job would otherwise idle. The
// results, and so every output file, are those of runAll.
func runReusing(ctx context.Context, runs []study.RunSpec, pending []int, jobs int, simulate simulateFunc, finish finishFunc, reproduced *int) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	byKey := map[string]*reuseGroup{}
	var groups []*reuseGroup
	for _, i := range pending {
		p := study.NewProbe(runs[i].Config)
		g := byKey[p.Key()]
		if g == nil {
			g = &reuseGroup{probes: map[int]study.Probe{}, free: p.Key() == ""}
			byKey[p.Key()] = g
			groups = append(groups, g)
		}
		g.queue = append(g.queue, i)
		g.probes[i] = p
	}
	// pick returns the next run to simulate (ok false: none now), finishing
	// on the way the runs that equivalent finished runs already answer.
	pick := func() (i int, g *reuseGroup, ok bool, err error) {
		for _, g := range groups {
			for len(g.queue) > 0 {
				i := g.queue[0]
				if done, err := g.reproduce(i, finish, reproduced); err != nil || !done {
					if err != nil {
						return 0, nil, false, err
					}
					break
				}
				g.queue = g.queue[1:]
			}
			if len(g.queue) > 0 && (g.free || g.inFlight == 0) {
				i := g.queue[0]
				g.queue = g.queue[1:]
				return i, g, true, nil
			}
		}
		for _, g := range groups {
			for len(g.queue) > 0 {
				i := g.queue[len(g.queue)-1]
				g.queue = g.queue[:len(g.queue)-1]
				done, err := g.reproduce(i, finish, reproduced)
				if err != nil {
					return 0, nil, false, err
				}
				if !done {
					return i, g, true, nil
				}
			}
		}
		return 0, nil, false, nil
	}
	type outcome struct {
		i   int
		g   *reuseGroup
		res *report.Result
		eq  *study.Equivalence
		err error
	}
	results := make(chan outcome)
	running := 0
	var firstErr error
	fail := func(err error) {
		if firstErr == nil {
			firstErr = err
			cancel()
		}
	}
	for {
		for firstErr == nil && running < jobs && ctx.Err() == nil {
			i, g, ok, err := pick()
			if err != nil {
				fail(err)
				break
			}
			if !ok {
				break
			}
			running++
			g.inFlight++
			go func() {
				res, eq, err := simulate(ctx, i)
				results <- outcome{i: i, g: g, res: res, eq: eq, err: err}
			}()
		}
		if running == 0 {
			break
		}
		o := <-results
		running--
		o.g.inFlight--
		if o.err != nil {
			fail(o.err)
			continue
		}
		if err := finish(o.i, o.res); err != nil {
			fail(err)
			continue
		}
		if o.eq != nil {
			o.g.done = append(o.g.done, reuseDone{eq: o.eq, res: o.res})
		}
	}
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return firstErr
}
