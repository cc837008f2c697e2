package htmlreport

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestPageIsInert: the page inlines a plain SVG, shows an SVG with a
// script only as an image (where it cannot run), and escapes the study
// file, the summary and the references, so no input can add a script.
func TestPageIsInert(t *testing.T) {
	plain := []byte("<?xml version=\"1.0\"?>\n<svg width=\"10pt\" height=\"10pt\" viewBox=\"0 0 10 10\"><text>a &lt; b</text></svg>")
	active := []byte(`<svg viewBox="0 0 1 1" onload="alert(1)"><script>alert(2)</script></svg>`)
	p := &Page{Title: "t<script>", Study: `name = "<script>x</script>"`, Summary: "<b>", Version: "v",
		References: []Reference{{Source: "<img src=x onerror=alert(3)>"}},
		Figures:    []Figure{{Name: "plain", SVG: plain}, {Name: "active", SVG: active}, {Name: "raster", PNG: []byte{0x89, 'P', 'N', 'G'}}},
		Runs:       []Run{{ID: "p000000-r000", Digest: "abc"}}}
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, bad := range []string{"<script", "onload=", "<img src=x", "<?xml"} {
		if strings.Contains(html, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	for _, want := range []string{`<svg role="img"`, `src="data:image/svg&#43;xml;base64,`, `src="data:image/png;base64,iVBORw==`, "p000000-r000"} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(html, "<figure "); n != 3 {
		t.Errorf("%d figures, want 3", n)
	}
}

// svgOf is a plain SVG of about n bytes (a long path), drawn 432 x 288.
func svgOf(n int) []byte {
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="432pt" height="288pt" viewBox="0 0 432 288"><path d="M0 0`)
	for b.Len() < n-20 {
		b.WriteString(" L1 1")
	}
	b.WriteString(`"/></svg>`)
	return []byte(b.String())
}

// filesOf are a figure's files in plots/.
func filesOf(name string, formats ...string) []File {
	var out []File
	for _, f := range formats {
		out = append(out, File{Format: strings.ToUpper(f), Href: "plots/" + name + "." + f})
	}
	return out
}

// positions returns where each of marks first occurs in s, failing the
// test for one that does not.
func positions(t *testing.T, s string, marks ...string) []int {
	t.Helper()
	var at []int
	for _, m := range marks {
		i := strings.Index(s, m)
		if i < 0 {
			t.Fatalf("page lacks %q", m)
		}
		at = append(at, i)
	}
	return at
}

// TestPageOrder: the title, the study's purpose, the list of figures, the
// paper-form figures, the published values, the other figures, then the
// summary, the study file and the runs, each folded.
func TestPageOrder(t *testing.T) {
	p := &Page{Title: "study-x", Purpose: []string{"What the study is for.", "A second paragraph."}, Words: "8x8 mesh", Version: "v",
		Study: "name = \"study-x\"", Summary: "SUMMARY-TABLE", Runs: []Run{{ID: "p000000-r000", Digest: "d"}},
		References:   []Reference{{Source: "Paper, Table 1", Metric: "Mean packet latency (cycles)", Published: 20, Ours: 21, Difference: 0.05}},
		PaperFigures: []Figure{{Name: "paper-fig5", Caption: "The paper's Fig. 5 redrawn. More words.", SVG: svgOf(200)}},
		Figures:      []Figure{{Name: "latency-cdf", Caption: "Distribution of packet latency. Second sentence.", SVG: svgOf(200)}}}
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	at := positions(t, html, "<h1>study-x</h1>", "What the study is for.", "List of figures", `<figure id="fig-1">`, `id="references"`, `<figure id="fig-2">`,
		`<details><summary>The summary table`, "SUMMARY-TABLE", `<details><summary>The study file`, `<details><summary>The 1 runs`, "p000000-r000")
	for i := 1; i < len(at); i++ {
		if at[i] <= at[i-1] {
			t.Errorf("the page's parts are out of order: %v", at)
		}
	}
	if !strings.Contains(html, "<p>A second paragraph.</p>") {
		t.Error("the purpose's second paragraph is not a paragraph of its own")
	}
}

// TestListOfFigures: the list of figures near the top numbers every
// figure, links its anchor and gives its caption's first sentence; each
// figure carries its whole caption, its file name after it, and links to
// its files.
func TestListOfFigures(t *testing.T) {
	p := &Page{Title: "t", PaperFigures: []Figure{{Name: "paper-a", Caption: "Paper form of Fig. 3 of the paper. Ours drawn like theirs.", SVG: svgOf(100), Files: filesOf("paper-a", "svg", "pdf")}}}
	for i := range 3 {
		name := fmt.Sprintf("fig%d", i)
		p.Figures = append(p.Figures, Figure{Name: name, Caption: fmt.Sprintf("Caption number %d of the figures. Details of %d.", i, i), SVG: svgOf(100), Files: filesOf(name, "svg", "png", "csv")})
	}
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	toc := html[strings.Index(html, "List of figures"):strings.Index(html, "<figure ")]
	for i, want := range []string{"Paper form of Fig. 3 of the paper.", "Caption number 0 of the figures.", "Caption number 1 of the figures.", "Caption number 2 of the figures."} {
		item := fmt.Sprintf(`<li><a href="#fig-%d">Figure %d</a>. %s</li>`, i+1, i+1, want)
		if !strings.Contains(toc, item) {
			t.Errorf("list of figures lacks %s", item)
		}
	}
	if strings.Contains(toc, "Details of") || strings.Contains(toc, "Ours drawn") {
		t.Error("the list of figures holds whole captions, not their first sentences")
	}
	for _, want := range []string{
		`<figcaption><b>Figure 1.</b> Paper form of Fig. 3 of the paper. Ours drawn like theirs. <span class="file">paper-a</span><br><span class="files"><a href="plots/paper-a.svg">SVG</a> · <a href="plots/paper-a.pdf">PDF</a></span></figcaption>`,
		`<figcaption><b>Figure 4.</b> Caption number 2 of the figures. Details of 2. <span class="file">fig2</span><br><span class="files"><a href="plots/fig2.svg">SVG</a> · <a href="plots/fig2.png">PNG</a> · <a href="plots/fig2.csv">CSV</a></span></figcaption>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %s", want)
		}
	}
}

// TestSig4: four significant digits, integers whole, no "-0", exponents
// only for the very small and the very large.
func TestSig4(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{0.155826087, "0.1558"}, {0.60754, "0.6075"}, {232, "232"}, {65536, "65536"}, {1024, "1024"},
		{3.14159265, "3.142"}, {0.05, "0.05"}, {-2.5, "-2.5"}, {12345.678, "12350"}, {0.99999, "1"},
		{math.Copysign(0, -1), "0"}, {-0.00001234, "-1.234e-05"}, {0.0001234, "0.0001234"}, {2e20, "2e+20"},
		{math.NaN(), "–"}, {math.Inf(1), "∞"}, {math.Inf(-1), "−∞"},
	} {
		if got := Sig4(c.x); got != c.want {
			t.Errorf("Sig4(%v) = %q, want %q", c.x, got, c.want)
		}
	}
	for _, c := range []struct {
		rel  float64
		want string
	}{{3.5917, "+359.2%"}, {-0.02609, "-2.609%"}, {0, "0%"}, {math.Copysign(0, -1), "0%"}, {0.1, "+10%"}, {math.NaN(), "–"}} {
		if got := Percent(c.rel); got != c.want {
			t.Errorf("Percent(%v) = %q, want %q", c.rel, got, c.want)
		}
	}
}

// TestFarDifferences: a difference beyond ±25% is marked in its row (a
// class, bold and ⚠, which survive greyscale printing); one of 10% or
// exactly 25% is not; numbers show four significant digits; a long note is
// folded behind its start, a short one shown whole.
func TestFarDifferences(t *testing.T) {
	long := strings.Repeat("A long note about the paper's method. ", 8)
	p := &Page{Title: "t", References: []Reference{
		{Source: "far-up", Published: 0.16, Ours: 0.734662, Difference: 3.591638},
		{Source: "near", Published: 0.5, Ours: 0.55, Difference: 0.1, Note: "short note"},
		{Source: "far-down", Published: 100, Ours: 69.87654, Difference: -0.3012346, Note: long},
		{Source: "edge", Published: 1, Ours: 1.25, Difference: 0.25},
		{Source: "none", Published: 1, Ours: math.NaN(), Difference: math.NaN()},
	}}
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	rows := map[string]string{}
	for _, row := range strings.Split(html, "<tr>")[1:] {
		if i := strings.Index(row, `<td class="l">`); i >= 0 {
			src := row[i+len(`<td class="l">`):]
			rows[src[:strings.Index(src, "<")]] = row
		}
	}
	for src, far := range map[string]bool{"far-up": true, "near": false, "far-down": true, "edge": false, "none": false} {
		row := rows[src]
		if got := strings.Contains(row, `class="far"`) && strings.Contains(row, "<b>⚠ "); got != far {
			t.Errorf("row %s marked far: %v, want %v:\n%s", src, got, far, row)
		}
	}
	// html/template writes "+" as "&#43;" in text: a browser shows "+".
	for src, want := range map[string][]string{
		"far-up":   {"<td>0.16</td>", "<td>0.7347</td>", "⚠ &#43;359.2%"},
		"near":     {"<td>0.55</td>", "<td>&#43;10%</td>", "short note</td>"},
		"far-down": {"<td>69.88</td>", "⚠ -30.12%", "<details><summary>A long note about"},
		"none":     {"<td>–</td>"},
	} {
		for _, w := range want {
			if !strings.Contains(rows[src], w) {
				t.Errorf("row %s lacks %q:\n%s", src, w, rows[src])
			}
		}
	}
	if !strings.Contains(html, "(2 of 5)") {
		t.Error("the table's legend does not count the far differences")
	}
}

// TestInlineBudget: a page of many large figures inlines them, in page
// order, only while the page stays under its budget; the rest are lazy
// images of their files, sized from their viewBox. A figure with no file
// to refer to is inlined whatever its size, and an active SVG past the
// budget is an image of its file, never inline.
func TestInlineBudget(t *testing.T) {
	p := &Page{Title: "big", Summary: strings.Repeat("s", 100_000)}
	for i := range 40 {
		name := fmt.Sprintf("fig-%02d", i)
		p.Figures = append(p.Figures, Figure{Name: name, Caption: "A large figure.", SVG: svgOf(200_000), Files: filesOf(name, "svg", "png")})
	}
	p.Figures = append(p.Figures,
		Figure{Name: "no-file", Caption: "Only in memory.", SVG: svgOf(50_000)},
		Figure{Name: "active", Caption: "Runs a script.", SVG: append([]byte(`<svg viewBox="0 0 10 10"><script>x()</script>`), svgOf(200_000)...), Files: filesOf("active", "svg")},
		Figure{Name: "raster", Caption: "A PNG only.", PNG: bytes.Repeat([]byte{1}, 300_000), Files: filesOf("raster", "png")})
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if b.Len() >= PageBudgetBytes {
		t.Errorf("page of %d bytes, want under %d", b.Len(), PageBudgetBytes)
	}
	inline, lazy := strings.Count(html, `<svg role="img"`), strings.Count(html, `loading="lazy"`)
	if inline < 3 || lazy < 30 || inline+lazy != len(p.Figures) {
		t.Errorf("%d inline and %d lazy of %d figures", inline, lazy, len(p.Figures))
	}
	// Page order: the first figures inline, the later ones lazy.
	if i, j := strings.Index(html, `<figure id="fig-1"><svg`), strings.Index(html, `<figure id="fig-40"><img alt="A large figure." src="plots/fig-39.svg" loading="lazy" width="432" height="288">`); i < 0 || j < 0 {
		t.Error("the first figure is not inline or the 40th not a lazy image of its file")
	}
	for _, want := range []string{`<figure id="fig-41"><svg role="img"`, `<img alt="Runs a script." src="plots/active.svg" loading="lazy"`, `<img alt="A PNG only." src="plots/raster.png" loading="lazy"`} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(html, "<script") || strings.Contains(html, "data:image/png") {
		t.Error("the page inlines the active SVG or the PNG past its budget")
	}
}

// TestFirstSentence: a sentence ends at a full stop before a capital, not
// inside "Fig. 5" or "e.g. The".
func TestFirstSentence(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Fig. 5 of the paper (papers/001): the rate. Second one.", "Fig. 5 of the paper (papers/001): the rate."},
		{"One sentence only", "One sentence only"},
		{"Ends here. ", "Ends here."},
		{"See Sect. II-B and Figs. 3-4 for it. Then more.", "See Sect. II-B and Figs. 3-4 for it."},
		{"Throughput 0.5 flits. Next", "Throughput 0.5 flits."},
		{"Over the ring. plots/x has a line. 3 x 5 = 15 runs.", "Over the ring. plots/x has a line."},
		{"Lines for e.g. The paper.", "Lines for e.g. The paper."},
		{"Why? Because.", "Why?"},
		{"", ""},
	} {
		if got := FirstSentence(c.in); got != c.want {
			t.Errorf("FirstSentence(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestIndexPage: the index links each study's report with its name, its
// purpose and its number of figures, is marked as an index (a later index
// may replace it), and a study's report is not.
func TestIndexPage(t *testing.T) {
	idx := &Index{Version: "v", Studies: []IndexEntry{
		{Name: "fig5", Dir: "out/fig5", Href: "fig5/index.html", Purpose: "Fig. 5 of the paper.", Figures: 25},
		{Name: "x<y", Dir: "out/x", Href: "x%20y/index.html", Purpose: "Another.", Figures: 0},
	}}
	var b bytes.Buffer
	if err := WriteIndex(&b, idx); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{`<a href="fig5/index.html">fig5</a>`, "Fig. 5 of the paper.", "<td>25</td>", `<a href="x%20y/index.html">x&lt;y</a>`, "2 studies"} {
		if !strings.Contains(html, want) {
			t.Errorf("index lacks %s", want)
		}
	}
	if !IsIndex(b.Bytes()) {
		t.Error("the index is not marked as one")
	}
	var page bytes.Buffer
	if err := Write(&page, &Page{Title: "t"}); err != nil {
		t.Fatal(err)
	}
	if IsIndex(page.Bytes()) {
		t.Error("a study's report reads as an index")
	}
}
