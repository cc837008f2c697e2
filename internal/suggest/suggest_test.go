package suggest

import (
	"slices"
	"testing"
)

func TestNearest(t *testing.T) {
	keys := []string{"router.vc.vcs", "router.vc.buffer_flits", "traffic.pattern", "traffic.process", "measure.warmup_cycles", "policy.injection"}
	for _, tc := range []struct {
		word string
		want []string
	}{
		{"router.vc", []string{"router.vc.vcs"}},
		{"traffic.patern", []string{"traffic.pattern"}},
		{"pattern", []string{"traffic.pattern"}},
		{"measure.vcs", []string{"router.vc.vcs"}},
		{"warmup_cycle", []string{"measure.warmup_cycles"}},
		{"colour", nil},
		{"traffic.load", nil},
		{"router.buffer", []string{"router.vc.buffer_flits"}},
		{"measure.warmup", []string{"measure.warmup_cycles"}},
		{"measure.method2", nil},
	} {
		if got := Nearest(tc.word, keys, 3); !slices.Equal(got, tc.want) {
			t.Errorf("Nearest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
	if d := editDistance("unifrom", "uniform"); d != 2 {
		t.Errorf("editDistance(unifrom, uniform) = %d, want 2", d)
	}
	if s := DidYouMean("unifrom", []string{"uniform", "tornado"}); s != `; did you mean "uniform"?` {
		t.Errorf("didYouMean = %q", s)
	}
	for _, tc := range []struct {
		word  string
		cands []string
		want  []string
	}{
		{"traffic.load", []string{"traffic.load_flits_per_node_cycle", "traffic.load_of_bisection", "traffic.self"}, []string{"traffic.load_flits_per_node_cycle", "traffic.load_of_bisection"}},
		{"har", []string{"dor", "har-dor", "hybrid-har"}, []string{"har-dor", "hybrid-har"}},
		{"bitrev", []string{"bit-reverse", "bit-complement"}, []string{"bit-reverse"}},
		{"complement", []string{"bit-reverse", "bit-complement"}, []string{"bit-complement"}},
		{"router.routing_delay", []string{"router.routing", "router.routing_delay_cycles"}, []string{"router.routing_delay_cycles"}},
		{"network.nodes", []string{"network.levels", "network.k"}, nil},
	} {
		if got := Nearest(tc.word, tc.cands, 3); !slices.Equal(got, tc.want) {
			t.Errorf("Nearest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}
