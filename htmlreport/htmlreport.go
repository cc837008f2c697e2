// Package htmlreport writes a study's report: one self-contained static
// HTML page (index.html) with the study file, the summary table, every
// figure (SVG inline, or PNG as a data URI where a study draws no SVG), the
// comparison with published values and the provenance of every run. The
// page needs no network and runs no script: it opens from a file, a mail
// attachment or an archive years later. The package knows nothing of how
// studies run; callers hand it a Page.
package htmlreport

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"strings"
)

// Page is everything the report shows.
type Page struct {
	Title   string // the study's name
	Words   string // the parameters every point shares, in words
	Version string // the icnsim build that wrote the page
	Study   string // the study file's text
	Summary string // summary.txt
	// References compare published values with ours (may be empty).
	References []Reference
	Figures    []Figure
	Runs       []Run
}

// Reference is one published value beside ours.
type Reference struct {
	Source, Metric, At, Published, Ours, Difference, Note string
}

// Figure is one figure: its name (the file's, without extension) and its
// SVG text or PNG bytes.
type Figure struct {
	Name string
	SVG  []byte
	PNG  []byte
}

// Run is one run's provenance.
type Run struct {
	ID, Point, Seed, Digest string
}

var prolog = regexp.MustCompile(`(?s)^\s*(<\?xml.*?\?>\s*)?(<!DOCTYPE.*?>\s*)?`)

// inlineSVG is an SVG document made fit to sit in the page: without its
// XML prolog and doctype, scaled to the figure's width.
func inlineSVG(b []byte) template.HTML {
	s := prolog.ReplaceAllString(string(b), "")
	s = strings.Replace(s, "<svg ", `<svg role="img" preserveAspectRatio="xMidYMid meet" `, 1)
	return template.HTML(s)
}

// active finds what in an SVG could run code or reach out when inlined:
// scripts, foreign content, event handlers, and javascript: or remote
// references.
var active = regexp.MustCompile(`(?i)<script|<foreignObject|\son[a-z]+\s*=|javascript:|(href|src)\s*=\s*["']?(https?:)?//`)

// plainSVG reports whether an SVG is safe to inline: nothing in it is
// active. gonum's SVGs (text escaped, no scripts) are.
func plainSVG(b []byte) bool { return !active.Match(b) }

type figureView struct {
	ID, Name string
	Inline   template.HTML
	Src      template.URL // an image's data URI, when not inline
}

// Write renders the page.
func Write(w io.Writer, p *Page) error {
	var figs []figureView
	for i, f := range p.Figures {
		v := figureView{ID: fmt.Sprintf("fig-%d", i+1), Name: f.Name}
		switch {
		case len(f.SVG) > 0 && plainSVG(f.SVG):
			v.Inline = inlineSVG(f.SVG)
		case len(f.SVG) > 0:
			// An SVG that could run a script or fetch something is shown
			// as an image, where it can do neither.
			v.Src = template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(f.SVG))
		case len(f.PNG) > 0:
			v.Src = template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(f.PNG))
		default:
			return fmt.Errorf("figure %s has neither SVG nor PNG", f.Name)
		}
		figs = append(figs, v)
	}
	var buf bytes.Buffer
	if err := page.Execute(&buf, struct {
		*Page
		Figs []figureView
	}{p, figs}); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}: icnsim study report</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 0 16px 48px; color: #222; }
h1 { margin-bottom: 0; } .words { color: #555; margin-top: 4px; }
nav a { margin-right: 12px; }
pre { background: #f6f6f6; padding: 8px; overflow-x: auto; font-size: 12px; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { border: 1px solid #ccc; padding: 3px 6px; text-align: right; vertical-align: top; }
th { background: #eee; } td.l { text-align: left; }
figure { margin: 16px 0; border: 1px solid #ddd; padding: 8px; }
figure svg, figure img { display: block; width: 100%; max-width: 960px; height: auto; }
figcaption { font-size: 13px; color: #444; margin-top: 4px; }
.neg { color: #a00; } footer { color: #666; font-size: 12px; margin-top: 24px; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="words">{{.Words}}</p>
<nav><a href="#summary">Summary</a>{{if .References}}<a href="#references">Published values</a>{{end}}<a href="#figures">Figures ({{len .Figs}})</a><a href="#study">Study file</a><a href="#runs">Runs ({{len .Runs}})</a></nav>
<h2 id="summary">Summary</h2>
<pre>{{.Summary}}</pre>
{{if .References}}<h2 id="references">Published values beside ours</h2>
<p>Difference: (ours &minus; published) / published. Ours: the mean over the point's replicates.</p>
<table><thead><tr><th>source</th><th>metric</th><th>at</th><th>published</th><th>ours</th><th>difference</th><th>note</th></tr></thead><tbody>
{{range .References}}<tr><td class="l">{{.Source}}</td><td class="l">{{.Metric}}</td><td class="l">{{.At}}</td><td>{{.Published}}</td><td>{{.Ours}}</td><td>{{.Difference}}</td><td class="l">{{.Note}}</td></tr>
{{end}}</tbody></table>{{end}}
<h2 id="figures">Figures</h2>
{{range .Figs}}<figure id="{{.ID}}">{{if .Inline}}{{.Inline}}{{else}}<img alt="{{.Name}}" src="{{.Src}}">{{end}}<figcaption>{{.Name}}</figcaption></figure>
{{else}}<p>This study drew no figures (plot.formats is empty, or its records have none to draw).</p>
{{end}}
<h2 id="study">Study file</h2>
<pre>{{.Study}}</pre>
<h2 id="runs">Runs</h2>
<table><thead><tr><th>run</th><th>point</th><th>seed</th><th>digest</th></tr></thead><tbody>
{{range .Runs}}<tr><td class="l">{{.ID}}</td><td class="l">{{.Point}}</td><td>{{.Seed}}</td><td class="l"><code>{{.Digest}}</code></td></tr>
{{end}}</tbody></table>
<footer>Written by icnsim {{.Version}}. A run's digest (SHA-256 of its result) names its result under every executor, worker count and build that reproduces it; the run records in points/ hold each run's full configuration and seed. <code>icnsim report DIR</code> rebuilds this page from the study directory.</footer>
</body>
</html>
`))
