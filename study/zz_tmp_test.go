package study

import (
	"context"
	"testing"
)

func TestTmpBoundsHX(t *testing.T) {
	for _, c := range []struct {
		routing, pattern string
		seqs             int
	}{{"min", "uniform", 1}, {"min", "dimension-shift", 1}, {"val", "dimension-shift", 16}, {"val", "uniform", 2}} {
		cfg := hyperxSmall(c.routing, func(cf *Config) {
			cf.Network.K, cf.Network.NodesPerRouter = 16, 4
		})
		b, err := Build(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		N := b.Net.Topo.Nodes()
		P, S := 4, 16
		dests := func(src int) (ds []int) {
			if c.pattern == "uniform" {
				for i := 0; i < N; i++ {
					ds = append(ds, i)
				}
				return ds
			}
			r := src / P
			r += (r%S+1)%S - r%S
			for i := 0; i < P; i++ {
				ds = append(ds, r*P+i)
			}
			return ds
		}
		bd, busiest := routeLoadBound(t, b.Net, dests, c.seqs)
		t.Logf("%s %s %s: bound %.4f busiest %s", b.Net.Topo, c.routing, c.pattern, bd, busiest)
	}
}
