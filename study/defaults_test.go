package study

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLeftOutTrafficIsNeutral: a file that states a network, a routing
// and a load, and nothing else of its traffic, runs uniform Bernoulli
// arrivals at that load, not the built-in scenario's burst; the built-in
// scenario is BuiltIn, and Default differs from it in the traffic only.
func TestLeftOutTrafficIsNeutral(t *testing.T) {
	src := "[network]\ntopology = \"mesh\"\n[network.mesh]\nk = 8\n[router]\nrouting = \"dor\"\n[traffic]\nload_flits_per_node_cycle = 0.3\n"
	f, err := ParseFile("m.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tr := f.Points[0].Config.Traffic
	if tr.Pattern != "uniform" || tr.Process != "bernoulli" || tr.Load != 0.3 {
		t.Errorf("left-out traffic keys: pattern %q, process %q, load %v; want uniform, bernoulli, 0.3", tr.Pattern, tr.Process, tr.Load)
	}
	if f.Name != "mesh8-uniform-bernoulli" || len(f.Warnings) != 0 {
		t.Errorf("name %q, warnings %q", f.Name, f.Warnings)
	}
	b, d := BuiltIn(), Default()
	if b.Traffic.Process != "collective" || b.Traffic.Pattern != "tornado" || b.Name != "torus32-tornado-collective" {
		t.Errorf("BuiltIn: %q %q %q", b.Traffic.Process, b.Traffic.Pattern, b.Name)
	}
	b.Traffic, b.Name = d.Traffic, d.Name
	if b.TOML() != d.TOML() {
		t.Errorf("BuiltIn differs from Default beyond its traffic:\n%s\n---\n%s", b.TOML(), d.TOML())
	}
}

// TestNoEffectWarnings: a key that does nothing under the rest of the
// configuration is a warning naming it, its line and the key that
// decides; a key that takes effect at some point of a sweep is not.
func TestNoEffectWarnings(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // substrings, one warning each, in order
	}{
		{"load under a collective", "[traffic]\nprocess = \"collective\"\nload_flits_per_node_cycle = 0.3\n",
			[]string{`w.toml:3: warning: traffic.load_flits_per_node_cycle = 0.3 has no effect under traffic.process = "collective"`}},
		{"burst size under bernoulli", "[traffic]\npackets_per_node = 4\n",
			[]string{`w.toml:2: warning: traffic.packets_per_node = 4 has no effect under traffic.process = "bernoulli"`}},
		{"batch keys under the window", "[measure]\ntolerance = 0.05\nbatch_packets = 100\n",
			[]string{`w.toml:2: warning: measure.tolerance = 0.05 has no effect under measure.method = "window"`,
				`w.toml:3: warning: measure.batch_packets = 100 has no effect under measure.method = "window"`}},
		{"a swept hot-spot share under uniform", "[[axis]]\nkey = \"traffic.hotspot_fraction\"\nvalues = [0.1, 0.2]\n",
			[]string{`w.toml:2: warning: traffic.hotspot_fraction (swept by axis[0]) has no effect under traffic.pattern = "uniform"`}},
		{"SAT keys under entropy", "[policy]\ninjection = \"base\"\nsat_k = 8\n",
			[]string{`w.toml:3: warning: policy.sat_k = 8 has no effect under policy.injection = "base"`}},
		{"the decider swept: in effect at one point", "[traffic]\nhotspot_fraction = 0.1\n[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"hotspot\"]\n", nil},
		{"the decider swept: in effect at none", "[traffic]\npackets_per_node = 3\n[[axis]]\nkey = \"traffic.process\"\nvalues = [\"bernoulli\", \"poisson\"]\n",
			[]string{`w.toml:2: warning: traffic.packets_per_node = 3 has no effect under traffic.process (at every value its axis sweeps)`}},
		{"in effect", "[traffic]\nprocess = \"collective\"\npackets_per_node = 4\n", nil},
		{"two replicates", "[study]\nreplicates = 2\n", []string{"w.toml:2: warning: study.replicates = 2: the 95% intervals of the figures rest on two runs"}},
	}
	for _, tc := range cases {
		f, err := ParseFile("w.toml", []byte(tc.src))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(f.Warnings) != len(tc.want) {
			t.Errorf("%s: %d warnings, want %d: %q", tc.name, len(f.Warnings), len(tc.want), f.Warnings)
			continue
		}
		for i, w := range tc.want {
			if !strings.HasPrefix(f.Warnings[i], w) {
				t.Errorf("%s: warning %d:\n%s\nwant it to start with\n%s", tc.name, i, f.Warnings[i], w)
			}
		}
	}
}

// TestEffectiveTOMLReadsBack: for the first and last point of a shipped
// study of every topology family, router kind and mechanism, the
// effective configuration (icnsim config FILE) reads back, as a file of
// its own, to the same configuration, and shows every key of the tables it
// selects. (Loading every shipped study took 8 s of the suite; these cover
// each table a configuration can select.)
func TestEffectiveTOMLReadsBack(t *testing.T) {
	var files []string
	for _, name := range []string{"dragonfly1k-saturation", "entropy-collective-steal", "fattree64-fig5-sat", "hyperx1k-saturation",
		"mesh-recn-fig1", "mesh16-har-fig5", "mesh8-latency-throughput", "torus32-dor-2class", "entropy-ramp"} {
		files = append(files, filepath.Join("..", "studies", name+".toml"))
	}
	for _, p := range files {
		f, err := LoadFile(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range slices.Compact([]int{0, len(f.Points) - 1}) {
			text, err := f.EffectiveTOML(i)
			if err != nil {
				t.Fatal(err)
			}
			g, err := ParseFileContext(context.Background(), p+".effective", []byte(text))
			if err != nil {
				t.Fatalf("%s point %d: effective configuration does not read back: %v\n%s", p, i, err, text)
			}
			want := f.Points[i].Config
			if got := g.Points[0].Config; got.TOML() != want.TOML() {
				t.Errorf("%s point %d: read back differs:\n%s\n---\n%s", p, i, got.TOML(), want.TOML())
			}
			for _, k := range []string{"measure.stall_cycles", "traffic.self", "router.credit_latency_cycles", "policy.injection"} {
				if lineOf([]byte(text), strings.Split(k, ".")) == 0 {
					t.Errorf("%s point %d: %s not shown", p, i, k)
				}
			}
		}
	}
	if _, err := (&File{Path: "x.toml"}).EffectiveTOML(0); err == nil || !strings.Contains(err.Error(), "--point = 0") {
		t.Errorf("point out of range: %v", err)
	}
}

// TestRunWords: the report's line of run lengths comes from the points,
// with the loads swept and the keys --set wrote, not from the comments.
func TestRunWords(t *testing.T) {
	src := "# 50,000 warm-up cycles (stale)\n[measure]\nwarmup_cycles = 100\n[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nvalues = [0.1, 0.3]\n"
	sets, err := ParseSets([]string{"measure.measure_cycles=700", "seed=3"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := applySets([]byte(src), sets)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseFile("r.toml", a.src)
	if err != nil {
		t.Fatal(err)
	}
	want := "warm-up 100 cycles, window 700 cycles, drain up to 100000 cycles; offered load 0.1 to 0.3 flits/node/cycle; set on the command line: seed = 3, measure.measure_cycles = 700"
	if got := f.RunWords(); got != want {
		t.Errorf("RunWords:\n%s\nwant\n%s", got, want)
	}
}

// TestPhraseOf: figures name a routing or mechanism by its papers' name,
// long_volume_percent as P = x%, other keys as "words = value", and a
// study's [plot.labels] first.
func TestPhraseOf(t *testing.T) {
	labels := map[string]string{"traffic.packet_flits": "L = {} flits", "router.vc.vcs": "VCs", "4": "four"}
	for _, c := range []struct{ key, v, want string }{
		{"router.routing", "dor", "DOR"},
		{"router.routing", "hybrid-har", "Hybrid-HAR"},
		{"router.ioq.queues", "recn", "RECN"},
		{"traffic.pattern", "transpose", "transpose"},
		{"traffic.long_volume_percent", "25", "P = 25%"},
		{"traffic.load_flits_per_node_cycle", "0.2", "Offered load = 0.2"},
		{"traffic.packet_flits", "8", "L = 8 flits"},
		{"router.vc.vcs", "4", "VCs = four"},
	} {
		if got := PhraseOf(labels, c.key, c.v); got != c.want {
			t.Errorf("PhraseOf(%s, %s) = %q, want %q", c.key, c.v, got, c.want)
		}
	}
	if _, err := ParseFile("l.toml", []byte("[plot.labels]\n\"dor\" = \"\"\n\"nokey\" = \"x {}\"\n")); err == nil ||
		!strings.Contains(err.Error(), `plot.labels.dor = ""`) || !strings.Contains(err.Error(), `"nokey" is none`) {
		t.Errorf("bad labels: %v", err)
	}
}

// TestApplySetsForms: --set rewrites the key's line in its table, or adds
// it to the table (headers written with spaces too), or before the first
// table; a key set in an inline table is refused, and a key under an
// array of tables ([[axis]]) is never taken for a configuration key.
func TestApplySetsForms(t *testing.T) {
	for _, c := range []struct {
		name, src, set, want, err string
	}{
		{"in its table", "[router]\nvc.vcs = 2\n", "router.vc.vcs=4", "vc.vcs = 4  # --set", ""},
		{"added to a spaced header", "[ traffic ]\npattern = \"uniform\"\n", "traffic.load_flits_per_node_cycle=0.2", "[ traffic ]\nload_flits_per_node_cycle = 0.2", ""},
		{"before the first table", "[network]\ntopology = \"torus\"\n", "seed=9", "seed = 9  # --set", ""},
		{"inline table", "[router]\nvc = { vcs = 2 }\n", "router.vc.vcs=4", "", "inline table"},
		{"not an axis key", "[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nvalues = [0.1]\n", "measure.measure_cycles=500", "measure.measure_cycles = 500", ""},
	} {
		sets, err := ParseSets([]string{c.set})
		if err != nil {
			t.Fatal(err)
		}
		a, err := applySets([]byte(c.src), sets)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want an error with %q", c.name, err, c.err)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !strings.Contains(string(a.src), c.want) {
			t.Errorf("%s: %q lacks %q", c.name, a.src, c.want)
		}
		if _, err := ParseFile(c.name, a.src); err != nil {
			t.Errorf("%s: the rewritten file does not read: %v\n%s", c.name, err, a.src)
		}
	}
}
