package study

import (
	"slices"
	"strings"
	"testing"
)

// Study bases for the paper forms: the network and the axes of each
// paper's figure, at a tiny size (they are parsed, never run).
const (
	fatTreeBase = "name = \"t\"\n[network]\ntopology = \"fattree\"\n\n[network.fattree]\nk = 2\nlevels = 2\n[router]\nrouting = \"fattree-static\"\nvc.vcs = 1\n" +
		"[traffic]\nprocess = \"bernoulli\"\n[measure]\nwarmup_cycles = 10\nmeasure_cycles = 10\n"
	patternAxis = "[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"shuffle\"]\n"
	policyAxis  = "[[axis]]\nkey = \"policy.injection\"\nvalues = [\"none\", \"sat(4,4,ring)\"]\n"
	satLK       = "[policy]\ninjection = \"sat\"\n[[axis]]\nkey = \"policy.sat_l\"\nvalues = [4, 8]\nzip = \"lk\"\n[[axis]]\nkey = \"policy.sat_k\"\nvalues = [4, 8]\nzip = \"lk\"\n"
	meshIOQ     = "name = \"t\"\n[network]\ntopology = \"mesh\"\n\n[network.mesh]\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\n" +
		"[traffic]\npattern = \"hotspot-sources\"\nprocess = \"bernoulli\"\nhotspot_node = 5\npacket_flits = 8\n[measure]\nwarmup_cycles = 10\nmeasure_cycles = 10\n"
	queuesAxis = "[[axis]]\nkey = \"router.ioq.queues\"\nvalues = [\"1q\", \"recn\"]\n"
	loadAxis   = "[[axis]]\nkey = \"traffic.load_of_bisection\"\nvalues = [0.5, 1.0]\n"
	harBase    = "name = \"t\"\n[network]\ntopology = \"mesh\"\n\n[network.mesh]\nk = 4\nnode_channels = 2\n[router]\nvc.vcs = 4\nvc.switching = \"wormhole\"\n" +
		"[traffic]\npattern = \"uniform\"\nprocess = \"poisson\"\npacket_flits = 4\nlong_packet_flits = 16\nload_of_wire_capacity = 0.1\n[measure]\nwarmup_cycles = 10\nmeasure_cycles = 10\n" +
		"[[axis]]\nkey = \"router.routing\"\nvalues = [\"har-dor\", \"hybrid-har\"]\n[[axis]]\nkey = \"traffic.long_volume_percent\"\nvalues = [0, 50]\n"
	recnCase3 = "name = \"t\"\n[network]\ntopology = \"mesh\"\n\n[network.mesh]\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"recn\"\n" +
		"[traffic]\npattern = \"hotspot-sources\"\nprocess = \"bernoulli\"\nhotspot_node = 5\nhotspot_source_fraction = 0.25\npacket_flits = 8\n[measure]\nwarmup_cycles = 10\nmeasure_cycles = 10\n"
	collectiveBase = "name = \"t\"\n[network]\ntopology = \"torus\"\n\n[network.torus]\nk = 4\n[router]\nrouting = \"dor-dateline\"\nvc.vcs = 3\n[traffic]\nprocess = \"collective\"\npackets_per_node = 2\n" +
		patternAxis
)

// TestPaperForm: plot.paper_form takes each form on a study with the
// paper's axes, and refuses, naming the key, the value and what is
// missing, a form the study cannot draw, an unknown form (listing the
// allowed ones) and a misplaced argument.
func TestPaperForm(t *testing.T) {
	for _, c := range []struct {
		name, study, form string
		want              string // "" accepts; else a part of the error
	}{
		{"none", fatTreeBase + patternAxis, "", ""},
		{"izu-fig3", fatTreeBase + patternAxis + policyAxis, "izu-fig3", ""},
		{"izu-fig3 without a pattern axis", fatTreeBase + policyAxis, "izu-fig3", "it needs an [[axis]] of traffic.pattern"},
		{"izu-fig3 on a mesh", meshIOQ + queuesAxis + "[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"transpose\"]\n", "izu-fig3", `network.topology = "mesh", not "fattree"`},
		{"izu-fig4", fatTreeBase + satLK + patternAxis, "izu-fig4", ""},
		{"izu-fig4 with its no-SAT study", fatTreeBase + satLK + patternAxis, "izu-fig4:fattree64-fig3-sat", ""},
		{"izu-fig4 with a path", fatTreeBase + satLK + patternAxis, "izu-fig4:../x", "a name, no path"},
		{"izu-fig4 with an empty study", fatTreeBase + satLK + patternAxis, "izu-fig4:", "a name, no path"},
		{"izu-fig4 with k not l", fatTreeBase + "[policy]\ninjection = \"sat\"\nsat_k = 16\n[[axis]]\nkey = \"policy.sat_l\"\nvalues = [4, 8]\n" + patternAxis, "izu-fig4", "policy.sat_l = 4, policy.sat_k = 16"},
		{"izu-fig4 without SAT", fatTreeBase + patternAxis + policyAxis, "izu-fig4", `policy.injection = "none", not "sat"`},
		{"izu-fig4 without l", fatTreeBase + "[policy]\ninjection = \"sat\"\n" + patternAxis, "izu-fig4", "policy.sat_l"},
		{"izu-fig5", strings.Replace(fatTreeBase, "[measure]\n", "[measure]\nmethod = \"packet-batches\"\n", 1) + patternAxis + policyAxis, "izu-fig5", ""},
		{"izu-fig5 without per-node rates", fatTreeBase + patternAxis + policyAxis, "izu-fig5", `measure.method = "window", not "packet-batches"`},
		{"izu-fig5 without policies", fatTreeBase + patternAxis, "izu-fig5", "it needs an [[axis]] of policy.injection"},
		{"argument elsewhere", fatTreeBase + patternAxis + policyAxis, "izu-fig3:x", `"izu-fig3" takes no argument`},
		{"recn-fig1 on configuration #5", meshIOQ + queuesAxis + loadAxis, "recn-fig1", `network.mesh.k = 4 with network.mesh.concentration = 1 is not one of the figure's configurations #1, #2, #3`},
		{"recn-fig2", meshIOQ + queuesAxis + loadAxis + "[[axis]]\nkey = \"traffic.hotspot_source_fraction\"\nvalues = [0, 0.125, 0.25]\n", "recn-fig2", ""},
		{"recn-fig2 with another case", meshIOQ + queuesAxis + loadAxis + "[[axis]]\nkey = \"traffic.hotspot_source_fraction\"\nvalues = [0, 0.5]\n", "recn-fig2", "traffic.hotspot_source_fraction = 0.5 is not one of the figure's traffic cases"},
		{"recn-fig2 without a load axis", meshIOQ + queuesAxis, "recn-fig2", "exactly one swept offered-load axis"},
		{"recn-fig2 with another axis", meshIOQ + queuesAxis + loadAxis + "[[axis]]\nkey = \"router.ioq.port_memory_bytes\"\nvalues = [65536, 131072]\n", "recn-fig2", "no place for the axes router.ioq.port_memory_bytes"},
		{"recn-fig2 without organisations", meshIOQ + loadAxis, "recn-fig2", "it needs an [[axis]] of router.ioq.queues"},
		{"recn-fig1 zipped configurations", meshIOQ + queuesAxis + loadAxis + "[[axis]]\nkey = \"network.mesh.k\"\nvalues = [8, 4]\nzip = \"c\"\n[[axis]]\nkey = \"network.mesh.concentration\"\nvalues = [4, 16]\nzip = \"c\"\n", "recn-fig1", ""},
		{"recn-fig3", recnCase3 + loadAxis, "recn-fig3", ""},
		{"recn-fig3 under case #2", strings.Replace(recnCase3, "0.25", "0.125", 1) + loadAxis, "recn-fig3", "traffic.hotspot_source_fraction = 0.125 is not one of the figure's traffic cases #3"},
		{"recn-fig3 without RECN", meshIOQ + queuesAxis + loadAxis, "recn-fig3", `router.ioq.queues = "1q", not "recn"`},
		{"har-fig6", harBase, "har-fig6", ""},
		{"har-fig9 on uniform traffic", harBase, "har-fig9", `traffic.pattern = "uniform", not "transpose"`},
		{"har-fig6 without long messages", strings.Replace(harBase, "long_packet_flits = 16", "long_packet_flits = 0", 1), "har-fig6", "traffic.long_packet_flits = 0"},
		{"entropy-table2", collectiveBase + "[[axis]]\nkey = \"policy.injection\"\nvalues = [\"noth\", \"gt.a(4,90,80,80)\"]\n", "entropy-table2", ""},
		{"entropy-table2 with another axis", collectiveBase + "[[axis]]\nkey = \"policy.injection\"\nvalues = [\"gt.a(4,90,80,80)\"]\n[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [3, 4]\n", "entropy-table2", "no place for the axes router.vc.vcs"},
		{"izu-fig3 with too many bars", fatTreeBase + patternAxis + policyAxis + "[[axis]]\nkey = \"router.vc.buffer_flits\"\nvalues = [16, 32, 48, 64, 80]\n", "izu-fig3", "its 10 combinations of policy.injection, router.vc.buffer_flits would be bars of one pattern; at most 8"},
		{"entropy-table2 without gt.a", collectiveBase + "[[axis]]\nkey = \"policy.injection\"\nvalues = [\"noth\", \"gt.x(4,90,80,80)\"]\n", "entropy-table2", "no policy.injection value is gt.a"},
		{"unknown", fatTreeBase + patternAxis, "izu-fig7", `plot.paper_form = "izu-fig7": allowed: "" (no paper form), "izu-fig3"`},
	} {
		src := c.study
		if c.form != "" {
			src += "[plot]\npaper_form = \"" + c.form + "\"\n"
		}
		_, err := ParseFile("forms.toml", []byte(src))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && err == nil:
			t.Errorf("%s: accepted, want an error with %q", c.name, c.want)
		case c.want != "" && (!strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "forms.toml") || !strings.Contains(err.Error(), "plot.paper_form")):
			t.Errorf("%s: %v, want an error of forms.toml's plot.paper_form with %q", c.name, err, c.want)
		}
	}
}

// TestAxesApart: the axes apart from keys leave out the keys' zip
// partners.
func TestAxesApart(t *testing.T) {
	f, err := ParseFile("z.toml", []byte(meshIOQ+
		"[[axis]]\nkey = \"network.mesh.k\"\nvalues = [8, 4]\nzip = \"c\"\n[[axis]]\nkey = \"traffic.hotspot_node\"\nvalues = [3, 3]\nzip = \"c\"\n"+
		"[[axis]]\nkey = \"router.ioq.queues\"\nvalues = [\"1q\", \"recn\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ keys, want []string }{
		{[]string{"network.mesh.k"}, []string{"router.ioq.queues"}},
		{[]string{"router.ioq.queues"}, []string{"network.mesh.k", "traffic.hotspot_node"}},
		{nil, []string{"network.mesh.k", "traffic.hotspot_node", "router.ioq.queues"}},
		{[]string{"traffic.hotspot_node", "router.ioq.queues"}, nil},
	} {
		if got := f.AxesApart(c.keys...); !slices.Equal(got, c.want) {
			t.Errorf("AxesApart(%v) = %v, want %v", c.keys, got, c.want)
		}
	}
}

// TestValueCombos: a swept key takes its axis's values, advancing with
// the axes zipped with it; a fixed key the base's value; duplicates once.
func TestValueCombos(t *testing.T) {
	f, err := ParseFile("z.toml", []byte(meshIOQ+
		"[[axis]]\nkey = \"network.mesh.k\"\nvalues = [8, 4]\nzip = \"c\"\n[[axis]]\nkey = \"traffic.hotspot_node\"\nvalues = [3, 3]\nzip = \"c\"\n"+
		"[[axis]]\nkey = \"router.ioq.queues\"\nvalues = [\"1q\", \"recn\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		keys []string
		want [][]string
	}{
		{[]string{"network.mesh.k", "network.mesh.concentration"}, [][]string{{"8", "1"}, {"4", "1"}}},
		{[]string{"network.mesh.k", "traffic.hotspot_node"}, [][]string{{"8", "3"}, {"4", "3"}}},
		{[]string{"traffic.hotspot_node"}, [][]string{{"3"}}},
		{[]string{"network.mesh.k", "router.ioq.queues"}, [][]string{{"8", "1q"}, {"8", "recn"}, {"4", "1q"}, {"4", "recn"}}},
		{[]string{"traffic.pattern"}, [][]string{{"hotspot-sources"}}},
	} {
		if got := f.ValueCombos(c.keys...); !slices.EqualFunc(got, c.want, slices.Equal) {
			t.Errorf("ValueCombos(%v) = %v, want %v", c.keys, got, c.want)
		}
	}
}
