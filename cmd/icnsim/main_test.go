package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary act as icnsim itself (ICNSIM_AS_MAIN=1), so
// tests can check real exit codes and that no Go panic reaches the user.
func TestMain(m *testing.M) {
	if os.Getenv("ICNSIM_AS_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func icnsim(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ICNSIM_AS_MAIN=1")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// TestBadInput: each malformed or invalid file gives one clear error naming
// the file, key path, bad value and what is allowed, and a non-zero exit.
func TestBadInput(t *testing.T) {
	cases := []struct {
		name, toml string
		want       []string // all must appear in the error
	}{
		{"unknown top-level key", "colour = \"red\"\n", []string{":1:", "colour", "unknown key", "allowed here"}},
		{"unknown nested key", "[router]\nvc = 3\n", []string{":2:", "router.vc", "allowed here", "vcs"}},
		{"unknown table", "[routr]\nvcs = 3\n", []string{"routr.vcs", "unknown key"}},
		{"wrong type", "[router]\nvcs = \"three\"\n", []string{":2:", `router.vcs = "three"`, "wrong type: a string where an integer is needed"}},
		{"syntax error", "[router\nvcs = 3\n", []string{":2:", "to end table name"}},
		{"negative k", "[network]\nk = -4\n", []string{":2:", "network.k = -4", "2..1024"}},
		{"unknown topology", "[network]\ntopology = \"ring\"\n", []string{"network.topology = \"ring\"", "torus, mesh"}},
		{"concentration on a torus", "[network]\nconcentration = 4\n", []string{"network.concentration = 4", "meshes"}},
		{"unknown routing", "[router]\nrouting = \"xy\"\n", []string{"router.routing = \"xy\"", "dor, dor-2class, dor-dateline"}},
		{"routing on wrong topology", "[network]\ntopology = \"mesh\"\n", []string{"router.routing = \"dor-dateline\"", "for a mesh use dor"}},
		{"too few VCs", "[router]\nvcs = 2\n", []string{":2:", "router.vcs = 2", "at least 3", "channel dependency cycle", " -> "}},
		{"dor on a torus", "[router]\nrouting = \"dor\"\nvcs = 1\n", []string{"router.vcs = 1", "can deadlock", "R(0,0).E vc0 -> R(1,0).E vc0", "allow_deadlock"}},
		{"too many VCs", "[router]\nvcs = 65\n", []string{"router.vcs = 65", "1..64"}},
		{"vct buffer smaller than packet", "[router]\nbuffer_flits = 4\n", []string{"router.buffer_flits = 4", "at least 8 flits, the largest packet"}},
		{"unknown switching", "[router]\nswitching = \"saf\"\n", []string{"router.switching = \"saf\"", "vct, wormhole"}},
		{"zero link latency", "[router]\nlink_latency_cycles = 0\n", []string{"router.link_latency_cycles = 0", "1..1000"}},
		{"load above one", "[traffic]\nprocess = \"bernoulli\"\nload_flits_per_node_cycle = 1.5\n", []string{":3:", "traffic.load_flits_per_node_cycle = 1.5", "<= 1"}},
		{"unknown pattern", "[traffic]\npattern = \"tornadoes\"\n", []string{"traffic.pattern = \"tornadoes\"", "uniform"}},
		{"bit pattern on non-power-of-two", "[network]\nk = 6\n[traffic]\npattern = \"bit-reverse\"\n", []string{"traffic.pattern = \"bit-reverse\"", "36 nodes"}},
		{"unknown process", "[traffic]\nprocess = \"burst\"\n", []string{"traffic.process = \"burst\"", "collective"}},
		{"hotspot fraction", "[traffic]\nhotspot_fraction = 2.0\n", []string{"traffic.hotspot_fraction = 2", "0..1"}},
		{"load of bisection negative", "[traffic]\nprocess = \"bernoulli\"\nload_of_bisection = -1\n", []string{"traffic.load_of_bisection = -1", "> 0"}},
		{"load of bisection too high", "[traffic]\nprocess = \"bernoulli\"\nload_of_bisection = 5\n", []string{"traffic.load_of_bisection = 5", "at most 4"}},
		{"load of bisection and wire capacity", "[traffic]\nprocess = \"bernoulli\"\nload_of_bisection = 0.5\nload_of_wire_capacity = 0.5\n", []string{"traffic.load_of_bisection = 0.5", "one key only"}},
		{"unknown router kind", "[router]\nkind = \"crossbar\"\n", []string{":2:", "router.kind = \"crossbar\"", "vc", "ioq"}},
		{"unknown queue organisation", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"voq\"\n", []string{"router.queues = \"voq\"", "1q, recn, voq-net, voq-sw"}},
		{"ioq memory not whole flits", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nport_memory_bytes = 1001\n", []string{"router.port_memory_bytes = 1001", "whole number of flits"}},
		{"voq-net share below a packet", "[network]\ntopology = \"mesh\"\nk = 16\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"voq-net\"\nport_memory_bytes = 8192\n", []string{"router.port_memory_bytes = 8192", "256 queues of 4 flits", "whole packet"}},
		{"ioq on a fat-tree", "[network]\ntopology = \"fattree\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\n", []string{"network.topology = \"fattree\"", "meshes"}},
		{"ioq on a torus", "[network]\ntopology = \"torus\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\n", []string{"router.kind = \"ioq\"", "can deadlock", "allow_deadlock"}},
		{"ioq with adaptive routing", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"min-adaptive\"\n", []string{"router.routing = \"min-adaptive\"", "allowed: dor"}},
		{"ioq with VCs", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nvcs = 4\n", []string{"router.vcs = 4", "router.kind = \"vc\" only"}},
		{"ioq with entropy throttling", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\n[policy]\ninjection = \"base\"\n", []string{"policy.injection = \"base\"", "router.kind = \"vc\" only"}},
		{"queues on the VC router", "[router]\nqueues = \"voq-sw\"\n", []string{"router.queues = \"voq-sw\"", "ioq"}},
		{"recn xon above xoff", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n[router.recn]\nxon_fraction = 0.02\n", []string{"router.recn.xon_fraction = 0.02", "below the Xoff threshold"}},
		{"recn xoff below detection", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n[router.recn]\ndetect_fraction = 0.05\n", []string{"router.recn.xoff_fraction = 0.01", "below the detection threshold"}},
		{"recn threshold under a flit", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n[router.recn]\ndetect_fraction = 0.00001\n", []string{"router.recn.detect_fraction = 1e-05", "0 flits", "whole flits"}},
		{"recn no SAQs", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n[router.recn]\nsaqs = 0\n", []string{"router.recn.saqs = 0", "allowed 1..64"}},
		{"recn too many queues", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n[router.recn]\nsaqs = 64\n", []string{"router.recn.saqs = 64", "at most 64 queues per port memory"}},
		{"recn control lanes", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n[router.recn]\ncontrol_lanes = \"steal\"\n", []string{"router.recn.control_lanes = \"steal\"", "shared", "dedicated"}},
		{"recn keys without recn", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"voq-sw\"\n[router.recn]\nsaqs = 4\n", []string{"router.recn = 4", "router.queues = \"recn\" only"}},
		{"recn on a torus", "[network]\ntopology = \"torus\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\nallow_deadlock = true\n", []string{"router.queues = \"recn\"", "mesh"}},
		{"recn on a 128x128 mesh", "[network]\ntopology = \"mesh\"\nk = 128\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n", []string{"network.k = 128", "<= 127"}},
		{"zero link rate", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nlink_gbps = 0.0\n", []string{"router.link_gbps = 0", "> 0"}},
		{"hotspot source fraction", "[traffic]\nhotspot_source_fraction = 1.5\n", []string{"traffic.hotspot_source_fraction = 1.5", "0..1"}},
		{"bad phase pattern", "[traffic]\nphase_cycle = 100\nphase_pattern = \"nope\"\n", []string{"traffic.phase_pattern = \"nope\""}},
		{"unknown injection gate", "[policy]\ninjection = \"entropy\"\n", []string{":2:", "policy.injection = \"entropy\"", "none"}},
		{"unknown method", "[measure]\nmethod = \"auto\"\n", []string{"measure.method = \"auto\"", "window, batches"}},
		{"watchdog below the pipeline", "[measure]\nwatchdog_cycles = 50\n", []string{":2:", "measure.watchdog_cycles = 50", ">= 110"}},
		{"zero measure cycles", "[measure]\nmeasure_cycles = 0\n", []string{"measure.measure_cycles = 0", ">= 1"}},
	}
	dir := t.TempDir()
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".toml")
			if err := os.WriteFile(path, []byte(c.toml), 0o644); err != nil {
				t.Fatal(err)
			}
			// In-process for the message, and (for a sample) as a real process for the exit code.
			err := newApp(&bytes.Buffer{}).RunContext(context.Background(), []string{"icnsim", "validate", path})
			if err == nil {
				t.Fatal("accepted")
			}
			msg := err.Error()
			for _, w := range append(c.want, path) {
				if !strings.Contains(msg, w) {
					t.Errorf("error does not mention %q:\n%s", w, msg)
				}
			}
			if i%4 == 0 {
				_, stderr, code := icnsim(t, "run", path)
				if code == 0 || strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") {
					t.Errorf("exit code %d, stderr:\n%s", code, stderr)
				}
				if !strings.HasPrefix(stderr, "icnsim: ") {
					t.Errorf("stderr does not start with one clear message:\n%s", stderr)
				}
			}
		})
	}
}

func TestRunDefaultAndDigest(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the built-in scenario")
	}
	out, stderr, code := icnsim(t, "run", "--exec", "serial")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out2, _, _ := icnsim(t, "run", "--exec", "shards", "--workers", "3")
	digests := func(s string) (d []string) {
		for _, l := range strings.Split(s, "\n") {
			if i := strings.Index(l, "digest: "); i >= 0 {
				d = append(d, l[i:])
			}
		}
		return
	}
	d1, d2 := digests(out), digests(out2)
	if len(d1) != 2 || strings.Join(d1, ",") != strings.Join(d2, ",") {
		t.Fatalf("digests differ or are missing:\n%v\n%v", d1, d2)
	}
	if !strings.Contains(out, "tornado") || !strings.Contains(out, "uniform") {
		t.Fatalf("table lacks the two cases:\n%s", out)
	}
}

func TestConfigDefaultValidates(t *testing.T) {
	var buf bytes.Buffer
	if err := newApp(&buf).Run([]string{"icnsim", "config", "--default"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "d.toml")
	os.WriteFile(path, buf.Bytes(), 0o644)
	var out bytes.Buffer
	if err := newApp(&out).Run([]string{"icnsim", "validate", path}); err != nil {
		t.Fatal(err)
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--exec", "threads"},
		{"bench", "--scenario", "nope"},
		{"bench", "--workers", "0"},
	} {
		_, stderr, code := icnsim(t, args...)
		if code == 0 || strings.Contains(stderr, "goroutine ") {
			t.Errorf("%v: exit %d, stderr %s", args, code, stderr)
		}
	}
}

func TestFlagsAfterFile(t *testing.T) {
	app := newApp(&bytes.Buffer{})
	got := flagsFirst(app, []string{"icnsim", "run", "a.toml", "--out", "d", "--checks", "--seed=3", "--", "-x"})
	want := []string{"icnsim", "run", "--out", "d", "--checks", "--seed=3", "a.toml", "--", "-x"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got %v, want %v", got, want)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.toml")
	os.WriteFile(cfg, []byte("[network]\nk = 4\n[traffic]\npackets_per_node = 2\n"), 0o644)
	out := filepath.Join(dir, "out")
	if _, stderr, code := icnsim(t, "run", cfg, "--out", out, "--exec", "serial"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"results.json", "results.csv"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}
