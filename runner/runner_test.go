package runner

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image"
	"image/png"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/internal/dirtest"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/study"
)

// StudyTOML200 is a study of 200 short points: 5 patterns x 40 loads on a
// 4x4 mesh (tests in other packages use it too, through testdata).
const studyTOML200 = `name = "mesh4-curves"
seed = 7
[network]
topology = "mesh"

[network.mesh]
k = 4
[router]
routing = "dor"
vc.vcs = 2
[traffic]
process = "bernoulli"
[measure]
warmup_cycles = 100
measure_cycles = 200
drain_cycles = 1000
sample_cycles = 100
[[axis]]
key = "traffic.pattern"
values = ["uniform", "transpose", "bit-complement", "shuffle", "neighbour"]
[[axis]]
key = "traffic.load_flits_per_node_cycle"
range = { from = 0.0125, to = 0.5, step = 0.0125 }
`

func parse(t *testing.T, src string) *study.File {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "study.toml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := study.LoadFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func run(t *testing.T, f *study.File, opt Options) *Outcome {
	t.Helper()
	o, err := Run(context.Background(), f, opt)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestFileTopologyStudyAcrossJobs: the points of a study on a topology
// file share one graph and its route tables (computed once, by the check
// before the runs, and read by every run's build): two runs at a time
// give the same files as one (and, under the race detector, no race on
// the shared graph).
func TestFileTopologyStudyAcrossJobs(t *testing.T) {
	example, err := filepath.Abs("../docs/topology-example.txt")
	if err != nil {
		t.Fatal(err)
	}
	f := parse(t, fmt.Sprintf(`name = "file-jobs"
[network]
topology = "file"

[network.file]
path = %q
[router]
routing = "shortest-hops"
vc.vcs = 4
[traffic]
process = "bernoulli"
pattern = "uniform"
[measure]
warmup_cycles = 200
measure_cycles = 400
[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3]
[plot]
formats = []
`, example))
	root := t.TempDir()
	one, two := filepath.Join(root, "jobs1"), filepath.Join(root, "jobs2")
	run(t, f, Options{Jobs: 1, Exec: actor.Serial, Out: one})
	g := parse(t, string(f.Source)) // a fresh graph, its tables not yet computed
	run(t, g, Options{Jobs: 2, Exec: actor.Serial, Out: two})
	dirtest.Same(t, one, two)
}

// TestStudyIdenticalAcrossJobsAndShards: a 200-point study gives the same
// files, byte for byte, with 1 or 2 jobs, with another executor, and run as
// three shards merged.
func TestStudyIdenticalAcrossJobsAndShards(t *testing.T) {
	f := parse(t, studyTOML200)
	if got := len(f.Points); got != 200 {
		t.Fatalf("%d points, want 200", got)
	}
	root := t.TempDir()
	one, two := filepath.Join(root, "jobs1"), filepath.Join(root, "jobs2")
	o := run(t, f, Options{Jobs: 1, Out: one})
	if !o.Complete || o.Ran != 200 || len(o.Results) != 200 {
		t.Fatalf("jobs 1: complete %v, ran %d, results %d", o.Complete, o.Ran, len(o.Results))
	}
	run(t, f, Options{Jobs: 2, Out: two})
	dirtest.Same(t, one, two)
	serial := filepath.Join(root, "serial2w")
	run(t, f, Options{Jobs: 2, Workers: 2, Exec: actor.Serial, Out: serial})
	dirtest.Same(t, one, serial)

	var shards []string
	for i := 1; i <= 3; i++ {
		d := filepath.Join(root, fmt.Sprintf("shard%d", i))
		o := run(t, f, Options{Jobs: 2, Out: d, Shard: Shard{Index: i, Count: 3}})
		if o.Complete || o.Share != len(f.Points)/3+map[bool]int{true: 1}[i <= len(f.Points)%3] {
			t.Fatalf("shard %d: complete %v share %d", i, o.Complete, o.Share)
		}
		if _, err := os.Stat(filepath.Join(d, "results.csv")); err == nil {
			t.Fatalf("shard %d wrote results.csv before the merge", i)
		}
		shards = append(shards, d)
	}
	if _, err := Merge(context.Background(), shards[:2], filepath.Join(root, "partial")); err == nil || !strings.Contains(err.Error(), "runs are missing") || !strings.Contains(err.Error(), "p000002-r000") {
		t.Fatalf("merge of two of three shards: %v", err)
	}
	merged := filepath.Join(root, "merged")
	if _, err := Merge(context.Background(), shards, merged); err != nil {
		t.Fatal(err)
	}
	dirtest.Same(t, one, merged)
}

// TestResume: a resumed study skips finished runs, re-runs missing and
// corrupt ones, and ends with the same files as an uninterrupted run.
func TestResume(t *testing.T) {
	f := parse(t, strings.Replace(studyTOML200, "to = 0.5", "to = 0.1", 1))
	root := t.TempDir()
	ref, d := filepath.Join(root, "ref"), filepath.Join(root, "resumed")
	run(t, f, Options{Jobs: 2, Out: ref})
	run(t, f, Options{Jobs: 2, Out: d})
	runs := f.Runs()
	os.Remove(pointPath(d, runs[3].ID()))                                           // missing
	os.WriteFile(pointPath(d, runs[5].ID()), []byte(`{"study": "mesh4-cur`), 0o644) // truncated
	b, _ := os.ReadFile(pointPath(d, runs[7].ID()))                                 // tampered
	os.WriteFile(pointPath(d, runs[7].ID()), bytes.Replace(b, []byte(`"accepted_flits_per_node_cycle": 0.`), []byte(`"accepted_flits_per_node_cycle": 9.`), 1), 0o644)
	os.WriteFile(filepath.Join(d, "points", ".p000009-r000.json.tmp-atomic-123"), []byte("half"), 0o644) // a killed writer's
	os.Remove(filepath.Join(d, "results.csv"))
	if _, err := Run(context.Background(), f, Options{Out: d}); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Fatalf("re-running into a study directory without --resume: %v", err)
	}
	o := run(t, f, Options{Jobs: 2, Out: d, Resume: true})
	if o.Ran != 3 || o.Resumed != len(runs)-3 {
		t.Fatalf("resume ran %d and skipped %d; want 3 and %d", o.Ran, o.Resumed, len(runs)-3)
	}
	dirtest.Same(t, ref, d)

	other := parse(t, strings.Replace(studyTOML200, "seed = 7", "seed = 8", 1))
	if _, err := Run(context.Background(), other, Options{Out: d, Resume: true}); err == nil || !strings.Contains(err.Error(), "different study") {
		t.Fatalf("resuming another study's directory: %v", err)
	}
}

// TestResumeOlderRecords: a record written before keys were added (its
// configuration text lacks them) is this run's when those keys hold their
// defaults, and is kept; a record whose configuration really differs is
// redone.
func TestResumeOlderRecords(t *testing.T) {
	f := parse(t, strings.Replace(studyTOML200, "to = 0.5", "to = 0.05", 1))
	d := t.TempDir()
	run(t, f, Options{Jobs: 2, Out: d})
	runs := f.Runs()
	for i, r := range runs {
		b, _ := os.ReadFile(pointPath(d, r.ID()))
		// Records of that time had no checksum either.
		var rec Record
		if err := json.Unmarshal(b, &rec); err != nil || rec.Checksum == "" {
			t.Fatalf("record without checksum: %v", err)
		}
		rec.Checksum = ""
		b, _ = encodeRecord(&rec)
		var lines []string
		for _, l := range strings.Split(string(b), "\\n") {
			if !strings.Contains(l, "sat_") && !strings.Contains(l, "packet_batches") && !strings.Contains(l, "batch_packets") {
				lines = append(lines, l)
			}
		}
		old := strings.Join(lines, "\\n")
		if i == 1 {
			old = strings.Replace(old, "packet_flits = 8", "packet_flits = 9", 1)
		}
		if old == string(b) {
			t.Fatal("no key removed from the record")
		}
		os.WriteFile(pointPath(d, r.ID()), []byte(old), 0o644)
	}
	if o := run(t, f, Options{Jobs: 2, Out: d, Resume: true}); o.Ran != 1 || o.Resumed != len(runs)-1 {
		t.Fatalf("resume ran %d and skipped %d; want 1 and %d", o.Ran, o.Resumed, len(runs)-1)
	}
}

// TestCancelKeepsFinishedRuns: a cancelled study returns an error that says
// how to continue, and the runs it finished are kept.
func TestCancelKeepsFinishedRuns(t *testing.T) {
	f := parse(t, studyTOML200)
	d := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, f, Options{Jobs: 2, Out: d})
	if err == nil || !strings.Contains(err.Error(), "interrupted") || !strings.Contains(err.Error(), "--resume") {
		t.Fatalf("cancelled study: %v", err)
	}
	o := run(t, f, Options{Jobs: 2, Out: d, Resume: true})
	if !o.Complete {
		t.Fatal("resumed study incomplete")
	}
}

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Shard
		ok   bool
	}{{"1/3", Shard{1, 3}, true}, {"3/3", Shard{3, 3}, true}, {"1/1", Shard{1, 1}, true},
		{"4/3", Shard{}, false}, {"0/3", Shard{}, false}, {"1/0", Shard{}, false}, {"a/b", Shard{}, false}, {"2", Shard{}, false}, {"-1/3", Shard{}, false}} {
		got, err := ParseShard(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseShard(%q) = %v, %v", c.in, got, err)
		}
		if err != nil && !strings.Contains(err.Error(), "1 <= i <= n") {
			t.Errorf("ParseShard(%q) error does not say what is allowed: %v", c.in, err)
		}
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		vars     map[string]string
		want     Shard
		ok, fail bool
	}{
		{map[string]string{}, Shard{}, false, false},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"}, Shard{1, 4}, true, false},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"}, Shard{4, 4}, true, false},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, Shard{4, 4}, true, false},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "3"}, Shard{}, true, true},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "3"}, Shard{}, true, true},
	} {
		got, ok, err := ShardFromEnv(env(c.vars))
		if got != c.want || ok != c.ok || (err != nil) != c.fail {
			t.Errorf("ShardFromEnv(%v) = %v, %v, %v", c.vars, got, ok, err)
		}
	}
	// Shards partition the runs.
	for n := 1; n <= 4; n++ {
		for i := range 10 {
			owners := 0
			for s := 1; s <= n; s++ {
				if (Shard{s, n}).Has(i) {
					owners++
				}
			}
			if owners != 1 {
				t.Errorf("run %d has %d owners among %d shards", i, owners, n)
			}
		}
	}
}

// TestPlots: every plot type is drawn from a small study, in PNG and SVG, at
// the figure size, and is not blank; icnsim plot (Reload + WriteOutputs)
// redraws the same files.
func TestPlots(t *testing.T) {
	f := parse(t, `name = "plots"
seed = 3
[network]
topology = "mesh"

[network.mesh]
k = 4
[router]
routing = "dor"
vc.vcs = 2
[traffic]
process = "bernoulli"
[measure]
warmup_cycles = 100
measure_cycles = 300
drain_cycles = 1000
sample_cycles = 50
[[axis]]
key = "traffic.pattern"
values = ["uniform", "transpose"]
[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.05, 0.15, 0.3]
[plot]
heatmap_x = "traffic.load_flits_per_node_cycle"
heatmap_y = "traffic.pattern"
heatmap_metric = "latency_mean_cycles"
`)
	d := t.TempDir()
	run(t, f, Options{Out: d})
	bases := []string{
		"accepted_flits_per_node_cycle-vs-load_flits_per_node_cycle",
		"latency_mean_cycles-vs-load_flits_per_node_cycle",
		"heatmap-latency_mean_cycles",
		"series-in_flight_packets", "series-accepted_flits_per_node_cycle", "series-valid_buffer_ratio", "series-mobility_ratio",
		"node-throughput-map", "node-injected-map", "node-latency-map", "latency-cdf",
	}
	before := dirtest.Tree(t, filepath.Join(d, "plots"))
	// A figure is SVG, PNG, PDF and the CSV of its points; a line chart
	// (all but the heatmap and the three node maps) also pgfplots.
	if want := 4*len(bases) + len(bases) - 4; len(before) != want {
		t.Errorf("%d plot files, want %d", len(before), want)
	}
	for _, base := range bases {
		p := filepath.Join(d, "plots", base)
		// The time series name their lines by every axis value: a legend
		// that wide may go below the plot, and the figure grow by it.
		// A per-node map grows by its rows of panels.
		below := strings.HasPrefix(base, "series-") || strings.HasPrefix(base, "node-")
		checkPNG(t, p+".png", below)
		checkSVG(t, p+".svg", below)
		if b, err := os.ReadFile(p + ".pdf"); err != nil || !bytes.HasPrefix(b, []byte("%PDF-")) {
			t.Errorf("%s.pdf: not a PDF (%v)", p, err)
		}
	}
	checkFigureCSV(t, d, "accepted_flits_per_node_cycle-vs-load_flits_per_node_cycle", "accepted_flits_per_node_cycle")
	for _, name := range []string{"results.csv", "results.json", "replicates.csv", "summary.txt", "series/p000000-r000.csv"} {
		if st, err := os.Stat(filepath.Join(d, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	os.RemoveAll(filepath.Join(d, "plots"))
	g, recs, err := Reload(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteOutputs(context.Background(), d, g, recs); err != nil {
		t.Fatal(err)
	}
	after := dirtest.Tree(t, filepath.Join(d, "plots"))
	for name, b := range before {
		if !bytes.Equal(b, after[name]) {
			t.Errorf("%s: redrawn plot differs", name)
		}
	}
}

// TestSwitchSeriesPlots: a study of the input/output-buffered switch draws
// no buffer-ratio series (the switch counts no buffers; they would be
// zeros) but the packets waiting at the sources, in the admission queues
// and in the adapters' injection memories, and with RECN its SAQs.
func TestSwitchSeriesPlots(t *testing.T) {
	f := parse(t, `name = "ioq-series"
seed = 3
[network]
topology = "mesh"

[network.mesh]
k = 4
[router]
kind = "ioq"
routing = "dor"
[traffic]
pattern = "hotspot-sources"
process = "bernoulli"
hotspot_node = 10
load_of_bisection = 1.0
[measure]
warmup_cycles = 500
measure_cycles = 500
drain_cycles = 0
sample_cycles = 100
[[axis]]
key = "router.ioq.queues"
values = ["voq-sw", "recn"]
`)
	d := t.TempDir()
	run(t, f, Options{Out: d})
	plots := dirtest.Tree(t, filepath.Join(d, "plots"))
	for _, base := range []string{"series-in_flight_packets", "series-source_queued_packets", "series-injection_memory_packets",
		"series-saqs_in_use_ingress", "series-saqs_in_use_egress", "series-saq_flits", "series-saq_fullest_flits"} {
		if _, ok := plots[base+".svg"]; !ok {
			t.Errorf("no %s", base)
		}
	}
	for _, base := range []string{"series-valid_buffer_ratio", "series-mobility_ratio"} {
		if _, ok := plots[base+".svg"]; ok {
			t.Errorf("%s drawn for the switch", base)
		}
	}
	series, err := os.ReadFile(filepath.Join(d, "series", "p000001-r000.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if head, _, _ := bytes.Cut(series, []byte("\n")); !bytes.Contains(head, []byte("injection_memory_packets")) || !bytes.Contains(head, []byte("saq_fullest_flits")) || bytes.Contains(head, []byte("mobility")) {
		t.Errorf("RECN run's series header %s", head)
	}
}

// checkPNG checks that the figure at path is 768 pixels wide and 480 high
// (or higher, when mayGrow) and not blank.
// checkFigureCSV checks that the CSV of a curve figure (metric against the
// offered load, one line per traffic pattern) holds exactly the points of
// results.csv: one row per point, at its load, with its mean.
func checkFigureCSV(t *testing.T, d, base, metric string) {
	t.Helper()
	read := func(path string) [][]string {
		fh, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		rows, err := csv.NewReader(fh).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return rows
	}
	res := read(filepath.Join(d, "results.csv"))
	col := func(name string) int { return slices.Index(res[0], name) }
	want := map[string]string{}
	for _, r := range res[1:] {
		v, _ := strconv.ParseFloat(r[col(metric)], 64)
		want[r[col("traffic.pattern")]+" "+r[col(LoadKey)]] = strconv.FormatFloat(v, 'g', 6, 64)
	}
	fig := read(filepath.Join(d, "plots", base+".csv"))
	if got := strings.Join(fig[0], ","); got != "series,kind,x,y,y_low,y_high" {
		t.Fatalf("%s.csv header %q", base, got)
	}
	got := map[string]string{}
	for _, r := range fig[1:] {
		if r[1] != "point" && r[1] != "above cut" {
			continue
		}
		y, _ := strconv.ParseFloat(r[3], 64)
		got[strings.TrimPrefix(r[0], "Traffic pattern = ")+" "+r[2]] = strconv.FormatFloat(y, 'g', 6, 64)
	}
	if !maps.Equal(got, want) {
		t.Errorf("%s.csv points %v, want the results' %v", base, got, want)
	}
}

func checkPNG(t *testing.T, path string, mayGrow bool) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Error(err)
		return
	}
	defer fh.Close()
	img, err := png.Decode(fh)
	if err != nil {
		t.Errorf("%s: %v", path, err)
		return
	}
	// The default figure: 6 x 4 inches at 300 dpi.
	if b := img.Bounds(); b.Dx() != 1800 || b.Dy() < 1200 || b.Dy() > 1200 && !mayGrow {
		t.Errorf("%s: %dx%d, want 1800 wide and 1200 high (or higher: %v)", path, b.Dx(), b.Dy(), mayGrow)
	}
	colours, inked := map[[3]uint32]bool{}, 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, b >> 8}] = true
			if r>>8 < 200 || g>>8 < 200 || b>>8 < 200 {
				inked++
			}
		}
	}
	// Axes, text and at least two data colours; more than 1% of the figure inked.
	if len(colours) < 4 || inked < 768*480/100 {
		t.Errorf("%s looks blank: %d colours, %d inked pixels", path, len(colours), inked)
	}
	var _ image.Image = img
}

// checkSVG checks that the figure at path is 576pt x 360pt (or higher,
// when mayGrow) and not blank.
func checkSVG(t *testing.T, path string, mayGrow bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Error(err)
		return
	}
	var doc struct {
		Width  string `xml:"width,attr"`
		Height string `xml:"height,attr"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Errorf("%s: %v", path, err)
		return
	}
	h, err := strconv.ParseFloat(strings.TrimSuffix(doc.Height, "pt"), 64)
	if doc.Width != "432pt" || err != nil || h < 288 || h > 288 && !mayGrow {
		t.Errorf("%s: %s x %s, want 432pt wide and 288pt high (or higher: %v)", path, doc.Width, doc.Height, mayGrow)
	}
	if n := bytes.Count(b, []byte("<path")); n < 10 {
		t.Errorf("%s looks blank: %d paths", path, n)
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rows, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestReductions: the speed-up, geometric-mean and best-point tables agree
// with the per-point means in replicates.csv, and replicate means and
// standard deviations agree with results.csv.
func TestReductions(t *testing.T) {
	f := parse(t, `name = "red"
[network]
topology = "mesh"

[network.mesh]
k = 4
[router]
routing = "dor"
vc.vcs = 1
vc.buffer_flits = 8
[traffic]
process = "collective"
packets_per_node = 4
[study]
replicates = 3
[[axis]]
key = "traffic.pattern"
values = ["uniform", "transpose", "bit-complement"]
[[axis]]
key = "router.vc.vcs"
values = [1, 2, 4]
[[reduce]]
kind = "speedup"
metric = "collective_duration_cycles"
baseline = { "router.vc.vcs" = 1 }
[[reduce]]
kind = "best"
metric = "speedup"
by = ["traffic.pattern"]
[[reduce]]
name = "average-best"
kind = "best"
metric = "speedup"
over = ["traffic.pattern"]
`)
	d := t.TempDir()
	run(t, f, Options{Out: d})
	// Replicate means from results.csv.
	res := readCSV(t, filepath.Join(d, "results.csv"))
	col := func(rows [][]string, name string) int { return slices.Index(rows[0], name) }
	dur := col(res, "collective_duration_cycles")
	sums := map[string][]float64{}
	for _, r := range res[1:] {
		sums[r[1]] = append(sums[r[1]], num(t, r[dur]))
	}
	rep := readCSV(t, filepath.Join(d, "replicates.csv"))
	mean := map[[2]string]float64{}
	for _, r := range rep[1:] {
		m, s := report.MeanStd(sums[r[0]])
		if got := num(t, r[col(rep, "collective_duration_cycles_mean")]); got != m {
			t.Errorf("point %s mean %v, want %v", r[0], got, m)
		}
		if got := num(t, r[col(rep, "collective_duration_cycles_std")]); got != s {
			t.Errorf("point %s std %v, want %v", r[0], got, s)
		}
		mean[[2]string{r[1], r[2]}] = num(t, r[col(rep, "collective_duration_cycles_mean")])
	}
	sp := readCSV(t, filepath.Join(d, "reduce-speedup-collective_duration_cycles.csv"))
	speed := map[[2]string]float64{}
	for _, r := range sp[1:] {
		want := mean[[2]string{r[0], "1"}] / mean[[2]string{r[0], r[1]}]
		got := num(t, r[4])
		if math.Abs(got-want) > 1e-8 {
			t.Errorf("speedup %v: %v, want %v", r[:2], got, want)
		}
		speed[[2]string{r[0], r[1]}] = got
	}
	best := readCSV(t, filepath.Join(d, "reduce-best-speedup.csv"))
	if len(best) != 4 {
		t.Fatalf("best per pattern: %d rows", len(best))
	}
	for _, r := range best[1:] {
		for _, v := range []string{"1", "2", "4"} {
			if speed[[2]string{r[0], v}] > num(t, r[2]) {
				t.Errorf("best for %s is %v = %s, but vcs=%s gives %v", r[0], r[1], r[2], v, speed[[2]string{r[0], v}])
			}
		}
	}
	avg := readCSV(t, filepath.Join(d, "reduce-average-best.csv"))
	if len(avg) != 2 {
		t.Fatalf("average best: %v", avg)
	}
	bestGeo := 0.0
	for _, v := range []string{"1", "2", "4"} {
		g := math.Cbrt(speed[[2]string{"uniform", v}] * speed[[2]string{"transpose", v}] * speed[[2]string{"bit-complement", v}])
		bestGeo = max(bestGeo, g)
	}
	if got := num(t, avg[1][1]); math.Abs(got-bestGeo) > 1e-8 {
		t.Errorf("average best %v, want %v", got, bestGeo)
	}
	if sum, _ := os.ReadFile(filepath.Join(d, "summary.txt")); !bytes.Contains(sum, []byte("best point")) || !bytes.Contains(sum, []byte("±")) {
		t.Errorf("summary lacks reductions or deviations:\n%s", sum)
	}
}

// TestBlockingOnRefusedBeforeRuns: blocking on over a study whose points
// differ in what decides whether a dragonfly can run in blocks (its
// routing: UGAL-G's group board allows no lead) is refused at the point
// that cannot, before the first run, with nothing written.
func TestBlockingOnRefusedBeforeRuns(t *testing.T) {
	f := parse(t, `name = "df-blocks"
[network]
topology = "dragonfly"
[network.dragonfly]
routers_per_group = 4
global_latency_cycles = 5
[router.vc]
vcs = 4
[traffic]
pattern = "uniform"
process = "bernoulli"
load_flits_per_node_cycle = 0.2
[measure]
warmup_cycles = 100
measure_cycles = 100
[[axis]]
key = "router.routing"
values = ["min", "ugal-g"]
`)
	out := filepath.Join(t.TempDir(), "out")
	_, err := Run(context.Background(), f, Options{Exec: actor.Serial, Blocking: study.BlockingOn, Out: out, Jobs: 1})
	if err == nil || !strings.Contains(err.Error(), "ugal-g") || !strings.Contains(err.Error(), "cannot run in blocks") {
		t.Fatalf("error %v, want the refusal of blocking on at the ugal-g point", err)
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Errorf("%s exists after a refusal before the first run (%v)", out, statErr)
	}
}
