package study

import (
	"slices"
	"testing"
)

func TestNearest(t *testing.T) {
	keys := []string{"router.vcs", "router.buffer_flits", "traffic.pattern", "traffic.process", "measure.warmup_cycles", "policy.injection"}
	for _, tc := range []struct {
		word string
		want []string
	}{
		{"router.vc", []string{"router.vcs"}},
		{"traffic.patern", []string{"traffic.pattern"}},
		{"pattern", []string{"traffic.pattern"}},
		{"measure.vcs", []string{"router.vcs"}},
		{"warmup_cycle", []string{"measure.warmup_cycles"}},
		{"colour", nil},
	} {
		if got := nearest(tc.word, keys, 3); !slices.Equal(got, tc.want) {
			t.Errorf("nearest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
	if d := editDistance("unifrom", "uniform"); d != 2 {
		t.Errorf("editDistance(unifrom, uniform) = %d, want 2", d)
	}
	if s := didYouMean("unifrom", []string{"uniform", "tornado"}); s != `; did you mean "uniform"?` {
		t.Errorf("didYouMean = %q", s)
	}
}
