package runner

import (
	"path/filepath"
	"testing"

	"github.com/icnsim/icnsim/internal/dirtest"
)

// hystSweepTOML is a small exhaustive hyst sweep: collective bursts on an
// 8x8 torus, 2 patterns x 7 R_ON x 6 R_OFF x 4 R_n = 336 runs.
const hystSweepTOML = `name = "hyst-sweep-small"
seed = 3
[network]
topology = "torus"

[network.torus]
k = 8
[router]
routing = "dor-dateline"
vc.vcs = 3
vc.buffer_flits = 15
routing_delay_cycles = 0
[traffic]
process = "collective"
packets_per_node = 6
packet_flits = 8
[policy]
injection = "hyst"
[measure]
sample_cycles = 0
stall_cycles = 2000
[[axis]]
key = "traffic.pattern"
values = ["uniform", "bit-complement"]
[[axis]]
key = "policy.r_on_percent"
values = [0, 20, 40, 60, 80, 95, 100]
[[axis]]
key = "policy.r_off_percent"
values = [10, 40, 70, 90, 98, 100]
[[axis]]
key = "policy.r_n_percent"
values = [0, 10, 50, 90]
`

// TestReuseGivesTheSimulatedResults: a threshold sweep that reproduces runs
// from equivalent ones writes the same files, byte for byte, as one that
// simulates every run, with one job or two; and it does reproduce some.
func TestReuseGivesTheSimulatedResults(t *testing.T) {
	f := parse(t, hystSweepTOML)
	root := t.TempDir()
	all := filepath.Join(root, "all")
	o := run(t, f, Options{Jobs: 2, Out: all, NoReuse: true})
	if !o.Complete || o.Ran != len(f.Runs()) || o.Reproduced != 0 {
		t.Fatalf("--no-reuse: complete %v, ran %d of %d, reproduced %d", o.Complete, o.Ran, len(f.Runs()), o.Reproduced)
	}
	for _, jobs := range []int{1, 2} {
		d := filepath.Join(root, "reuse", string(rune('0'+jobs)))
		o := run(t, f, Options{Jobs: jobs, Out: d})
		t.Logf("jobs %d: %d runs simulated, %d reproduced", jobs, o.Ran, o.Reproduced)
		if !o.Complete || o.Ran+o.Reproduced != len(f.Runs()) {
			t.Fatalf("jobs %d: complete %v, %d simulated + %d reproduced of %d", jobs, o.Complete, o.Ran, o.Reproduced, len(f.Runs()))
		}
		// R_ON = 0 never throttles: at least those 2 x 6 x 4 - 2 runs are
		// equivalent to another.
		if o.Reproduced < 46 {
			t.Errorf("jobs %d: only %d runs reproduced", jobs, o.Reproduced)
		}
		dirtest.Same(t, all, d)
	}
}
