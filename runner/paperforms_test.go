package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/repro"
	"github.com/icnsim/icnsim/study"
)

// Tiny studies of each paper form: the paper's axes at a size that runs in
// a moment (their numbers mean nothing; the published values are invented
// for the test, at the points the figures must place them).
const (
	tinyFatTree = "seed = 1\n[network]\ntopology = \"fattree\"\n\n[network.fattree]\nk = 2\nlevels = 2\n[router]\nvc.vcs = 1\nvc.buffer_flits = 32\nvc.switching = \"vct\"\n" +
		"[traffic]\nprocess = \"bernoulli\"\nload_flits_per_node_cycle = 1.0\nsource_queue_packets = 4\nself = \"skip\"\npacket_flits = 4\n"
	tinyWindow         = "[measure]\nwarmup_cycles = 200\nmeasure_cycles = 400\ndrain_cycles = 0\nsample_cycles = 0\n"
	tinyBatches        = "[measure]\nmethod = \"packet-batches\"\nwarmup_cycles = 200\ndrain_cycles = 0\nsample_cycles = 0\n"
	tinyRoutingPattern = "[[axis]]\nkey = \"router.routing\"\nvalues = [\"fattree-static\", \"fattree-adaptive\"]\n" +
		"[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"shuffle\"]\n"
	tinyRECN = "seed = 1\n[network]\ntopology = \"mesh\"\n\n[network.mesh]\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.port_memory_bytes = 4096\n" +
		"[traffic]\npattern = \"hotspot-sources\"\nprocess = \"bernoulli\"\nhotspot_node = 10\npacket_flits = 8\n" +
		"[measure]\nwarmup_cycles = 200\nmeasure_cycles = 400\ndrain_cycles = 0\nsample_cycles = 0\n"
	tinyHAR = "seed = 1\n[network]\ntopology = \"mesh\"\n\n[network.mesh]\nk = 4\nnode_channels = 2\n[router]\nvc.vcs = 4\nvc.buffer_flits = 8\nvc.switching = \"wormhole\"\nrouting_delay_cycles = 2\n" +
		"[traffic]\npattern = \"uniform\"\nself = \"skip\"\nprocess = \"poisson\"\npacket_flits = 4\nlong_packet_flits = 16\nload_of_wire_capacity = 0.1\n" +
		"[measure]\nwarmup_cycles = 200\nmeasure_cycles = 600\ndrain_cycles = 2000\nsample_cycles = 0\n" +
		"[[axis]]\nkey = \"router.routing\"\nvalues = [\"har-dor\", \"hybrid-har\"]\n[[axis]]\nkey = \"traffic.long_volume_percent\"\nvalues = [0, 50]\n"
	tinyCollective = "seed = 1\n[network]\ntopology = \"torus\"\n\n[network.torus]\nk = 4\n[router]\nrouting = \"dor-dateline\"\nvc.vcs = 3\nvc.buffer_flits = 15\nvc.switching = \"vct\"\nrouting_delay_cycles = 0\n" +
		"[traffic]\nprocess = \"collective\"\npackets_per_node = 2\npacket_flits = 8\n[policy]\ncircuit_lanes = \"dedicated\"\n[measure]\nsample_cycles = 0\nstall_cycles = 2000\n" +
		"[study]\nreplicates = 3\n" +
		"[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"transpose\", \"uniform\"]\n[[axis]]\nkey = \"policy.injection\"\nvalues = [\"noth\", \"gt.a(4,90,80,80)\", \"gt.a(8,90,80,80)\"]\n"
)

// TestPaperForms: a study with plot.paper_form writes plots/paper-FORM.svg
// beside the generic figures, its CSV holds our points and the published
// values (each row saying which it is) where the form places them, and
// paperCaption has a sentence for that file and for no other.
func TestPaperForms(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string // lines (or parts of lines) of the CSV
		not       []string // and what it must not hold
	}{
		{"izu-fig3", "name = \"izu3\"\n" + tinyFatTree + tinyWindow + tinyRoutingPattern +
			"[[axis]]\nkey = \"policy.injection\"\nvalues = [\"none\", \"sat(8,8,ring)\"]\n[plot]\npaper_form = \"izu-fig3\"\n" +
			"[[reference]]\nsource = \"Paper A, Fig. 3\"\nmetric = \"node_injected_min_flits_per_cycle\"\nvalue = 0.16\n" +
			"at = { \"router.routing\" = \"fattree-adaptive\", \"traffic.pattern\" = \"shuffle\", \"policy.injection\" = \"none\" }\n",
			[]string{"group,series,kind,value,source", "uniform,\"static routing, no SAT\",minimum,", "shuffle,\"adaptive routing, SAT l8k8\",average,",
				"shuffle,\"adaptive routing, no SAT\",published minimum,0.16,\"Paper A, Fig. 3\""}, nil},
		{"izu-fig5", "name = \"izu5\"\n" + strings.Replace(tinyFatTree, "[router]\n", "[router]\nrouting = \"fattree-adaptive\"\n", 1) + tinyBatches +
			"[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"shuffle\"]\n[[axis]]\nkey = \"policy.injection\"\nvalues = [\"none\", \"sat(8,8,ring)\"]\n" +
			"[plot]\npaper_form = \"izu-fig5\"\n" +
			"[[reference]]\nsource = \"Paper A, Fig. 5\"\nmetric = \"node_injected_min_flits_per_cycle\"\nvalue = 0.22\nat = { \"traffic.pattern\" = \"shuffle\", \"policy.injection\" = \"sat(8,8,ring)\" }\n",
			[]string{"panel,series,kind,x,y,label", "(a) uniform,no SAT,icnsim,0,", "(b) shuffle,SAT l8k8,icnsim,1,", "(b) shuffle,SAT l8k8,published minimum,,0.22,0.22"},
			// The perfect shuffle of 4 nodes maps nodes 0 and 3 onto
			// themselves: they send nothing and are no points.
			[]string{"(b) shuffle,no SAT,icnsim,0,", "(b) shuffle,no SAT,icnsim,3,"}},
		{"recn-fig2", "name = \"recn2\"\n" + tinyRECN +
			"[[axis]]\nkey = \"traffic.hotspot_source_fraction\"\nvalues = [0, 0.25]\n[[axis]]\nkey = \"router.ioq.queues\"\nvalues = [\"1q\", \"recn\"]\n" +
			"[[axis]]\nkey = \"traffic.load_of_bisection\"\nvalues = [0.5, 1.0]\n[plot]\npaper_form = \"recn-fig2\"\n" +
			"[[reference]]\nsource = \"Paper B, Fig. 2\"\nmetric = \"relative_throughput\"\nvalue = 0.9\n" +
			"at = { \"traffic.hotspot_source_fraction\" = 0.25, \"router.ioq.queues\" = \"recn\", \"traffic.load_of_bisection\" = 1.0 }\n",
			// Configuration #5 is the third column of the paper's grid: its
			// panels are (c) under case #1 and (i) under case #3.
			[]string{"\"(c) #5, case #1\",1Q,icnsim,50,", "\"(i) #5, case #3\",RECN,icnsim,100,", "\"(i) #5, case #3\",Paper B,published,100,90,"}, nil},
		{"recn-fig3", "name = \"recn3\"\n" + strings.NewReplacer("routing = \"dor\"\n", "routing = \"dor\"\nioq.queues = \"recn\"\n",
			"hotspot_node = 10\n", "hotspot_node = 10\nhotspot_source_fraction = 0.25\n").Replace(tinyRECN) +
			"[[axis]]\nkey = \"traffic.load_of_bisection\"\nvalues = [0.5, 1.0]\n[plot]\npaper_form = \"recn-fig3\"\n",
			[]string{"(a) ingress,configuration #5 (4x4),icnsim,50,", "(b) egress,,limit,,8,8 SAQs per port"}, nil},
		{"har-fig6", "name = \"har6\"\n" + tinyHAR + "[plot]\npaper_form = \"har-fig6\"\n" +
			"[[reference]]\nsource = \"Paper C, Fig. 6\"\nmetric = \"short_latency_max_cycles\"\nvalue = 3400\nat = { \"router.routing\" = \"har-dor\", \"traffic.long_volume_percent\" = 50 }\n",
			[]string{"(a) DOR,P = 0%,icnsim,", "(b) Hybrid-HAR,P = 50%,icnsim,", "(a) DOR,P = 50%,published largest delay,3400,,\"3,400\""}, nil},
		{"entropy-table2", "name = \"table2\"\n" + tinyCollective + "[plot]\npaper_form = \"entropy-table2\"\n" +
			"[[reference]]\nsource = \"Paper D, Table 2\"\nmetric = \"collective_duration_cycles\"\nvalue = 130.5\nat = { \"traffic.pattern\" = \"transpose\", \"policy.injection\" = \"gt.a(8,90,80,80)\" }\n",
			[]string{"group,series,kind,value,low,high,source", "trns,t_G = 4,icnsim,", "rand,t_G = 8,icnsim,", "trns,t_G = 8,published,130.5,,,Paper D"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := parse(t, c.src)
			d := t.TempDir()
			run(t, f, Options{Out: d})
			form, _ := study.SplitPaperForm(f.Plot.PaperForm)
			base := filepath.Join(d, "plots", "paper-"+form)
			if _, err := os.Stat(base + ".svg"); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(base + ".csv")
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("%s.csv lacks %q:\n%s", base, w, head(string(b), 30))
				}
			}
			for _, w := range c.not {
				if strings.Contains(string(b), w) {
					t.Errorf("%s.csv holds %q", base, w)
				}
			}
			if s, ok := repro.Caption(f, "paper-"+form); !ok || !strings.HasSuffix(s, ".") || len(strings.Fields(s)) < 12 {
				t.Errorf("caption of paper-%s: %q, %v; want a sentence", form, s, ok)
			}
			if _, ok := repro.Caption(f, "latency-cdf"); ok {
				t.Error("a caption for a generic figure")
			}
		})
	}
}

// head is the first n lines of s.
func head(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// TestPaperFormIzuFig4Baseline: "izu-fig4:STUDY" draws the no-SAT rates of
// the study directory STUDY beside this one's; without it the figure is
// still drawn, with a note and no no-SAT line.
func TestPaperFormIzuFig4Baseline(t *testing.T) {
	root := t.TempDir()
	run(t, parse(t, "name = \"base\"\n"+tinyFatTree+tinyWindow+tinyRoutingPattern+
		"[[axis]]\nkey = \"policy.injection\"\nvalues = [\"none\", \"sat(8,8,ring)\"]\n"), Options{Out: filepath.Join(root, "base")})
	fig4 := "name = \"fig4\"\n" + tinyFatTree + "[policy]\ninjection = \"sat\"\n" + tinyWindow +
		"[[axis]]\nkey = \"policy.sat_l\"\nvalues = [4, 8]\nzip = \"lk\"\n[[axis]]\nkey = \"policy.sat_k\"\nvalues = [4, 8]\nzip = \"lk\"\n" + tinyRoutingPattern +
		"[plot]\nmax_lines = 0\npaper_form = \"izu-fig4:%s\"\n" +
		"[[reference]]\nsource = \"Paper A, Fig. 4\"\nmetric = \"node_injected_min_flits_per_cycle\"\nvalue = 0.22\n" +
		"at = { \"policy.sat_l\" = 8, \"policy.sat_k\" = 8, \"traffic.pattern\" = \"shuffle\", \"router.routing\" = \"fattree-adaptive\" }\n"
	for _, c := range []struct {
		baseline string
		noSAT    bool
	}{{"base", true}, {"missing", false}} {
		d := filepath.Join(root, "fig4-"+c.baseline)
		run(t, parse(t, strings.Replace(fig4, "%s", c.baseline, 1)), Options{Out: d})
		b, err := os.ReadFile(filepath.Join(d, "plots", "paper-izu-fig4.csv"))
		if err != nil {
			t.Fatal(err)
		}
		csv := string(b)
		for _, w := range []string{"\"(a) average, static routing\",uniform,icnsim,4,", "\"(d) minimum, adaptive routing\",shuffle,icnsim,8,",
			"\"(d) minimum, adaptive routing\",Paper A,published,8,0.22,"} {
			if !strings.Contains(csv, w) {
				t.Errorf("baseline %s: the CSV lacks %q", c.baseline, w)
			}
		}
		if got := strings.Count(csv, ",no SAT,"); c.noSAT && got != 8 || !c.noSAT && got != 0 {
			// 2 routings x 2 patterns x (average, minimum)
			t.Errorf("baseline %s: %d no-SAT rows, want %d", c.baseline, got, map[bool]int{true: 8}[c.noSAT])
		}
		if _, err := os.Stat(filepath.Join(d, "plots", "paper-izu-fig4.svg")); err != nil {
			t.Error(err)
		}
	}
}

// TestPaperFormRefused: a study refuses a form it has not the axes of, at
// validation, before anything runs.
func TestPaperFormRefused(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"name = \"x\"\n" + tinyFatTree + tinyWindow + tinyRoutingPattern + "[plot]\npaper_form = \"recn-fig1\"\n", `network.topology = "fattree", not "mesh"`},
		{"name = \"x\"\n" + tinyFatTree + tinyWindow + tinyRoutingPattern + "[plot]\npaper_form = \"izu-fig4\"\n", `policy.injection = "none", not "sat"`},
		{"name = \"x\"\n" + tinyHAR + "[plot]\npaper_form = \"entropy-table2\"\n", `traffic.process = "poisson", not "collective"`},
	} {
		_, err := study.ParseFile("x.toml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), "plot.paper_form") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want an error of plot.paper_form with %q", err, c.want)
		}
	}
}
