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

	"github.com/icnsim/icnsim/figure"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// reportStudy is a small load sweep with published values (invented for
// the test, never shipped) and every per-node figure of a mesh.
const reportStudy = `name = "report"
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
// errors (scripts and resources) and, after load, measures every figure's
// inline SVG (or image) as Chromium lays it out, and writes the verdict
// into the title:
//
//   - the figure is drawn at a visible size;
//   - every colour bar is at least half as tall as the heatmap at its left
//     and at least 4 px wide (gonum's plotter.ColorBar drew a one-pixel
//     image that the viewer scales keeping its aspect ratio: a hairline);
//   - no two text boxes (their ink: __ink) overlap by more than 1.5 px
//     either way (the lines of one label, consecutive <text> of one style
//     one line apart and aligned, count as one box), and every text box
//     lies inside its SVG.
//
// gonum's SVG names nothing, so the parts are found by their geometry:
// filled paths with the same left and right edges, one below the other
// without a gap, form a column; columns that abut side by side form a
// heatmap; a lone column of 16 or more bands, taller than wide, is a
// colour bar; an <image> is a bar when its picture is at least 8 times taller
// than wide, else a heatmap, measured as drawn (preserveAspectRatio,
// default xMidYMid meet). The verdict counts the figures, heatmaps, colour
// bars and text boxes measured.
const pageCheck = `<script>
window.__errors = [];
window.addEventListener('error', function (e) { __errors.push(String(e.message || (e.target && (e.target.src || e.target.href)) || 'error')); }, true);
function __box(r) { return {l: r.left, r: r.right, t: r.top, b: r.bottom}; }
function __union(a, b) { return {l: Math.min(a.l, b.l), r: Math.max(a.r, b.r), t: Math.min(a.t, b.t), b: Math.max(a.b, b.b)}; }
function __size(b) { return Math.round(b.r - b.l) + 'x' + Math.round(b.b - b.t); }
// The pixel size of a base64 PNG (its IHDR), or null.
function __png(href) {
  var i = href.indexOf('base64,');
  if (i < 0) return null;
  var s = atob(href.slice(i + 7, i + 7 + 32));
  if (s.slice(1, 4) !== 'PNG') return null;
  function u32(o) { return ((s.charCodeAt(o) << 24) | (s.charCodeAt(o + 1) << 16) | (s.charCodeAt(o + 2) << 8) | s.charCodeAt(o + 3)) >>> 0; }
  return {w: u32(16), h: u32(20)};
}
// The box an <image>'s picture is drawn in: scaled to fit its box keeping
// its aspect ratio unless preserveAspectRatio is none.
function __imageBox(im) {
  var r = __box(im.getBoundingClientRect()), n = __png((im.href && im.href.baseVal) || '');
  var par = im.getAttribute('preserveAspectRatio') || 'xMidYMid meet';
  if (!n || /none/.test(par)) return {box: r, n: n};
  var W = r.r - r.l, H = r.b - r.t, k = /slice/.test(par) ? Math.max(W / n.w, H / n.h) : Math.min(W / n.w, H / n.h);
  var w = n.w * k, h = n.h * k, x = r.l + (W - w) / 2, y = r.t + (H - h) / 2;
  return {box: {l: x, r: x + w, t: y, b: y + h}, n: n};
}
// The heatmaps and colour bars of an SVG.
function __parts(svg) {
  var cols = {}, heat = [], bars = [];
  svg.querySelectorAll('path').forEach(function (p) {
    var f = getComputedStyle(p).fill;
    if (f === 'none' || f === 'rgb(255, 255, 255)') return;
    var b = __box(p.getBoundingClientRect());
    if (b.r - b.l < 0.5 || b.b - b.t < 0.5) return;
    var k = Math.round(b.l * 4) + ':' + Math.round(b.r * 4);
    (cols[k] = cols[k] || []).push(b);
  });
  // A column splits into runs of cells one below the other (panels in
  // one column of tiles share their left and right edges).
  var groups = [];
  Object.keys(cols).forEach(function (k) {
    var g = null;
    cols[k].sort(function (a, b) { return a.t - b.t; }).forEach(function (b) {
      if (g && b.t <= g.box.b + 0.5) { g.box = __union(g.box, b); g.n++; return; }
      g = {box: b, n: 1, comp: -1};
      groups.push(g);
    });
  });
  groups = groups.filter(function (g) { return g.n >= 2; });
  function abut(a, b) {
    var ov = Math.min(a.box.b, b.box.b) - Math.max(a.box.t, b.box.t);
    return Math.abs(a.box.r - b.box.l) < 0.6 && ov > 0.5 * Math.min(a.box.b - a.box.t, b.box.b - b.box.t);
  }
  groups.forEach(function (g, i) {
    if (g.comp >= 0) return;
    g.comp = i;
    var todo = [g], members = [g];
    while (todo.length) {
      var a = todo.pop();
      groups.forEach(function (b) { if (b.comp < 0 && (abut(a, b) || abut(b, a))) { b.comp = i; todo.push(b); members.push(b); } });
    }
    if (members.length >= 2) {
      heat.push(members.reduce(function (u, m) { return __union(u, m.box); }, members[0].box));
    } else if (g.n >= 16 && g.box.b - g.box.t > 2 * (g.box.r - g.box.l)) {
      bars.push(g.box);
    }
  });
  svg.querySelectorAll('image').forEach(function (im) {
    var d = __imageBox(im);
    if (d.n && d.n.h >= 8 * d.n.w) bars.push(d.box); else heat.push(d.box);
  });
  return {heat: heat, bars: bars};
}
// The ink of a <text> on the page: its advance width by the string's
// actual ascent and descent in its font (a canvas's measureText) about
// its baseline, in its own coordinates mapped to the page. Its em box
// (getBoundingClientRect) is the font's full ascent and descent, taller
// than any ink: gonum stacks a legend's lines an ascent apart, and the
// em boxes of two lines overlap though their letters do not.
var __ctx = document.createElement('canvas').getContext('2d');
function __ink(t) {
  var cs = getComputedStyle(t), bb = t.getBBox(), m = t.getScreenCTM(), y = parseFloat(t.getAttribute('y')) || 0;
  __ctx.font = cs.fontStyle + ' ' + cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
  var mt = __ctx.measureText(t.textContent), y0 = y - mt.actualBoundingBoxAscent, y1 = y + mt.actualBoundingBoxDescent;
  var b = null;
  [[bb.x, y0], [bb.x + bb.width, y0], [bb.x, y1], [bb.x + bb.width, y1]].forEach(function (p) {
    var q = new DOMPoint(p[0], p[1]).matrixTransform(m), c = {l: q.x, r: q.x, t: q.y, b: q.y};
    b = b ? __union(b, c) : c;
  });
  return b;
}
// The text boxes of an SVG, the lines of one label merged.
function __texts(svg) {
  var out = [], last = null;
  svg.querySelectorAll('text').forEach(function (t) {
    if (!t.textContent.trim()) return;
    var b = __ink(t), bb = t.getBBox();
    var size = parseFloat(getComputedStyle(t).fontSize), y = parseFloat(t.getAttribute('y'));
    var style = t.getAttribute('style'), parent = t.parentNode;
    if (last && last.parent === parent && last.style === style && Math.abs(Math.abs(y - last.y) - last.size) < 0.15 * last.size &&
        (Math.abs(bb.x - last.bb.x) < 0.6 || Math.abs(bb.x + bb.width / 2 - last.bb.x - last.bb.width / 2) < 0.6 || Math.abs(bb.x + bb.width - last.bb.x - last.bb.width) < 0.6)) {
      last.box = __union(last.box, b);
      last.text += ' / ' + t.textContent;
    } else {
      last = {box: b, text: t.textContent, parent: parent, style: style, size: size};
      out.push(last);
    }
    last.y = y; last.bb = bb;
  });
  return out;
}
window.addEventListener('load', function () {
  var figs = document.querySelectorAll('figure'), bad = [], nheat = 0, nbars = 0, ntexts = 0, tol = 1.5;
  figs.forEach(function (f) {
    var el = f.querySelector('svg, img');
    if (!el) { bad.push(f.id + ': nothing drawn'); return; }
    var r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    if (r.width < 300 || r.height < 150 || cs.visibility !== 'visible' || cs.display === 'none') bad.push(f.id + ': ' + Math.round(r.width) + 'x' + Math.round(r.height));
    if (el.tagName === 'IMG' && !(el.complete && el.naturalWidth > 0)) bad.push(f.id + ': image not decoded');
    if (el.tagName !== 'svg' || r.width === 0) return;
    var parts = __parts(el);
    nheat += parts.heat.length; nbars += parts.bars.length;
    if (parts.heat.length && !parts.bars.length) bad.push(f.id + ': a heatmap without a colour bar');
    parts.bars.forEach(function (b) {
      var near = null;
      parts.heat.forEach(function (h) {
        if (h.r <= b.l + 1 && Math.min(h.b, b.b) > Math.max(h.t, b.t) && (!near || h.r > near.r)) near = h;
      });
      if (!near) { bad.push(f.id + ': colour bar ' + __size(b) + ' with no heatmap at its left'); return; }
      if (b.b - b.t < 0.5 * (near.b - near.t) || b.r - b.l < 4) bad.push(f.id + ': colour bar ' + __size(b) + ' beside a heatmap ' + __size(near));
    });
    var texts = __texts(el), fb = __box(r), n = 0;
    ntexts += texts.length;
    texts.forEach(function (a, i) {
      if (a.box.l < fb.l - tol || a.box.r > fb.r + tol || a.box.t < fb.t - tol || a.box.b > fb.b + tol) bad.push(f.id + ': text "' + a.text + '" outside the figure (' + [fb.l - a.box.l, a.box.r - fb.r, fb.t - a.box.t, a.box.b - fb.b].map(function (x) { return Math.round(x * 10) / 10; }).join(' ') + ' px: left right top bottom)');
      for (var j = i + 1; j < texts.length; j++) {
        var b = texts[j];
        if (Math.min(a.box.r, b.box.r) - Math.max(a.box.l, b.box.l) > tol && Math.min(a.box.b, b.box.b) - Math.max(a.box.t, b.box.t) > tol && n++ < 3) bad.push(f.id + ': text "' + a.text + '" overlaps "' + b.text + '" by ' + __size({l: Math.max(a.box.l, b.box.l), r: Math.min(a.box.r, b.box.r), t: Math.max(a.box.t, b.box.t), b: Math.min(a.box.b, b.box.b)}) + ' px');
      }
    });
  });
  document.title = 'CHECK figures=' + figs.length + ' heatmaps=' + nheat + ' bars=' + nbars + ' texts=' + ntexts + ' bad=' + JSON.stringify(bad) + ' errors=' + JSON.stringify(__errors);
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
	// The checked copy sits beside the page, so that the figures it loads
	// from plots/ are found, and loads every figure at once: a lazy image
	// below the window would never load and could not be checked.
	checked := filepath.Join(filepath.Dir(page), "checked-"+filepath.Base(page))
	src = bytes.ReplaceAll(src, []byte(` loading="lazy"`), nil)
	os.WriteFile(checked, bytes.Replace(src, []byte("<head>"), []byte("<head>"+pageCheck), 1), 0o644)
	defer os.Remove(checked)
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

// verdict is pageCheck's verdict, parsed.
type verdict struct {
	figures, heatmaps, bars, texts int
	bad, errors                    string
}

func parseVerdict(t *testing.T, s string) verdict {
	t.Helper()
	m := regexp.MustCompile(`^CHECK figures=(\d+) heatmaps=(\d+) bars=(\d+) texts=(\d+) bad=(.*) errors=(.*)$`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("page check verdict %q", s)
	}
	var v verdict
	for i, p := range []*int{&v.figures, &v.heatmaps, &v.bars, &v.texts} {
		*p, _ = strconv.Atoi(m[i+1])
	}
	v.bad, v.errors = m[5], m[6]
	return v
}

// TestReportInChromium loads the report in a real headless browser: the
// page loads without an error and every figure is drawn at a visible
// size, every colour bar as tall as half its heatmap at least, and no two
// text boxes of a figure overlap (pageCheck). The study's node maps have
// six panels each (two patterns by three loads). Controls must fail the
// same checks: a page with a figure hidden and an image missing, and
// figures drawn as before issue 35 (gonum's hairline colour bar; panel
// titles running into each other; a plot cut by the figure's edge). It
// needs Debian's chromium package (.ci/run installs it); without it the
// test skips, saying so. ICNSIM_SCREENSHOT_DIR saves a 1280 px screenshot.
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
	maps, _ := filepath.Glob(filepath.Join(d, "plots", "node-*-map*.svg"))
	got := browse(t, bin, page, shot)
	t.Logf("report in chromium: %s", got)
	v := parseVerdict(t, got)
	if v.figures != len(svgs) || v.bad != "[]" || v.errors != "[]" {
		t.Errorf("report in chromium: %s, want figures=%d bad=[] errors=[]", got, len(svgs))
	}
	// Every node map measured: a heatmap per panel, and a colour bar.
	if len(maps) < 3 || v.heatmaps < 6*len(maps) || v.bars < len(maps) {
		t.Errorf("%d node maps, but %d heatmaps and %d colour bars measured", len(maps), v.heatmaps, v.bars)
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
	// The controls drawn as before issue 35.
	old := filepath.Join(d, "old.html")
	os.WriteFile(old, []byte(`<!DOCTYPE html><html><head><title>old</title></head><body><figure id="hairline">`+hairlineFigure(t)+
		`</figure><figure id="crowded">`+crowdedFigure(t)+`</figure></body></html>`), 0o644)
	got = browse(t, bin, old, "")
	t.Logf("figures drawn as before: %s", got)
	for _, want := range []string{
		`hairline: colour bar 1x`,
		`crowded: text \"pattern=transpose load_flits_per_node_cycle=0.1\" overlaps \"pattern=transpose load_flits_per_node_cycle=0.3\"`,
		`crowded: text \"0\" outside the figure`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the page check did not report %q: %s", want, got)
		}
	}
	if v := parseVerdict(t, got); v.heatmaps != 1 || v.bars != 1 {
		t.Errorf("the hairline figure: %d heatmaps, %d colour bars found, want 1 and 1", v.heatmaps, v.bars)
	}
}

// testGrid is a heatmap's grid for the controls: Z[y][x].
type testGrid [][]float64

func (g testGrid) Dims() (c, r int)   { return len(g[0]), len(g) }
func (g testGrid) Z(c, r int) float64 { return g[r][c] }
func (g testGrid) X(c int) float64    { return float64(c) }
func (g testGrid) Y(r int) float64    { return float64(r) }

// inlineSVG renders draw into a 6 x 4 in SVG, without its XML prolog.
func inlineSVG(t *testing.T, fn func(draw.Canvas)) string {
	t.Helper()
	c := vgsvg.New(6*vg.Inch, 4*vg.Inch)
	fn(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	return s[strings.Index(s, "<svg"):]
}

// hairlineFigure draws a heatmap with its colour bar as the figure package
// did before 487b432: gonum's plotter.ColorBar, an image one pixel wide,
// in a column 1.1 in wide at the right.
func hairlineFigure(t *testing.T) string {
	cm := moreland.Kindlmann()
	cm.SetMin(0)
	cm.SetMax(1)
	z := make(testGrid, 4)
	for y := range z {
		z[y] = []float64{0, 0.25, 0.5, 1}
	}
	p := plot.New()
	p.Add(plotter.NewHeatMap(z, cm.Palette(64)))
	bar := plot.New()
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	bar.HideX()
	bar.Y.Label.Text = "Accepted throughput (flits/cycle)"
	return inlineSVG(t, func(dc draw.Canvas) {
		p.Draw(draw.Crop(dc, 0, -1.1*vg.Inch, 0, 0))
		bar.Draw(draw.Crop(dc, dc.Max.X-dc.Min.X-1.1*vg.Inch, 0, vg.Points(6), -vg.Points(6)))
	})
}

// crowdedFigure draws three panels titled by "key=value" pairs in gonum's
// tiles, as saveTiles did before issue 35: the titles run into each other;
// and a fourth plot past the figure's right edge.
func crowdedFigure(t *testing.T) string {
	var plots []*plot.Plot
	for _, load := range []string{"0.1", "0.3", "0.5", "0.7"} {
		p := plot.New()
		p.Title.Text = "pattern=transpose load_flits_per_node_cycle=" + load
		p.Add(plotter.NewGrid())
		plots = append(plots, p)
	}
	return inlineSVG(t, func(dc draw.Canvas) {
		tiles := draw.Tiles{Rows: 2, Cols: 3}
		for i, p := range plots[:3] {
			p.Draw(tiles.At(dc, i, 0))
		}
		plots[3].Draw(draw.Crop(dc, dc.Max.X-dc.Min.X-vg.Inch, vg.Inch, 0, -2*vg.Inch))
	})
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

[network.mesh]
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
key = "network.mesh.k"
values = [3, 5]
`, []string{"node-throughput-map", "node-latency-map"}},
		{"fattree-both", `name = "ft"
seed = 1
[network]
topology = "fattree"

[network.fattree]
k = 4
levels = 2
[router]
routing = "fattree-adaptive"
vc.vcs = 1
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
		{"mesh-ten-loads-shared", `name = "ten"
seed = 1
[network]
topology = "mesh"

[network.mesh]
k = 3
[router]
routing = "dor"
[traffic]
process = "bernoulli"
[measure]
warmup_cycles = 20
measure_cycles = 60
drain_cycles = 300
[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]
[plot]
node_scale = "shared"
`, []string{"node-throughput-map", "node-throughput-map-2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := parse(t, c.toml)
			d := t.TempDir()
			run(t, f, Options{Out: d})
			for _, w := range c.want {
				checkNodeSVG(t, filepath.Join(d, "plots", w+".svg"))
			}
			// Ten points: two figures of five panels each.
			if c.name == "mesh-ten-loads-shared" {
				for _, w := range c.want {
					rows := readCSV(t, filepath.Join(d, "plots", w+".csv"))
					panels := map[string]bool{}
					for _, r := range rows[1:] {
						panels[r[0]] = true
					}
					if len(panels) != 5 || len(rows) != 1+5*9 {
						t.Errorf("%s.csv: %d panels in %d rows, want 5 panels of 9 nodes", w, len(panels), len(rows)-1)
					}
				}
			}
			if _, err := os.Stat(filepath.Join(d, ReportFile)); err != nil {
				t.Error(err)
			}
		})
	}
}

// checkNodeSVG checks that the node figure at path is as wide as the
// default figure and at least as high (rows of square cells grow it), and
// not blank.
func checkNodeSVG(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Error(err)
		return
	}
	m := regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"`).FindSubmatch(b)
	if m == nil {
		t.Errorf("%s: no <svg width height>", path)
		return
	}
	w, _ := strconv.ParseFloat(string(m[1]), 64)
	h, _ := strconv.ParseFloat(string(m[2]), 64)
	if w != figure.DefaultWidth.Points() || h < figure.DefaultHeight.Points() {
		t.Errorf("%s: %vpt x %vpt, want %vpt wide and %vpt high or more", path, w, h, figure.DefaultWidth.Points(), figure.DefaultHeight.Points())
	}
	if n := bytes.Count(b, []byte("<path")); n < 10 {
		t.Errorf("%s looks blank: %d paths", path, n)
	}
}
