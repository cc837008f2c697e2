package study

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/topology/grid"
)

const sweepBase = "name = \"s\"\nseed = 5\n[network]\n\n[network.torus]\nk = 4\n[traffic]\nprocess = \"bernoulli\"\n"

func mustParseFile(t *testing.T, src string) *File {
	t.Helper()
	f, err := ParseFile("s.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestSweepExpansion: axes form a product with the first axis outermost;
// zipped axes advance together; ranges give clean decimal values and
// integers for integer keys.
func TestSweepExpansion(t *testing.T) {
	cases := []struct {
		name, axes string
		want       []string // point labels in order
	}{
		{"product", "[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"tornado\"]\n[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [3, 6]\n",
			[]string{"pattern=uniform vcs=3", "pattern=uniform vcs=6", "pattern=tornado vcs=3", "pattern=tornado vcs=6"}},
		{"zip", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [3, 6]\nzip = \"z\"\n[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"tornado\"]\n[[axis]]\nkey = \"router.vc.buffer_flits\"\nvalues = [16, 32]\nzip = \"z\"\n",
			[]string{"vcs=3 pattern=uniform buffer_flits=16", "vcs=3 pattern=tornado buffer_flits=16", "vcs=6 pattern=uniform buffer_flits=32", "vcs=6 pattern=tornado buffer_flits=32"}},
		{"float range", "[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nrange = {from = 0.1, to = 0.7, step = 0.15}\n",
			[]string{"load_flits_per_node_cycle=0.1", "load_flits_per_node_cycle=0.25", "load_flits_per_node_cycle=0.4", "load_flits_per_node_cycle=0.55", "load_flits_per_node_cycle=0.7"}},
		{"integer range", "[[axis]]\nkey = \"router.vc.buffer_flits\"\nrange = {from = 8, to = 32, step = 8}\n",
			[]string{"buffer_flits=8", "buffer_flits=16", "buffer_flits=24", "buffer_flits=32"}},
		{"no axes", "", []string{""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := mustParseFile(t, sweepBase+c.axes)
			var got []string
			for i := range f.Points {
				got = append(got, f.Points[i].Label())
				if f.Points[i].Index != i {
					t.Errorf("point %d has index %d", i, f.Points[i].Index)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("points:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
	// The values reach the configurations.
	f := mustParseFile(t, sweepBase+cases[1].axes)
	if c := f.Points[3].Config; c.Router.VC.VCs != 6 || c.Traffic.Pattern != "tornado" || c.Router.VC.BufferFlits != 32 || c.Network.Torus.K != grid.Side(4) {
		t.Fatalf("point 3 config: %+v", c)
	}
}

// TestSeeds: with common seeds every point's replicate r has the same seed
// (replicate 0 the file's); per-point seeds differ between points and do not
// change when another value is added to an axis.
func TestSeeds(t *testing.T) {
	axes := "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [3, 6]\n"
	common := mustParseFile(t, sweepBase+"[study]\nreplicates = 3\n"+axes).Runs()
	if len(common) != 6 {
		t.Fatalf("%d runs, want 6", len(common))
	}
	for _, r := range common {
		if want := common[r.Replicate].Config.Seed; r.Config.Seed != want {
			t.Errorf("%s: seed %d, want %d (common)", r.ID(), r.Config.Seed, want)
		}
	}
	if common[0].Config.Seed != 5 || common[1].Config.Seed == 5 || common[1].Config.Seed == common[2].Config.Seed {
		t.Errorf("replicate seeds %d %d %d", common[0].Config.Seed, common[1].Config.Seed, common[2].Config.Seed)
	}
	per := mustParseFile(t, sweepBase+"[study]\nreplicates = 2\nseeds = \"per-point\"\n"+axes).Runs()
	seen := map[uint64]string{}
	for _, r := range per {
		if other, dup := seen[r.Config.Seed]; dup {
			t.Errorf("%s and %s share seed %d", r.ID(), other, r.Config.Seed)
		}
		seen[r.Config.Seed] = r.ID()
	}
	wider := mustParseFile(t, sweepBase+"[study]\nreplicates = 2\nseeds = \"per-point\"\n"+strings.Replace(axes, "[3, 6]", "[3, 4, 6]", 1)).Runs()
	if wider[0].Config.Seed != per[0].Config.Seed || wider[5].Config.Seed != per[3].Config.Seed {
		t.Errorf("per-point seeds changed when a value was added: %d %d vs %d %d", wider[0].Config.Seed, wider[5].Config.Seed, per[0].Config.Seed, per[3].Config.Seed)
	}
}

// TestConfigFileIsOnePointStudy: a plain configuration is a study of one
// run with the file's configuration and seed.
func TestConfigFileIsOnePointStudy(t *testing.T) {
	src := []byte(sweepBase)
	cfg, err := Parse("c.toml", src)
	if err != nil {
		t.Fatal(err)
	}
	f := mustParseFile(t, sweepBase)
	runs := f.Runs()
	if len(runs) != 1 || !reflect.DeepEqual(runs[0].Config, cfg) {
		t.Fatalf("runs %d, config %+v, want %+v", len(runs), runs[0].Config, cfg)
	}
}

func ExampleParseFile() {
	f, err := ParseFile("curves.toml", []byte(`name = "curves"
[network]
topology = "mesh"

[network.mesh]
k = 8
[router]
routing = "dor"
vc.vcs = 2
[traffic]
process = "bernoulli"
[study]
replicates = 2
[[axis]]
key = "traffic.pattern"
values = ["uniform", "transpose"]
[[axis]]
key = "traffic.load_flits_per_node_cycle"
range = { from = 0.1, to = 0.4, step = 0.1 }
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(f.Describe())
	runs := f.Runs()
	fmt.Println(runs[3].ID(), runs[3].Point.Label())
	// Output:
	// curves.toml: ok: study "curves", 8 points x 2 replicates = 16 runs (seeds: common)
	//   axis[0] traffic.pattern: 2 values: uniform, transpose
	//   axis[1] traffic.load_flits_per_node_cycle: 4 values: 0.1, 0.2, 0.3, 0.4
	// p000001-r001 pattern=uniform load_flits_per_node_cycle=0.2
}

// TestKeyLabels: the registry's keys are keys of the configuration, and
// others fall back to their last part in words.
func TestKeyLabels(t *testing.T) {
	keys := sweepableKeys()
	for key := range keyLabels() {
		if key != "seed" && !slices.Contains(keys, key) {
			t.Errorf("label for %s, which is not a configuration key", key)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"traffic.load_flits_per_node_cycle", "Offered load (flits/node/cycle)"},
		{"router.ioq.recn.idle_cycles", "Idle (cycles)"},
		{"measure.warmup_cycles", "Warmup (cycles)"},
	} {
		if got := KeyLabel(c.in); got != c.want {
			t.Errorf("KeyLabel(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestOverriddenBase: a base value that an axis overrides is checked for
// mistakes of its own (a typo), not for its fit beside another swept
// key's base value.
func TestOverriddenBase(t *testing.T) {
	const base = "[network]\n\n[network.torus]\nk = 4\n[traffic]\nprocess = \"bernoulli\"\n[measure]\nwarmup_cycles = 10\nmeasure_cycles = 10\n"
	zipped := base + "[router]\nrouting = \"dor-2class\"\nvc.vcs = 3\n[[axis]]\nkey = \"router.routing\"\nvalues = [\"dor-2class\", \"duato\"]\nzip = \"r\"\n" +
		"[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 4]\nzip = \"r\"\n"
	if _, err := ParseFile("zip.toml", []byte(zipped)); err != nil {
		t.Errorf("every point is valid, yet: %v", err)
	}
	typo := strings.Replace(base, "[traffic]\n", "[traffic]\npattern = \"unifrom\"\n", 1) + "[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"tornado\"]\n"
	if _, err := ParseFile("typo.toml", []byte(typo)); err == nil || !strings.Contains(err.Error(), `typo.toml:6: traffic.pattern = "unifrom": axis[0] sweeps this key`) {
		t.Errorf("a typo in an overridden base value: %v", err)
	}
}

// TestCheckMemoryEveryShape: the memory guard estimates every point that
// needs its own estimate (here the packet-batches method's injection
// matrix), whatever the order of the axis values.
func TestCheckMemoryEveryShape(t *testing.T) {
	for _, values := range []string{`["window", "packet-batches"]`, `["packet-batches", "window"]`} {
		src := "[network]\n\n[network.torus]\nk = 64\n[traffic]\nprocess = \"bernoulli\"\npattern = \"uniform\"\n[measure]\nwarmup_cycles = 10\nmeasure_cycles = 10\n" +
			"[[axis]]\nkey = \"measure.method\"\nvalues = " + values + "\n"
		f, err := ParseFile("pb.toml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		es, _ := f.Estimates()
		if len(es) != 2 {
			t.Errorf("%s: %d estimates, want one per method", values, len(es))
		}
		limit := MemoryLimit{Bytes: uint64(min(es[0].PeakBytes, es[len(es)-1].PeakBytes) + 1), Why: "test"}
		if err := f.CheckMemory(1, limit); err == nil || !strings.Contains(err.Error(), "method=packet-batches") {
			t.Errorf("%s: %v, want the packet-batches point refused", values, err)
		}
	}
}
