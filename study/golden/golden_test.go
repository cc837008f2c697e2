// Package golden_test holds the stored golden digests of study's runs
// (../testdata/golden-digests.txt) and the test that compares them. It is
// a package of its own so that its minute of runs is a test binary of its
// own, beside study's, under go test's per-package time limit.
package golden_test

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/study"
)

var updateGoldens = flag.Bool("update", false, "rewrite testdata/golden-digests.txt from this build")

// goldenFile holds one line per golden case: its name and the digest of
// its result (or "error: " and the error a run gave, which must not
// change either).
const goldenFile = "../testdata/golden-digests.txt"

// shortened caps a configuration's measurement so that every golden case
// runs in about a second: the caps change the numbers, not which code
// runs (the method, the topology, the routing, the policies are the
// study's own).
func shortened(c study.Config) study.Config {
	m := &c.Measure
	if m.WarmupCycles < 0 || m.WarmupCycles > 300 { // < 0: derived from the network
		m.WarmupCycles = 300
	}
	m.MeasureCycles = min(m.MeasureCycles, 600)
	m.BatchCycles = min(m.BatchCycles, 300)
	m.MinBatches = min(m.MinBatches, 2)
	m.MaxBatches = min(m.MaxBatches, 2)
	m.PacketBatches = min(m.PacketBatches, 2)
	if perBatch := 16 * int64(c.Nodes()); m.BatchPackets == 0 || m.BatchPackets > perBatch { // 0: 10 x nodes^2
		m.BatchPackets = perBatch
	}
	m.DrainCycles = min(m.DrainCycles, 1500)
	m.MaxCycles = min(m.MaxCycles, 4000)
	m.StallCycles = min(m.StallCycles, m.MaxCycles)
	m.WatchdogCycles = min(m.WatchdogCycles, m.MaxCycles)
	c.Traffic.PacketsPerNode = min(c.Traffic.PacketsPerNode, 4)
	return c
}

type goldenCase struct {
	name string
	cfg  study.Config
}

// goldenCases are the built-in scenario's two cases at full length, every
// bench scenario shortened, and the first and the last run of every
// shipped study shortened (the first only where a run moves more than
// 2 M router-cycles, to keep the test near a minute).
func goldenCases(t *testing.T) []goldenCase {
	var cs []goldenCase
	for _, pat := range []string{"tornado", "uniform"} {
		cfg := study.BuiltIn()
		cfg.Traffic.Pattern = pat
		cfg.Name = study.ImpliedName(cfg, nil)
		cs = append(cs, goldenCase{"builtin/" + cfg.Name, cfg})
	}
	for _, name := range study.BenchScenarioNames() {
		cs = append(cs, goldenCase{"bench/" + name, shortened(study.BenchScenarios()[name])})
	}
	files, err := filepath.Glob("../../studies/*.toml")
	if err != nil || len(files) < 30 {
		t.Fatalf("shipped studies: %d files, %v; expected the whole studies/ folder", len(files), err)
	}
	slices.Sort(files)
	for _, p := range files {
		f, err := study.LoadFile(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		runs := f.Runs()
		picks := []int{0, len(runs) - 1}
		if len(runs) == 1 || f.Points[0].Config.Nodes() > 2048 {
			picks = picks[:1]
		}
		for _, i := range picks {
			r := runs[i]
			cs = append(cs, goldenCase{filepath.Base(p) + "/" + r.ID(), shortened(r.Config)})
		}
	}
	return cs
}

// TestGoldenDigests runs every golden case serially and compares its
// digest with testdata/golden-digests.txt: a change that does not mean to
// change results must leave every line as it is; one that does
// regenerates the file with -update, in its own commit.
func TestGoldenDigests(t *testing.T) {
	cases := goldenCases(t)
	if raceEnabled && !*updateGoldens {
		// The race detector slows a run about tenfold and the cases run
		// serially on one goroutine, where it can find nothing: under it,
		// every eighth case is compared (the plain pass compares all).
		var some []goldenCase
		for i := 0; i < len(cases); i += 8 {
			some = append(some, cases[i])
		}
		cases = some
	}
	var got bytes.Buffer
	fmt.Fprintln(&got, "# golden digests: go test ./study/golden -run TestGoldenDigests [-update]; see golden_test.go")
	for _, c := range cases {
		res, err := study.Run(context.Background(), c.cfg, study.Options{Exec: actor.Serial})
		line := ""
		if err != nil {
			line = "error: " + strings.ReplaceAll(err.Error(), "\n", " ")
		} else {
			line = res.Digest()
		}
		fmt.Fprintf(&got, "%s %s\n", c.name, line)
	}
	if *updateGoldens {
		if err := os.WriteFile(goldenFile, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d golden cases to %s", len(cases), goldenFile)
		return
	}
	want, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	wantLines := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(want))
	for sc.Scan() {
		name, digest, ok := strings.Cut(sc.Text(), " ")
		if ok && !strings.HasPrefix(name, "#") {
			wantLines[name] = digest
		}
	}
	sc = bufio.NewScanner(&got)
	n := 0
	for sc.Scan() {
		name, digest, ok := strings.Cut(sc.Text(), " ")
		if !ok || strings.HasPrefix(name, "#") {
			continue
		}
		n++
		w, ok := wantLines[name]
		switch {
		case !ok:
			t.Errorf("%s: not in %s (a new case: add it with -update in its own commit)", name, goldenFile)
		case w != digest:
			t.Errorf("%s: digest %s, golden %s", name, digest, w)
		}
		delete(wantLines, name)
	}
	for name := range wantLines {
		if !raceEnabled {
			t.Errorf("%s: in %s but no longer a case", name, goldenFile)
		}
	}
	if n < 60 && !raceEnabled {
		t.Errorf("%d golden cases; expected the built-in scenario, every bench scenario and two runs of most shipped studies", n)
	}
}
