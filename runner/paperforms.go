package runner

import (
	"context"
	"path/filepath"

	"github.com/icnsim/icnsim/figure"
	"github.com/icnsim/icnsim/repro"
	"github.com/icnsim/icnsim/study"
)

// paperFigures draws the study's plot.paper_form (package repro) into
// pdir, the study's plots directory, from its points and runs.
func paperFigures(ctx context.Context, f *study.File, pts []*pointStats, recs []*Record, pdir string, out figure.Output) error {
	in := &repro.Inputs{File: f, Points: reproPoints(pts), Dir: filepath.Dir(pdir), Load: loadPoints}
	for _, rec := range recs {
		in.Runs = append(in.Runs, &repro.Run{Point: rec.Point, Replicate: rec.Replicate, Result: rec.Result})
	}
	for _, r := range refRows(f, pts) {
		in.Refs = append(in.Refs, repro.Ref{Ref: r.ref, Point: r.point, Ours: r.ours, Rel: r.rel, N: r.n, Lo: r.lo, Hi: r.hi})
	}
	return repro.Draw(ctx, in, pdir, out)
}

// reproPoints are pts as the paper forms read them.
func reproPoints(pts []*pointStats) []*repro.Point {
	out := make([]*repro.Point, len(pts))
	for i, ps := range pts {
		out[i] = &repro.Point{Point: ps.point, N: ps.n, Mean: ps.mean, Std: ps.std, Results: ps.results}
	}
	return out
}

// loadPoints reads the finished study in dir as its points.
func loadPoints(ctx context.Context, dir string) (*study.File, []*repro.Point, error) {
	f, recs, err := Reload(ctx, dir)
	if err != nil {
		return nil, nil, err
	}
	return f, reproPoints(pointMeans(f, recs)), nil
}
