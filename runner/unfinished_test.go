package runner

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnfinishedRunsFlagged: a load sweep whose top load saturates the
// mesh and whose drain is cut short leaves measured packets undelivered
// in its last runs. Each such run is flagged in all five places: the
// terminal's summary (WriteSummary), summary.txt, results.csv's
// unfinished column, the report's warning, and the curve figures (a red
// ring, named in the legend); the runs that finished are not.
func TestUnfinishedRunsFlagged(t *testing.T) {
	f := parse(t, `name = "cut-drain"
[network]
topology = "mesh"
[network.mesh]
k = 4
[router]
routing = "dor"
[traffic]
pattern = "transpose"
[measure]
warmup_cycles = 200
measure_cycles = 300
drain_cycles = 1
[plot]
formats = ["svg"]
[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.05, 0.9]
`)
	dir := filepath.Join(t.TempDir(), "out")
	o := run(t, f, Options{Out: dir, Jobs: 1})
	var terminal bytes.Buffer
	if err := WriteSummary(&terminal, f, o.Records); err != nil {
		t.Fatal(err)
	}
	summary, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for where, text := range map[string]string{"terminal": terminal.String(), "summary.txt": string(summary)} {
		if !strings.Contains(text, "finished") || !strings.Contains(text, "NOT FINISHED: 1 of 2 runs") ||
			!strings.Contains(text, "point 1 (load_flits_per_node_cycle=0.9): ") || !strings.Contains(text, "measured packets undelivered after the drain") {
			t.Errorf("%s does not flag the unfinished run:\n%s", where, text)
		}
		if strings.Contains(text, "point 0 (") {
			t.Errorf("%s flags the finished run:\n%s", where, text)
		}
	}
	rc, err := os.Open(filepath.Join(dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(rc).ReadAll()
	rc.Close()
	if err != nil {
		t.Fatal(err)
	}
	col := -1
	for i, h := range rows[0] {
		if h == "unfinished" {
			col = i
		}
	}
	if col < 0 || len(rows) != 3 || rows[1][col] != "" || !strings.Contains(rows[2][col], "undelivered") {
		t.Errorf("results.csv's unfinished column (%d) does not flag the second run only:\n%q", col, rows)
	}
	page, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `id="unfinished"`) || !strings.Contains(string(page), "1 of 2 runs did not finish") {
		t.Errorf("the report does not warn of the unfinished run")
	}
	svgs, _ := filepath.Glob(filepath.Join(dir, "plots", "*vs-load*.svg"))
	if len(svgs) == 0 {
		svgs, _ = filepath.Glob(filepath.Join(dir, "plots", "*.svg"))
	}
	ringed := 0
	for _, p := range svgs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(">not finished<")) {
			ringed++
		}
	}
	if ringed == 0 {
		t.Errorf("no figure of %d marks the unfinished run in its legend: %v", len(svgs), svgs)
	}
}
