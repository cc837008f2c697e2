package repro

import (
	"strings"
	"testing"

	"github.com/icnsim/icnsim/study"
)

// TestFormsMatchTheStudyList: every value of plot.paper_form the study
// layer accepts (study.PaperForms) has a form here that draws it and a
// caption of a full sentence naming its paper's figure, and no form here
// is one the study layer would refuse.
func TestFormsMatchTheStudyList(t *testing.T) {
	fs := forms()
	accepted := map[string]bool{}
	for _, pf := range study.PaperForms() {
		accepted[pf.Name] = true
		fm, ok := fs[pf.Name]
		if !ok || fm.draw == nil || fm.caption == nil {
			t.Errorf("plot.paper_form = %q is accepted but has no form to draw it", pf.Name)
			continue
		}
		c := fm.caption(pf.Name, "")
		if !strings.HasPrefix(c, "In the form of ") || !strings.HasSuffix(c, ".") || len(strings.Fields(c)) < 12 {
			t.Errorf("%s: caption %q is not a sentence naming the paper's figure", pf.Name, c)
		}
		if n := paperFigureNumber(pf.Name); n != "" && !strings.Contains(c, n) {
			t.Errorf("%s: caption %q does not name figure %s", pf.Name, c, n)
		}
	}
	for name := range fs {
		if !accepted[name] {
			t.Errorf("form %q is drawn here but study.PaperForms does not accept it", name)
		}
	}
}
