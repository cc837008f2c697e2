// Package htmlreport writes a study's report: one static HTML page
// (index.html, in the study directory) that a reader navigates from the
// top: what the study is for, a list of figures with captions in words,
// the figures in a paper's form, the comparison with published values, the
// other figures, and, folded, the summary table, the study file and the
// provenance of every run. It also writes the index page of several
// studies' reports.
//
// The page needs no network and runs no script. Figures are inlined (SVG,
// or PNG as a data URI where a study draws no SVG) while the inlined bytes
// stay within InlineBudgetBytes; past it, a figure is an image of its file
// in plots/, loaded lazily, so that the page stays under PageBudgetBytes
// and opens from the study directory. The package knows nothing of how
// studies run; callers hand it a Page.
//
// It imports the standard library only.
package htmlreport

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// InlineBudgetBytes is the most bytes of figures (SVG text, PNG data
// URIs) a page inlines; the figures past it are images of their files.
const InlineBudgetBytes = 1_500_000

// PageBudgetBytes is the size a page stays under when its text alone
// (summary, study file, runs) leaves room: the inline budget shrinks to
// keep the whole page below it.
const PageBudgetBytes = 2_000_000

// FarShare is the relative difference from a published value beyond which
// the page marks it (bold and ⚠, so it survives greyscale printing).
const FarShare = 0.25

// Page is everything the report shows.
type Page struct {
	Title string // the study's name
	// Purpose is what the study is for, in paragraphs (the study file's
	// leading comment).
	Purpose []string
	Words   string // the parameters every point shares, in words
	// Lengths says how the runs were measured (run lengths, loads, --set
	// keys), generated from the study's points, beside Purpose (which a
	// shortened copy of a study leaves stale).
	Lengths string
	Version string // the icnsim build that wrote the page
	Study   string // the study file's text
	Summary string // summary.txt
	// References compare published values with ours (may be empty).
	References []Reference
	// PaperFigures are the figures in the form of a paper's: shown first,
	// before the published values. Figures are the others, after them.
	PaperFigures []Figure
	Figures      []Figure
	Runs         []Run
	// Unfinished are the runs that did not finish (undelivered measured
	// packets, a collective stopped, batches not stable), one line each:
	// shown as a warning at the top of the page.
	Unfinished []string
}

// Reference is one published value beside ours.
type Reference struct {
	// Metric is the metric in words; MetricName its name in the files.
	Source, Metric, MetricName, At string
	// Published and Ours are the values (NaN: none); Difference is
	// (ours - published) / |published| (NaN: none).
	Published, Ours, Difference float64
	Note                        string
}

// Figure is one figure: its name (the file's, without extension), its
// caption in words, its SVG text or PNG bytes (either may be empty) and
// its files.
type Figure struct {
	Name    string
	Caption string
	SVG     []byte
	PNG     []byte
	// Files are the figure's files by format ("SVG", "PNG", "PDF",
	// "CSV"), with addresses relative to the page; the page links them
	// under the caption and shows the SVG or PNG file when it does not
	// inline the figure.
	Files []File
}

// File is one of a figure's files.
type File struct {
	Format string // "SVG", "PNG", "PDF", "CSV"
	Href   string // relative to the page: plots/NAME.svg
}

// Run is one run's provenance.
type Run struct {
	ID, Point, Seed, Digest string
}

var prolog = regexp.MustCompile(`(?s)^\s*(<\?xml.*?\?>\s*)?(<!DOCTYPE.*?>\s*)?`)

// inlineSVG is an SVG document made fit to sit in the page: without its
// XML prolog and doctype, scaled to the figure's width.
func inlineSVG(b []byte) string {
	s := prolog.ReplaceAllString(string(b), "")
	return strings.Replace(s, "<svg ", `<svg role="img" preserveAspectRatio="xMidYMid meet" `, 1)
}

// active finds what in an SVG could run code or reach out when inlined:
// scripts, foreign content, event handlers, and javascript: or remote
// references.
var active = regexp.MustCompile(`(?i)<script|<foreignObject|\son[a-z]+\s*=|javascript:|(href|src)\s*=\s*["']?(https?:)?//`)

// plainSVG reports whether an SVG is safe to inline: nothing in it is
// active. gonum's SVGs (text escaped, no scripts) are.
func plainSVG(b []byte) bool { return !active.Match(b) }

// viewBox reads an SVG's drawing size, for an image's width and height
// attributes (so a lazy image keeps its place before it loads).
var viewBox = regexp.MustCompile(`viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"`)

type figureView struct {
	ID, Number, Name, Caption, Short string
	Inline                           template.HTML
	Src                              template.URL // the image's address (a data URI or a file) when not inline
	Lazy                             bool
	Width, Height                    int // the image's size attributes; 0: none
	Files                            []File
}

// figureSource is how a figure can be shown: inline text, a data URI or
// its file.
type figureSource struct {
	inline    string // sanitized SVG text to inline ("" when none)
	dataURI   string // an image's data URI ("" when none)
	file      string // the SVG or PNG file's address ("" when none)
	w, h      int
	mustEmbed bool // no file to refer to: inline or data URI at any size
}

func sourceOf(f Figure) figureSource {
	var s figureSource
	for _, format := range []string{"SVG", "PNG"} {
		for _, fl := range f.Files {
			if s.file == "" && fl.Format == format {
				s.file = fl.Href
			}
		}
	}
	switch {
	case len(f.SVG) > 0 && plainSVG(f.SVG):
		s.inline = inlineSVG(f.SVG)
	case len(f.SVG) > 0:
		// An SVG that could run a script or fetch something is shown as
		// an image, where it can do neither.
		s.dataURI = "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(f.SVG)
	case len(f.PNG) > 0:
		s.dataURI = "data:image/png;base64," + base64.StdEncoding.EncodeToString(f.PNG)
	}
	if m := viewBox.FindSubmatch(f.SVG); m != nil {
		w, _ := strconv.ParseFloat(string(m[1]), 64)
		h, _ := strconv.ParseFloat(string(m[2]), 64)
		s.w, s.h = int(math.Round(w)), int(math.Round(h))
	}
	s.mustEmbed = s.file == ""
	return s
}

// embedBytes is what inlining the figure adds to the page.
func (s figureSource) embedBytes() int { return len(s.inline) + len(s.dataURI) }

// view shows the figure inline when embed is set (or it has no file),
// else as a lazy image of its file.
func (s figureSource) view(v figureView, embed bool) figureView {
	switch {
	case (embed || s.mustEmbed) && s.inline != "":
		v.Inline = template.HTML(s.inline)
	case (embed || s.mustEmbed) && s.dataURI != "":
		v.Src = template.URL(s.dataURI)
	case s.file != "":
		v.Src, v.Lazy, v.Width, v.Height = template.URL(s.file), true, s.w, s.h
	}
	return v
}

type referenceView struct {
	Reference
	PublishedText, OursText, DifferenceText string
	Far                                     bool
	NoteShort                               string // the note's start, when the note is folded
}

// longNoteChars is the length past which a note is folded behind its start.
const longNoteChars = 160

// Write renders the page.
func Write(w io.Writer, p *Page) error {
	all := append(append([]Figure(nil), p.PaperFigures...), p.Figures...)
	srcs := make([]figureSource, len(all))
	views := make([]figureView, len(all))
	for i, f := range all {
		srcs[i] = sourceOf(f)
		if srcs[i].embedBytes() == 0 && srcs[i].file == "" && !hasFiles(f) {
			return fmt.Errorf("figure %s has neither SVG, PNG nor a file to link", f.Name)
		}
		views[i] = figureView{ID: fmt.Sprintf("fig-%d", i+1), Number: strconv.Itoa(i + 1), Name: f.Name, Caption: f.Caption, Short: FirstSentence(f.Caption), Files: f.Files}
	}
	refs := make([]referenceView, len(p.References))
	far := 0
	for i, r := range p.References {
		v := referenceView{Reference: r, PublishedText: Sig4(r.Published), OursText: Sig4(r.Ours), DifferenceText: Percent(r.Difference)}
		v.Far = math.Abs(r.Difference) > FarShare
		if v.Far {
			far++
		}
		if utf8.RuneCountInString(r.Note) > longNoteChars {
			v.NoteShort = CutWords(r.Note, longNoteChars/2)
		}
		refs[i] = v
	}
	render := func(embed func(i int) bool) ([]byte, error) {
		figs := make([]figureView, len(all))
		for i := range all {
			figs[i] = srcs[i].view(views[i], embed(i))
		}
		var buf bytes.Buffer
		err := page.Execute(&buf, struct {
			*Page
			Paper, Other []figureView
			Refs         []referenceView
			Count, Far   int
			FarPercent   string
		}{p, figs[:len(p.PaperFigures)], figs[len(p.PaperFigures):], refs, len(all), far, Sig4(100 * FarShare)})
		return buf.Bytes(), err
	}
	// The page's size without inlining what can be referred to: what is
	// left of PageBudgetBytes is for inline figures, up to
	// InlineBudgetBytes, in page order.
	bare, err := render(func(int) bool { return false })
	if err != nil {
		return err
	}
	left := min(InlineBudgetBytes, PageBudgetBytes-len(bare)-pageMarginBytes)
	inline := make([]bool, len(all))
	for i, s := range srcs {
		if n := s.embedBytes(); !s.mustEmbed && n > 0 && n <= left {
			inline[i], left = true, left-n
		}
	}
	out, err := render(func(i int) bool { return inline[i] })
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// pageMarginBytes is kept free of PageBudgetBytes for what inlining adds
// beyond the figures' own bytes (attributes, escaping).
const pageMarginBytes = 16 << 10

func hasFiles(f Figure) bool { return len(f.Files) > 0 }

// Sig4 writes x to four significant digits for a reader: an integer whole
// (232, 65536), a fraction without trailing zeros (0.1559, 3.142), an
// exponent only below 0.0001 or from 10^15; "–" for NaN, never "-0".
func Sig4(x float64) string {
	switch {
	case math.IsNaN(x):
		return "–"
	case math.IsInf(x, 1):
		return "∞"
	case math.IsInf(x, -1):
		return "−∞"
	case x == 0:
		return "0" // also -0
	}
	a := math.Abs(x)
	if a >= 1e15 {
		return strconv.FormatFloat(x, 'g', 4, 64)
	}
	if x == math.Trunc(x) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 4, 64), 64)
	if math.Abs(r) < 1e-4 {
		return strconv.FormatFloat(x, 'g', 4, 64)
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// Percent writes a relative difference as a signed percentage to four
// significant digits ("+359.2%", "-2.6%", "0%"); "–" for NaN.
func Percent(rel float64) string {
	if math.IsNaN(rel) {
		return "–"
	}
	s := Sig4(100 * rel)
	if s != "0" && rel > 0 {
		s = "+" + s
	}
	return s + "%"
}

// abbreviations are the words that end in a full stop that ends no sentence.
func abbreviations() []string {
	return []string{"Fig", "Figs", "Sect", "Sec", "Eq", "Eqs", "Ref", "Refs", "Tab", "No", "vs", "al", "cf", "e.g", "i.e", "approx", "resp"}
}

// FirstSentence is text's first sentence: up to the first full stop,
// question or exclamation mark that ends the text or is followed by a
// space and no lower-case letter, and ends no abbreviation ("Fig. 5" and
// "e.g. the" go on).
func FirstSentence(text string) string {
	text = strings.TrimSpace(text)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '.' && c != '?' && c != '!' {
			continue
		}
		if i+1 == len(text) {
			return text
		}
		if text[i+1] != ' ' {
			continue
		}
		next, _ := utf8.DecodeRuneInString(strings.TrimLeft(text[i+1:], " "))
		if unicode.IsLower(next) {
			continue
		}
		if c == '.' {
			word := text[strings.LastIndexAny(text[:i], " (")+1 : i]
			abbreviation := false
			for _, a := range abbreviations() {
				abbreviation = abbreviation || word == a
			}
			if abbreviation {
				continue
			}
		}
		return text[:i+1]
	}
	return text
}

// CutWords is s cut at a space to at most n characters, with "…".
func CutWords(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	cut := string(r)
	if i := strings.LastIndex(cut, " "); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

// style lays the page out for a screen of any width and for print: wide
// blocks scroll or wrap inside the page, never past its edge.
const style = `
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 0 16px 48px; color: #222; line-height: 1.4; }
h1 { margin-bottom: 0; } .words { color: #555; margin-top: 4px; }
.purpose { max-width: 60em; } .purpose p { white-space: pre-line; }
nav { margin: 12px 0; } nav a { margin-right: 14px; }
.toc ol { list-style: none; padding-left: 8px; margin: 6px 0; }
.toc li { margin: 2px 0; }
pre { background: #f6f6f6; padding: 8px; font-size: 12px; margin: 0; }
pre.wrap { white-space: pre-wrap; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { border: 1px solid #ccc; padding: 3px 6px; text-align: right; vertical-align: top; }
th { background: #eee; } td.l, th.l { text-align: left; }
table.refs td { white-space: nowrap; } table.refs td.l { white-space: normal; overflow-wrap: break-word; }
td.note { min-width: 14em; max-width: 36em; }
td.far { background: #fde3d3; }
figure { margin: 16px 0; border: 1px solid #ddd; padding: 8px; }
figure svg, figure img { display: block; width: 100%; max-width: 960px; height: auto; }
figcaption { font-size: 14px; color: #333; margin-top: 6px; max-width: 960px; }
.file { font-size: 11px; color: #777; font-family: monospace; }
.files { font-size: 12px; }
details > summary { cursor: pointer; }
footer { color: #666; font-size: 12px; margin-top: 24px; }
.warn { background: #fff4e5; border: 1px solid #f0a040; padding: 4px 12px; margin: 12px 0; }
@media print { .scroll { overflow: visible; } pre { white-space: pre-wrap; } figure { break-inside: avoid; } }
`

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}: icnsim study report</title>
<style>` + style + `</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{with .Words}}<p class="words">{{.}}</p>{{end}}
{{with .Lengths}}<p class="words">Runs: {{.}}.</p>{{end}}
{{if .Purpose}}<section id="purpose" class="purpose">{{range .Purpose}}<p>{{.}}</p>
{{end}}</section>{{end}}
{{if .Unfinished}}<section id="unfinished" class="warn"><p><b>⚠ {{len .Unfinished}} of {{len .Runs}} runs did not finish.</b> Their numbers cover what they measured before they stopped (past saturation, a run whose measured packets cannot drain is expected); each figure marks their points with a red ring, and summary.txt and results.csv (column <code>unfinished</code>) say why.</p>
{{if gt (len .Unfinished) 8}}<details><summary>The {{len .Unfinished}} runs, each with why</summary>{{end}}<ul>{{range .Unfinished}}<li>{{.}}</li>
{{end}}</ul>{{if gt (len .Unfinished) 8}}</details>{{end}}</section>{{end}}
<nav><a href="#figures">Figures ({{.Count}})</a>{{if .Refs}}<a href="#references">Published values ({{len .Refs}})</a>{{end}}<a href="#summary">Summary</a><a href="#study">Study file</a><a href="#runs">Runs ({{len .Runs}})</a></nav>
<details open class="toc" id="figures"><summary>List of figures</summary>
{{if or .Paper .Other}}<ol>
{{range .Paper}}<li><a href="#{{.ID}}">Figure {{.Number}}</a>. {{.Short}}</li>
{{end}}{{range .Other}}<li><a href="#{{.ID}}">Figure {{.Number}}</a>. {{.Short}}</li>
{{end}}</ol>{{else}}<p>This study drew no figures (plot.formats is empty, or its records have none to draw).</p>{{end}}
</details>
{{define "figure"}}<figure id="{{.ID}}">{{if .Inline}}{{.Inline}}{{else if .Src}}<img alt="{{.Short}}" src="{{.Src}}"{{if .Lazy}} loading="lazy"{{end}}{{if .Width}} width="{{.Width}}" height="{{.Height}}"{{end}}>{{else}}<p class="only-files">This figure is drawn only in the files linked below.</p>{{end}}<figcaption><b>Figure {{.Number}}.</b> {{.Caption}} <span class="file">{{.Name}}</span>{{if .Files}}<br><span class="files">{{range $i, $f := .Files}}{{if $i}} · {{end}}<a href="{{$f.Href}}">{{$f.Format}}</a>{{end}}</span>{{end}}</figcaption></figure>
{{end}}{{if .Paper}}<h2 id="paper-figures">Figures in the paper's form</h2>
{{range .Paper}}{{template "figure" .}}{{end}}{{end}}
{{if .Refs}}<h2 id="references">Published values beside ours</h2>
<p>Difference: (ours &minus; published) / published. Ours: the mean over the point's replicates. <b>⚠ bold</b>: a difference beyond ±{{.FarPercent}}% ({{.Far}} of {{len .Refs}}).</p>
<div class="scroll"><table class="refs"><thead><tr><th class="l">source</th><th class="l">metric</th><th class="l">at</th><th>published</th><th>ours</th><th>difference</th><th class="l">note</th></tr></thead><tbody>
{{range .Refs}}<tr><td class="l">{{.Source}}</td><td class="l">{{.Metric}}{{with .MetricName}}<br><span class="file">{{.}}</span>{{end}}</td><td class="l">{{.At}}</td><td>{{.PublishedText}}</td><td>{{.OursText}}</td>{{if .Far}}<td class="far" title="beyond ±{{$.FarPercent}}%"><b>⚠ {{.DifferenceText}}</b></td>{{else}}<td>{{.DifferenceText}}</td>{{end}}<td class="l note">{{if .NoteShort}}<details><summary>{{.NoteShort}}</summary>{{.Note}}</details>{{else}}{{.Note}}{{end}}</td></tr>
{{end}}</tbody></table></div>{{end}}
{{if .Other}}<h2 id="other-figures">{{if .Paper}}Other figures{{else}}Figures{{end}}</h2>
{{range .Other}}{{template "figure" .}}{{end}}{{end}}
<h2 id="summary">Summary</h2>
<details><summary>The summary table of every point (summary.txt)</summary>
<div class="scroll"><pre>{{.Summary}}</pre></div></details>
<h2 id="study">Study file</h2>
<details><summary>The study file (study.toml)</summary>
<pre class="wrap">{{.Study}}</pre></details>
<h2 id="runs">Runs</h2>
<details><summary>The {{len .Runs}} runs: point, seed and digest of each</summary>
<div class="scroll"><table><thead><tr><th class="l">run</th><th class="l">point</th><th>seed</th><th class="l">digest</th></tr></thead><tbody>
{{range .Runs}}<tr><td class="l">{{.ID}}</td><td class="l">{{.Point}}</td><td>{{.Seed}}</td><td class="l"><code>{{.Digest}}</code></td></tr>
{{end}}</tbody></table></div></details>
<footer>Written by icnsim {{.Version}}. A run's digest (SHA-256 of its result) names its result under every executor, worker count and build that reproduces it; the run records in points/ hold each run's full configuration and seed. <code>icnsim report DIR</code> rebuilds this page from the study directory.</footer>
</body>
</html>
`))

// Index is the page that links several studies' reports.
type Index struct {
	Version string // the icnsim build that wrote the page
	Studies []IndexEntry
}

// IndexEntry is one study in the index.
type IndexEntry struct {
	Name    string // the study's name
	Dir     string // its directory, as given
	Href    string // its report, relative to the index page
	Purpose string // what it is for, in a sentence
	Words   string // the parameters every point shares
	Figures int    // the figures in its report
}

// indexGenerator marks an index page, so that a later index may replace it
// (and never a page icnsim did not write).
const indexGenerator = `<meta name="generator" content="icnsim report index">`

// IsIndex reports whether page is an index of reports WriteIndex wrote.
func IsIndex(page []byte) bool {
	return bytes.Contains(page[:min(len(page), 4096)], []byte(indexGenerator))
}

// WriteIndex renders the index of reports.
func WriteIndex(w io.Writer, idx *Index) error {
	var buf bytes.Buffer
	if err := indexPage.Execute(&buf, idx); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

var indexPage = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
` + indexGenerator + `
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>icnsim study reports ({{len .Studies}})</title>
<style>` + style + `
td.l { max-width: 48em; }
</style>
</head>
<body>
<h1>icnsim study reports</h1>
<p class="words">{{len .Studies}} studies; each name opens the study's report.</p>
<div class="scroll"><table><thead><tr><th class="l">study</th><th class="l">what it is for</th><th>figures</th></tr></thead><tbody>
{{range .Studies}}<tr><td class="l"><a href="{{.Href}}">{{.Name}}</a><br><span class="file">{{.Dir}}</span></td><td class="l">{{.Purpose}}{{with .Words}}<br><span class="words">{{.}}</span>{{end}}</td><td>{{.Figures}}</td></tr>
{{end}}</tbody></table></div>
<footer>Written by icnsim {{.Version}}: <code>icnsim report DIR...</code> rebuilds each study's report and this index.</footer>
</body>
</html>
`))
