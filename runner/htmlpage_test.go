package runner

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/htmlreport"
)

// pageStudy is a small load sweep with a purpose in its leading comment
// and two published values (invented for the test): one near ours, one
// far from it (a 4x4 mesh accepts about the 0.05 offered, not 0.5).
const pageStudy = `# The report page's test study: a 4x4 mesh under two patterns.
# It says what it is for in this comment.
#
# A second paragraph.
name = "page"
seed = 5
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
sample_cycles = 100
[[axis]]
key = "traffic.pattern"
values = ["uniform", "transpose"]
[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.05, 0.3]
[[reference]]
source = "Near paper, Table 1"
metric = "accepted_flits_per_node_cycle"
value = 0.05
at = { "traffic.pattern" = "uniform", "traffic.load_flits_per_node_cycle" = 0.05 }
[[reference]]
source = "Far paper, Table 2"
metric = "accepted_flits_per_node_cycle"
value = 0.5
at = { "traffic.pattern" = "transpose", "traffic.load_flits_per_node_cycle" = 0.05 }
note = "Invented for the test, ten times what the network is offered."
`

// runPageStudy runs pageStudy into a new directory, adds a paper-form
// figure (a copy of one the run drew, as the paper-form code will write
// them) and rewrites the report.
func runPageStudy(t *testing.T) (dir, page string) {
	t.Helper()
	f := parse(t, pageStudy)
	d := t.TempDir()
	run(t, f, Options{Out: d})
	src, err := os.ReadFile(filepath.Join(d, "plots", "latency-cdf.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "plots", "paper-fig1.svg"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	g, recs, err := Reload(t.Context(), d)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteReport(d, g, recs); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(d, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	return d, string(b)
}

// TestReportPage: the page reads from the top: the study's purpose, the
// list of figures (one per figure, numbered, with its caption's first
// sentence), the paper-form figures, the published values (four
// significant digits; the far one marked, the near one as far as it is),
// the other figures, then the summary folded.
func TestReportPage(t *testing.T) {
	d, html := runPageStudy(t)
	f, err := LoadStudy(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	names := figureNames(d, f)
	if len(names) < 8 || names[0] != "paper-fig1" {
		t.Fatalf("figures %v: want the paper-form one first of many", names)
	}
	var at []int
	for _, mark := range []string{"The report page&#39;s test study: a 4x4 mesh under two patterns. It says what it is for in this comment.",
		"<p>A second paragraph.</p>", "List of figures", `<figure id="fig-1">`, `id="references"`, `<figure id="fig-2">`, `<details><summary>The summary table`, "study page: 4 points"} {
		i := strings.Index(html, mark)
		if i < 0 {
			t.Fatalf("page lacks %q", mark)
		}
		at = append(at, i)
	}
	for i := 1; i < len(at); i++ {
		if at[i] <= at[i-1] {
			t.Errorf("the page's parts are out of order: %v", at)
		}
	}
	// The list of figures: each figure numbered in page order with its
	// caption's first sentence, and the caption whole under the figure.
	for i, n := range names {
		caption := figureCaption(f, n)
		item := fmt.Sprintf(`<li><a href="#fig-%d">Figure %d</a>. %s</li>`, i+1, i+1, escape(htmlreport.FirstSentence(caption)))
		if !strings.Contains(html, item) {
			t.Errorf("list of figures lacks %s", item)
		}
		if !strings.Contains(html, fmt.Sprintf(`<b>Figure %d.</b> %s <span class="file">%s</span>`, i+1, escape(caption), n)) {
			t.Errorf("figure %d (%s) lacks its caption %q", i+1, n, caption)
		}
	}
	// The published values: ours to four significant digits, the far one
	// marked, the near one marked only if reference.csv has it beyond 25%.
	rows := readReferenceCSV(t, d)
	table := html[strings.Index(html, `id="references"`):strings.Index(html, "</table>")]
	for _, r := range rows {
		row := table[strings.Index(table, r["source"]):]
		row = row[:strings.Index(row, "</tr>")]
		rel, _ := strconv.ParseFloat(r["relative_difference"], 64)
		ours, _ := strconv.ParseFloat(r["ours"], 64)
		if marked := strings.Contains(row, `class="far"`) && strings.Contains(row, "⚠"); marked != (math.Abs(rel) > htmlreport.FarShare) {
			t.Errorf("%s: difference %v marked %v", r["source"], rel, marked)
		}
		if want := "<td>" + htmlreport.Sig4(ours) + "</td>"; !strings.Contains(row, want) {
			t.Errorf("%s: row lacks ours %s:\n%s", r["source"], want, row)
		}
		for _, cell := range regexp.MustCompile(`<td>([-0-9.e+]+)</td>`).FindAllStringSubmatch(row, -1) {
			if digits := strings.TrimLeft(strings.NewReplacer(".", "", "-", "").Replace(cell[1]), "0"); len(digits) > 4 {
				t.Errorf("%s: %s has more than four significant digits", r["source"], cell[1])
			}
		}
	}
	if r := rows[1]; r["source"] != "Far paper, Table 2" || !strings.Contains(table, "⚠") {
		t.Errorf("the far published value is not marked: %v", r)
	}
	for _, word := range []string{"brief", "issue 35"} {
		if strings.Contains(strings.ToLower(html), word) {
			t.Errorf("the page speaks of %q", word)
		}
	}
}

// escape is html/template's escaping of caption text.
func escape(s string) string {
	return strings.NewReplacer("'", "&#39;", "+", "&#43;", "&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;").Replace(s)
}

// readReferenceCSV reads reference.csv as rows keyed by column.
func readReferenceCSV(t *testing.T, dir string) []map[string]string {
	t.Helper()
	b, err := os.Open(filepath.Join(dir, "reference.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	recs, err := csv.NewReader(b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, rec := range recs[1:] {
		row := map[string]string{}
		for i, h := range recs[0] {
			row[h] = rec[i]
		}
		out = append(out, row)
	}
	return out
}

// TestReportSizeBudget: a study directory with many large figures gives
// a page under 2 MB: the first figures inline, the rest lazy images of
// their files in plots/, which exist.
func TestReportSizeBudget(t *testing.T) {
	d, _ := runPageStudy(t)
	f, recs, err := Reload(t.Context(), d)
	if err != nil {
		t.Fatal(err)
	}
	var big strings.Builder
	big.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 432 288"><path d="M0 0`)
	for big.Len() < 300_000 {
		big.WriteString(" L1 1")
	}
	big.WriteString(`"/></svg>`)
	for i := range 30 {
		if err := os.WriteFile(filepath.Join(d, "plots", fmt.Sprintf("series-big%02d.svg", i)), []byte(big.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteReport(d, f, recs); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(d, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(page) >= 2_000_000 {
		t.Errorf("page of %d bytes, want under 2 MB", len(page))
	}
	html := string(page)
	lazy := regexp.MustCompile(`<img alt="[^"]*" src="(plots/[^"]+)" loading="lazy"`).FindAllStringSubmatch(html, -1)
	inline := strings.Count(html, `<svg role="img"`)
	if figures := strings.Count(html, "<figure "); len(lazy) < 20 || inline < 3 || len(lazy)+inline != figures {
		t.Errorf("%d lazy images and %d inline SVGs of %d figures", len(lazy), inline, figures)
	}
	for _, m := range lazy {
		if _, err := os.Stat(filepath.Join(d, filepath.FromSlash(m[1]))); err != nil {
			t.Errorf("lazy image of a missing file: %v", err)
		}
	}
}

// TestStudyPurpose: the leading comment, without its marks, in paragraphs
// split at empty comment lines; an indented line keeps a line of its own;
// comments after the first key are not the purpose.
func TestStudyPurpose(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"# One line.\n# Two.\n#\n# Next.\nname = \"x\"\n# later\n", []string{"One line. Two.", "Next."}},
		{"name = \"x\"\n# after\n", nil},
		{"\n# After a blank line.\n\n## Double marks.\nseed = 1\n", []string{"After a blank line.", "Double marks."}},
		{"# Plots:\n#   series-a   the first\n#   series-b   the second\n# Then text.\nname = \"x\"\n", []string{"Plots:\nseries-a   the first\nseries-b   the second\nThen text."}},
	} {
		got := studyPurpose([]byte(c.src))
		if fmt.Sprint(got) != fmt.Sprint(c.want) || len(got) != len(c.want) {
			t.Errorf("studyPurpose(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

// TestReportIndexPath: the index of several reports goes in the directory
// that holds them (cwd when only the root does), as index.html unless that
// is a study directory or holds a page icnsim did not write as an index.
func TestReportIndexPath(t *testing.T) {
	root := t.TempDir()
	mk := func(rel string, files ...string) {
		if err := os.MkdirAll(filepath.Join(root, rel), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(root, rel, f), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	mk("out/a", "study.toml")
	mk("out/b", "study.toml")
	mk("deep/x/a", "study.toml")
	mk("study", "study.toml")
	mk("study/runs/a", "study.toml")
	mk("study/runs2/b", "study.toml")
	mk("site", ReportFile)
	mk("site/a", "study.toml")
	mk("site/b", "study.toml")
	mk("again/a", "study.toml")
	mk("again/b", "study.toml")
	var idx strings.Builder
	if err := htmlreport.WriteIndex(&idx, &htmlreport.Index{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "again", ReportFile), []byte(idx.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	abs := func(p string) string { return filepath.Join(root, p) }
	for _, c := range []struct {
		name string
		dirs []string
		cwd  string
		want string
	}{
		{"siblings, relative", []string{"out/a", "out/b"}, root, "out/index.html"},
		{"siblings, absolute", []string{abs("out/a"), abs("out/b")}, root, "out/index.html"},
		{"siblings, from elsewhere", []string{abs("out/a"), abs("out/b")}, abs("deep"), abs("out/index.html")},
		{"different depths", []string{"out/a", "deep/x/a"}, root, "index.html"},
		{"a study directory holds them", []string{"study/runs/a", "study/runs2/b"}, root, "study/" + ReportsFile},
		{"a page of the user's is there", []string{"site/a", "site/b"}, root, "site/" + ReportsFile},
		{"an earlier index is there", []string{"again/a", "again/b"}, root, "again/index.html"},
		{"only the root holds them", []string{abs("out/a"), "/"}, abs("deep"), ReportFile},
		{"trailing slashes", []string{"out/a/", "out/b/"}, root, "out/index.html"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReportIndexPath(c.dirs, c.cwd)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("ReportIndexPath(%q, %s) = %s, want %s", c.dirs, c.cwd, got, c.want)
			}
		})
	}
}
