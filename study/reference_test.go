package study

import (
	"strings"
	"testing"
)

const refBase = `name = "refs"
[network]
topology = "mesh"

[network.mesh]
k = 4
[router]
routing = "dor"
[[axis]]
key = "traffic.pattern"
values = ["uniform", "transpose"]
[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.1, 0.2]
`

// TestReferences: a [[reference]] selects exactly one point; every
// mistake is one error naming the key path, the value and what is allowed.
func TestReferences(t *testing.T) {
	ok := refBase + `[[reference]]
source = "P, Table 1"
metric = "latency_mean_cycles"
value = 30
at = { "traffic.pattern" = "transpose", "traffic.load_flits_per_node_cycle" = 0.1 }
`
	f, err := ParseFile("refs.toml", []byte(ok))
	if err != nil {
		t.Fatal(err)
	}
	if r := f.References[0]; r.Point != 2 || r.Value != 30 {
		t.Fatalf("reference selects point %d (value %v), want point 2", r.Point, r.Value)
	}
	for _, c := range []struct{ name, table, want string }{
		{"no source", `metric = "latency_mean_cycles"
value = 1
at = { "traffic.pattern" = "uniform", "traffic.load_flits_per_node_cycle" = 0.1 }`, `reference[0].source`},
		{"no value", `source = "P"
metric = "latency_mean_cycles"
at = { "traffic.pattern" = "uniform", "traffic.load_flits_per_node_cycle" = 0.1 }`, `reference[0].value = "(missing)"`},
		{"unknown metric", `source = "P"
metric = "latency_cycles"
value = 1
at = { "traffic.pattern" = "uniform", "traffic.load_flits_per_node_cycle" = 0.1 }`, `reference[0].metric = "latency_cycles"`},
		{"not an axis", `source = "P"
metric = "latency_mean_cycles"
value = 1
at = { "router.vc.vcs" = 2 }`, `reference[0].at.router.vc.vcs = 2: router.vc.vcs is not swept: every point of this study has router.vc.vcs = 3`},
		{"not a key", `source = "P"
metric = "latency_mean_cycles"
value = 1
at = { "router.vcz" = 2 }`, `reference[0].at.router.vcz = 2: allowed: a swept axis key`},
		{"no such point", `source = "P"
metric = "latency_mean_cycles"
value = 1
at = { "traffic.pattern" = "uniform", "traffic.load_flits_per_node_cycle" = 0.3 }`, `none has these`},
		{"several points", `source = "P"
metric = "latency_mean_cycles"
value = 1
at = { "traffic.pattern" = "uniform" }`, `these select 2: give a value for traffic.load_flits_per_node_cycle too`},
	} {
		_, err := ParseFile("refs.toml", []byte(refBase+"[[reference]]\n"+c.table+"\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "refs.toml") {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	// A key that is not swept, at the study's own value, selects nothing.
	if _, err := ParseFile("refs.toml", []byte(refBase+"[[reference]]\nsource = \"P\"\nmetric = \"latency_mean_cycles\"\nvalue = 1\n"+
		"at = { \"router.vc.vcs\" = 3, \"traffic.pattern\" = \"uniform\", \"traffic.load_flits_per_node_cycle\" = 0.1 }\n")); err != nil {
		t.Errorf("an unswept key at the study's value: %v", err)
	}
	for _, c := range []struct{ plot, want string }{
		{"y_max = -1", "plot.y_max = -1"},
		{"latency_cut = 0.5", "plot.latency_cut = 0.5"},
		{`node_figures = "grid"`, `plot.node_figures = "grid"`},
	} {
		_, err := ParseFile("refs.toml", []byte(refBase+"[plot]\n"+c.plot+"\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("[plot] %s: %v, want an error with %q", c.plot, err, c.want)
		}
	}
}

// TestFixedWords: the title line names what no axis sweeps.
func TestFixedWords(t *testing.T) {
	f, err := ParseFile("refs.toml", []byte(refBase))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.FixedWords(), "4x4 mesh, bernoulli injection, dor routing, VCT"; got != want {
		t.Errorf("FixedWords() = %q, want %q", got, want)
	}
}
