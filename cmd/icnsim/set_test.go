package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/internal/badinput"
)

// TestFileDefaultsAreNeutral: the file of a mesh, k = 8, dor and a load,
// with nothing else of its traffic, runs uniform Bernoulli arrivals at
// that load (the table prints offered 0.3000), not the built-in burst; a
// load under a collective is a warning naming both keys; config FILE
// prints every key with its value.
func TestFileDefaultsAreNeutral(t *testing.T) {
	write := fileWriter(t, t.TempDir())
	file := write("m.toml", "[network]\ntopology = \"mesh\"\n[network.mesh]\nk = 8\n[router]\nrouting = \"dor\"\n[traffic]\nload_flits_per_node_cycle = 0.3\n")
	stdout, stderr, code := icnsim(t, "run", file, "--set", "measure.warmup_cycles=1000", "--set", "measure.measure_cycles=2000")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	row := strings.Fields(strings.Split(stdout, "\n")[2])
	if len(row) < 5 || row[0] != "mesh8-uniform-bernoulli" || row[1] != "uniform" || row[2] != "bernoulli" || row[4] != "0.3000" {
		t.Errorf("want mesh8-uniform-bernoulli, uniform, bernoulli, offered 0.3000:\n%s", stdout)
	}
	burst := write("b.toml", "[traffic]\nprocess = \"collective\"\nload_flits_per_node_cycle = 0.3\n")
	stdout, _, code = icnsim(t, "validate", burst)
	if code != 0 || !strings.Contains(stdout, burst+`:3: warning: traffic.load_flits_per_node_cycle = 0.3 has no effect under traffic.process = "collective"`) {
		t.Errorf("exit %d, no warning naming both keys:\n%s", code, stdout)
	}
	stdout, stderr, code = icnsim(t, "config", filepath.Join("..", "..", "studies", "mesh8-latency-throughput.toml"), "--point", "40")
	if code != 0 {
		t.Fatalf("config FILE: exit %d: %s", code, stderr)
	}
	for _, w := range []string{"point 40 of 0..311 (pattern=random-pair load_flits_per_node_cycle=0.425)", `pattern = "random-pair"`, "load_flits_per_node_cycle = 0.425", "stall_cycles = 20000", "selection_ties = ", "[network.mesh]"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("config FILE --point 40 lacks %q:\n%s", w, stdout)
		}
	}
}

// TestSetOverrides: --set changes a key of the file as an edit would, the
// study directory's study.toml records it, --resume with the same --set
// finds every run finished, and --seed works with --out (as --set seed).
func TestSetOverrides(t *testing.T) {
	dir := t.TempDir()
	write := fileWriter(t, dir)
	file := write("s.toml", badinput.StudyBase+"[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 4]\n")
	out := filepath.Join(dir, "out")
	args := []string{"run", file, "--set", "measure.measure_cycles=700", "--set", "traffic.pattern=transpose", "--seed", "9", "--out", out, "--quiet"}
	if _, stderr, code := icnsim(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	kept, err := os.ReadFile(filepath.Join(out, "study.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"measure_cycles = 700  # --set on the command line", `pattern = "transpose"  # --set on the command line`, "seed = 9  # --set on the command line"} {
		if !strings.Contains(string(kept), w) {
			t.Errorf("study.toml does not record %q:\n%s", w, kept)
		}
	}
	csv, err := os.ReadFile(filepath.Join(out, "results.csv"))
	if err != nil || !strings.Contains(string(csv), "transpose") || strings.Contains(string(csv), "uniform") {
		t.Errorf("results.csv does not show the pattern set (%v):\n%.600s", err, csv)
	}
	if stdout, stderr, code := icnsim(t, append(args, "--resume")...); code != 0 || !strings.Contains(stdout+stderr, "2 already finished, 0 to run") {
		t.Errorf("resume with the same --set: exit %d:\n%s%s", code, stdout, stderr)
	}
	if _, stderr, code := icnsim(t, "run", file, "--out", out, "--resume", "--quiet"); code != 1 || !strings.Contains(stderr, "give the same --set again") {
		t.Errorf("resume without the --set: exit %d: %s", code, stderr)
	}
	// The same bad value in the file and in --set: the same message but
	// for where it is.
	bad := write("bad.toml", strings.Replace(badinput.StudyBase, "vc.vcs = 2", "vc.vcs = 2\nvc.buffer_flits = 0", 1))
	_, fromFile, _ := icnsim(t, "validate", bad)
	_, fromSet, _ := icnsim(t, "validate", file, "--set", "router.vc.buffer_flits=0")
	_, msgFile, _ := strings.Cut(strings.TrimSpace(fromFile), ": router.vc.buffer_flits")
	_, msgSet, _ := strings.Cut(strings.TrimSpace(fromSet), ": router.vc.buffer_flits")
	if msgFile == "" || msgFile != strings.Split(msgSet, " (at the point")[0] && msgFile != msgSet || !strings.HasPrefix(fromSet, "icnsim: --set router.vc.buffer_flits=0: ") {
		t.Errorf("file and --set differ:\n%s%s", fromFile, fromSet)
	}
}

// TestRunJSONAndCSV: run --json and --csv print a single run's results to
// stdout, in results.json's and results.csv's forms, and nothing else.
func TestRunJSONAndCSV(t *testing.T) {
	write := fileWriter(t, t.TempDir())
	file := write("m.toml", "[network]\ntopology = \"mesh\"\n[network.mesh]\nk = 4\n[router]\nrouting = \"dor\"\n[measure]\nwarmup_cycles = 200\nmeasure_cycles = 400\n")
	stdout, stderr, code := icnsim(t, "run", file, "--json")
	var doc struct {
		Study string `json:"study"`
		Runs  []struct {
			Digest string `json:"digest"`
			Result struct {
				Process string `json:"process"`
			} `json:"result"`
		} `json:"runs"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &doc) != nil || doc.Study != "mesh4-uniform-bernoulli" || len(doc.Runs) != 1 ||
		len(doc.Runs[0].Digest) != 64 || doc.Runs[0].Result.Process != "bernoulli" {
		t.Errorf("--json: exit %d, not one run's record: %.300s %s", code, stdout, stderr)
	}
	stdout, stderr, code = icnsim(t, "run", file, "--csv")
	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if code != 0 || err != nil || len(rows) != 2 || rows[0][0] != "run" || !slices.Contains(rows[0], "unfinished") || rows[1][slices.Index(rows[0], "digest")] != doc.Runs[0].Digest {
		t.Errorf("--csv: exit %d (%v), not a header and one row of the same run: %.300s %s", code, err, stdout, stderr)
	}
}
