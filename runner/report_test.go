package runner

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// reportStudy is a small load sweep with published values (invented for
// the test, never shipped) and every per-node figure of a mesh.
const reportStudy = `name = "report"
seed = 3
[network]
topology = "mesh"
k = 4
[router]
routing = "dor"
vcs = 2
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
values = [0.05, 0.15, 0.6]
[[reference]]
source = "Test paper, Table 9"
metric = "accepted_flits_per_node_cycle"
value = 0.05
at = { "traffic.pattern" = "uniform", "traffic.load_flits_per_node_cycle" = 0.05 }
[[reference]]
source = "Test paper, Sect. 2"
metric = "latency_mean_cycles"
value = 20
at = { "traffic.pattern" = "transpose", "traffic.load_flits_per_node_cycle" = 0.15 }
`

// TestReport: a study writes index.html, self-contained (no address to
// fetch), with every figure inline, the summary, the study file, the
// published values and one provenance row per run; icnsim report rebuilds
// it byte for byte from the directory alone; reference.csv holds ours
// beside the published values.
func TestReport(t *testing.T) {
	f := parse(t, reportStudy)
	d := t.TempDir()
	run(t, f, Options{Out: d})
	page, err := os.ReadFile(filepath.Join(d, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	if m := regexp.MustCompile(`(?i)(src|href)="(https?:)?//`).FindString(html); m != "" {
		t.Errorf("index.html fetches from the network: %s", m)
	}
	if strings.Contains(html, "<script") {
		t.Error("index.html runs a script")
	}
	svgs, _ := filepath.Glob(filepath.Join(d, "plots", "*.svg"))
	if n := strings.Count(html, "<figure "); n != len(svgs) || n < 8 {
		t.Errorf("%d figures in the page, %d SVG files", n, len(svgs))
	}
	if n := strings.Count(html, "<svg "); n != len(svgs) {
		t.Errorf("%d inline SVGs, want %d", n, len(svgs))
	}
	for _, want := range []string{"Test paper, Table 9", `name = &#34;report&#34;`, "study report: 6 points x 1 replicates", "p000005-r000"} {
		if !strings.Contains(html, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	// Rebuilt from the directory alone.
	os.Remove(filepath.Join(d, ReportFile))
	g, recs, err := Reload(t.Context(), d)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteReport(d, g, recs); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(filepath.Join(d, ReportFile))
	if !bytes.Equal(again, page) {
		t.Error("icnsim report wrote another page than the run")
	}
	csv, err := os.ReadFile(filepath.Join(d, "reference.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(csv)), "\n")
	if len(rows) != 3 || !strings.HasPrefix(rows[1], "\"Test paper, Table 9\",accepted_flits_per_node_cycle,0,") {
		t.Fatalf("reference.csv:\n%s", csv)
	}
	// At 0.05 flits/node/cycle a 4x4 mesh accepts what is offered: ours
	// is within 20% of the "published" 0.05.
	var pub, ours, rel float64
	fields := strings.Split(rows[1], ",")
	for i, p := range []*float64{&pub, &ours, &rel} {
		v, err := strconv.ParseFloat(fields[len(fields)-7+i], 64)
		if err != nil {
			t.Fatalf("reference.csv row %q: %v", rows[1], err)
		}
		*p = v
	}
	if pub != 0.05 || math.Abs(ours-0.05) > 0.01 || math.Abs(rel-(ours-pub)/pub) > 1e-4 {
		t.Errorf("reference row: published %v, ours %v, difference %v", pub, ours, rel)
	}
	// One replicate: ours is the one run, its lowest and highest replicate
	// are ours.
	if is, lo, hi := fields[len(fields)-4], fields[len(fields)-3], fields[len(fields)-2]; is != "the one run" || lo != fields[len(fields)-6] || hi != lo {
		t.Errorf("reference row: ours_is %q, replicates %s..%s (ours %s)", is, lo, hi, fields[len(fields)-6])
	}
	summary, _ := os.ReadFile(filepath.Join(d, "summary.txt"))
	for _, want := range []string{"largest relative difference", "saturation throughput"} {
		if !strings.Contains(string(summary), want) {
			t.Errorf("summary.txt lacks %q", want)
		}
	}
}

// chromium finds Debian's chromium (or another Chrome) to test the report in.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// pageCheck is put into a copy of the page under test: it records load
// errors (scripts and resources) and, after load, whether every figure's
// SVG or image has a visible size, and writes the verdict into the title.
const pageCheck = `<script>
window.__errors = [];
window.addEventListener('error', function (e) { __errors.push(String(e.message || (e.target && (e.target.src || e.target.href)) || 'error')); }, true);
window.addEventListener('load', function () {
  var figs = document.querySelectorAll('figure'), bad = [];
  figs.forEach(function (f) {
    var el = f.querySelector('svg, img');
    if (!el) { bad.push(f.id + ': nothing drawn'); return; }
    var r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    if (r.width < 300 || r.height < 150 || cs.visibility !== 'visible' || cs.display === 'none') bad.push(f.id + ': ' + Math.round(r.width) + 'x' + Math.round(r.height));
    if (el.tagName === 'IMG' && !(el.complete && el.naturalWidth > 0)) bad.push(f.id + ': image not decoded');
  });
  document.title = 'CHECK figures=' + figs.length + ' bad=' + JSON.stringify(bad) + ' errors=' + JSON.stringify(__errors);
});
</script>`

// browse loads page in headless Chromium at 1280 px wide and returns the
// verdict of pageCheck; with shot, it also saves a screenshot there.
func browse(t *testing.T, bin, page, shot string) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	checked := filepath.Join(dir, "checked.html")
	os.WriteFile(checked, bytes.Replace(src, []byte("<head>"), []byte("<head>"+pageCheck), 1), 0o644)
	flags := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--hide-scrollbars", "--user-data-dir=" + filepath.Join(dir, "profile"), "--window-size=1280,2400"}
	out, err := exec.Command(bin, append(flags, "--dump-dom", "file://"+checked)...).Output()
	if err != nil {
		t.Fatalf("%s --dump-dom: %v", bin, err)
	}
	m := regexp.MustCompile(`<title>(CHECK[^<]*)</title>`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("the page check did not run; chromium printed %d bytes", len(out))
	}
	if shot != "" {
		if err := exec.Command(bin, append(flags, "--screenshot="+shot, "file://"+page)...).Run(); err != nil {
			t.Errorf("screenshot: %v", err)
		}
	}
	return strings.ReplaceAll(string(m[1]), "&quot;", `"`)
}

// TestReportInChromium loads the report in a real headless browser: the
// page loads without an error and every figure is drawn at a visible
// size. A page with a figure hidden must fail the same check. It needs
// Debian's chromium package (.ci/run installs it); without it the test
// skips, saying so. ICNSIM_SCREENSHOT_DIR saves a 1280 px screenshot.
func TestReportInChromium(t *testing.T) {
	bin := chromium()
	if bin == "" {
		t.Skip("no chromium: install Debian's chromium package (apt-get install chromium) to test the HTML report in a browser")
	}
	f := parse(t, reportStudy)
	d := t.TempDir()
	run(t, f, Options{Out: d})
	page := filepath.Join(d, ReportFile)
	shot := ""
	if dir := os.Getenv("ICNSIM_SCREENSHOT_DIR"); dir != "" {
		shot = filepath.Join(dir, "report-1280.png")
	}
	svgs, _ := filepath.Glob(filepath.Join(d, "plots", "*.svg"))
	got := browse(t, bin, page, shot)
	want := "CHECK figures=" + strconv.Itoa(len(svgs)) + " bad=[] errors=[]"
	if got != want {
		t.Errorf("report in chromium: %s, want %s", got, want)
	}
	// The control: a figure hidden and an image that cannot load.
	src, _ := os.ReadFile(page)
	broken := bytes.Replace(src, []byte(`<figure id="fig-1">`), []byte(`<figure id="fig-1" style="display:none">`), 1)
	broken = bytes.Replace(broken, []byte(`<figure id="fig-2">`), []byte(`<figure id="fig-2"><img src="missing.png" alt="">`), 1)
	bad := filepath.Join(d, "broken.html")
	os.WriteFile(bad, broken, 0o644)
	if got := browse(t, bin, bad, ""); !strings.Contains(got, "fig-1: 0x0") || !strings.Contains(got, "missing.png") {
		t.Errorf("a hidden figure and a missing image passed the check: %s", got)
	}
}

// TestNodeFigures: per-node figures by topology, including the edge cases
// of a concentrated mesh at a load so low that some nodes receive nothing
// (their latency cells are blank, the study does not fail), meshes of two
// sizes in one figure, and a fat-tree's bars with the line form as well.
func TestNodeFigures(t *testing.T) {
	for _, c := range []struct {
		name, toml string
		want       []string
	}{
		{"mesh-c2-idle", `name = "c2"
seed = 1
[network]
topology = "mesh"
k = 3
concentration = 2
[router]
routing = "dor"
[traffic]
process = "bernoulli"
[measure]
warmup_cycles = 50
measure_cycles = 100
drain_cycles = 500
[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.00001, 0.01]
`, []string{"node-throughput-map", "node-injected-map", "node-latency-map"}},
		{"mesh-two-sizes", `name = "sizes"
seed = 1
[network]
topology = "mesh"
[router]
routing = "dor"
[traffic]
process = "bernoulli"
load_flits_per_node_cycle = 0.1
[measure]
warmup_cycles = 50
measure_cycles = 100
drain_cycles = 500
[[axis]]
key = "network.k"
values = [3, 5]
`, []string{"node-throughput-map", "node-latency-map"}},
		{"fattree-both", `name = "ft"
seed = 1
[network]
topology = "fattree"
k = 4
levels = 2
[router]
routing = "fattree-adaptive"
vcs = 1
[traffic]
process = "bernoulli"
pattern = "uniform"
[measure]
warmup_cycles = 50
measure_cycles = 100
drain_cycles = 500
[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.1, 0.3]
[plot]
node_figures = "both"
`, []string{"node-throughput-by-leaf", "node-injected-by-leaf", "node-latency-by-leaf", "node-throughput"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := parse(t, c.toml)
			d := t.TempDir()
			run(t, f, Options{Out: d})
			for _, w := range c.want {
				checkSVG(t, filepath.Join(d, "plots", w+".svg"), false)
			}
			if _, err := os.Stat(filepath.Join(d, ReportFile)); err != nil {
				t.Error(err)
			}
		})
	}
}
