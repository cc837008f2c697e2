package study

import (
	"strings"
	"testing"

	"github.com/icnsim/icnsim/topology/grid"
)

// TestFamilyTables: a topology's keys are read from its own table; a key
// of the flat [network] table of earlier versions gets an error naming
// its new place; a family's table (or an axis over one of its keys) that
// no point selects is refused rather than ignored; a study that sweeps
// the topology may set the table of each.
func TestFamilyTables(t *testing.T) {
	const rest = "[router]\nrouting = \"dor\"\nvc.vcs = 2\n[traffic]\nprocess = \"bernoulli\"\n"
	for _, c := range []struct {
		name, src string
		want      []string // nil: accepted
	}{
		{"own table", "[network]\ntopology = \"mesh\"\n[network.mesh]\nk = 8\nconcentration = 2\n" + rest, nil},
		{"flat k", "[network]\ntopology = \"mesh\"\nk = 8\n" + rest,
			[]string{"f.toml:3: network.k", "moved to network.mesh.k", "[network.mesh]"}},
		{"flat key the topology lacks", "[network]\ntopology = \"torus\"\nconcentration = 2\n" + rest,
			[]string{"f.toml:3: network.concentration", "network.mesh.concentration", `network.topology = "torus" has no concentration`}},
		{"file as a path", "[network]\ntopology = \"file\"\nfile = \"net.txt\"\n" + rest,
			[]string{"f.toml:3: network.file = \"net.txt\"", "network.file.path"}},
		{"a table nothing selects", "[network]\ntopology = \"mesh\"\n[network.torus]\nk = 8\n" + rest,
			[]string{"f.toml:3: network.torus", `the table of network.topology = "torus", which nothing here selects (network.topology: mesh)`}},
		{"a key under the wrong family", "[network]\ntopology = \"mesh\"\n[network.mesh]\nlevels = 3\n" + rest,
			[]string{"f.toml:4: network.mesh.levels", "[network.fattree]"}},
		{"an axis over a table no point selects", "[network]\ntopology = \"mesh\"\n" + rest + "[[axis]]\nkey = \"network.torus.k\"\nvalues = [4, 8]\n",
			[]string{"network.torus.k", "no point selects"}},
		{"a sweep over the topology", "[network]\ntopology = \"mesh\"\n[network.mesh]\nk = 4\n[network.torus]\nk = 4\n" + rest +
			"[[axis]]\nkey = \"network.topology\"\nvalues = [\"mesh\", \"torus\"]\nzip = \"r\"\n[[axis]]\nkey = \"router.routing\"\nvalues = [\"dor\", \"dor-dateline\"]\nzip = \"r\"\n" +
			"[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 3]\nzip = \"r\"\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			parseTable(t, c.src, c.want, func(f *File) {
				if !strings.Contains(c.name, "sweep") {
					return
				}
				if k := f.Points[1].Config.Network.Torus.K; f.Points[1].Config.Network.Topology != "torus" || k != grid.Side(4) {
					t.Errorf("point 1: %s with torus k = %d, want a 4x4 torus", f.Points[1].Config.Network.Topology, k)
				}
			})
		})
	}
}

// parseTable parses src as a study file and fails unless it is accepted
// (want nil; accepted then checks it) or refused with an error holding
// every string of want.
func parseTable(t *testing.T, src string, want []string, accepted func(*File)) {
	t.Helper()
	f, err := ParseFile("f.toml", []byte(src))
	switch {
	case want == nil && err != nil:
		t.Fatalf("refused: %v", err)
	case want == nil:
		accepted(f)
	case err == nil:
		t.Fatalf("accepted, want %q", want)
	default:
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q lacks %q", err, w)
			}
		}
	}
}

// TestFamilyTablesSelectedOnly: a configuration's TOML (records, resume)
// holds its topology's table only, and reads back to the same TOML.
func TestFamilyTablesSelectedOnly(t *testing.T) {
	c := Default()
	c.Network.Topology, c.Network.Mesh.K = "mesh", grid.Side(8)
	c.Router.Routing = "dor"
	text := c.TOML()
	if !strings.Contains(text, "[network.mesh]") || strings.Contains(text, "[network.torus]") || strings.Contains(text, "[network.fattree]") {
		t.Fatalf("TOML holds other families' tables:\n%s", text)
	}
	back, err := Parse("c.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if back.TOML() != text || back.Network.Mesh.K != grid.Side(8) {
		t.Errorf("round trip changed the configuration:\n%s\n---\n%s", text, back.TOML())
	}
}

// TestKindTables: a router kind's keys are read from its own table
// ([router.vc], [router.ioq] with [router.ioq.recn]); a key of the flat
// [router] table of earlier versions gets an error naming its new place;
// a kind's table (or an axis over one of its keys) that no point selects
// is refused; a study that sweeps router.kind may set the table of each.
func TestKindTables(t *testing.T) {
	const mesh = "[network]\ntopology = \"mesh\"\n[network.mesh]\nk = 4\n"
	const traffic = "[traffic]\nprocess = \"bernoulli\"\npattern = \"hotspot-sources\"\n"
	for _, c := range []struct {
		name, src string
		want      []string // nil: accepted
	}{
		{"vc table", mesh + "[router]\nrouting = \"dor\"\n[router.vc]\nvcs = 2\nbuffer_flits = 8\n" + traffic, nil},
		{"ioq table", mesh + "[router]\nkind = \"ioq\"\nrouting = \"dor\"\n[router.ioq]\nqueues = \"recn\"\nport_memory_bytes = 16384\n[router.ioq.recn]\nsaqs = 4\n" + traffic, nil},
		{"flat vcs", mesh + "[router]\nrouting = \"dor\"\nvcs = 2\n" + traffic,
			[]string{"f.toml:7: router.vcs", "moved to router.vc.vcs", "[router.vc]"}},
		{"flat queues on the vc router", mesh + "[router]\nrouting = \"dor\"\nqueues = \"recn\"\n" + traffic,
			[]string{"f.toml:7: router.queues", "router.ioq.queues", `router.kind = "vc" has no queues`}},
		{"flat recn table", mesh + "[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n[router.recn]\nsaqs = 4\n" + traffic,
			[]string{"f.toml:8: router.queues", "moved to router.ioq.queues", "router.ioq.recn"}},
		{"a kind's table nothing selects", mesh + "[router]\nrouting = \"dor\"\n[router.ioq]\nqueues = \"voq-sw\"\n" + traffic,
			[]string{"f.toml:7: router.ioq", `the table of router.kind = "ioq", which nothing here selects (router.kind: vc)`}},
		{"the vc table under the switch", mesh + "[router]\nkind = \"ioq\"\nrouting = \"dor\"\n[router.vc]\nvcs = 2\n" + traffic,
			[]string{"router.vc", `the table of router.kind = "vc", which nothing here selects (router.kind: ioq)`}},
		{"recn keys without recn", mesh + "[router]\nkind = \"ioq\"\nrouting = \"dor\"\n[router.ioq.recn]\nsaqs = 4\n" + traffic,
			[]string{"router.ioq.recn.saqs = 4", `applies to router.ioq.queues = "recn" only`}},
		{"an axis over a kind no point selects", mesh + "[router]\nrouting = \"dor\"\n" + traffic + "[[axis]]\nkey = \"router.ioq.queues\"\nvalues = [\"1q\", \"recn\"]\n",
			[]string{"router.ioq.queues", "no point selects"}},
		{"a sweep over the kind", mesh + "[router]\nrouting = \"dor\"\n[router.vc]\nvcs = 1\nbuffer_flits = 64\n[router.ioq]\nport_memory_bytes = 16384\n" + traffic +
			"[[axis]]\nkey = \"router.kind\"\nvalues = [\"vc\", \"ioq\"]\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			parseTable(t, c.src, c.want, func(f *File) {
				last := f.Points[len(f.Points)-1].Config
				if strings.Contains(c.name, "sweep") && (last.Router.Kind != "ioq" || last.Router.IOQ.PortMemoryBytes != 16384 || f.Points[0].Config.Router.VC.BufferFlits != 64) {
					t.Errorf("points: %+v / %+v, want the vc router's table on the first, the switch's on the second", f.Points[0].Config.Router, last.Router)
				}
			})
		})
	}
}

// TestKindTablesSelectedOnly: a configuration's TOML holds its router
// kind's table only, and reads back to the same TOML.
func TestKindTablesSelectedOnly(t *testing.T) {
	c := Default()
	c.Network.Topology, c.Network.Mesh.K = "mesh", grid.Side(4)
	c.Router.Kind, c.Router.Routing, c.Router.IOQ.Queues, c.Router.IOQ.RECN.SAQs = "ioq", "dor", "recn", 4
	c.Traffic.Pattern = "uniform"
	text := c.TOML()
	if !strings.Contains(text, "[router.ioq]") || !strings.Contains(text, "[router.ioq.recn]") || strings.Contains(text, "[router.vc]") {
		t.Fatalf("TOML holds another kind's table, or lacks its own:\n%s", text)
	}
	back, err := Parse("c.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if back.TOML() != text || back.Router.IOQ.RECN.SAQs != 4 {
		t.Errorf("round trip changed the configuration:\n%s\n---\n%s", text, back.TOML())
	}
}
