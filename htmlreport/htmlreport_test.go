package htmlreport

import (
	"bytes"
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
