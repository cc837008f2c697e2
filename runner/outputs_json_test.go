package runner

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/icnsim/icnsim/report"
)

// sameAsEncoder: the results.json at path is byte for byte what
// json.Encoder with SetIndent("", " ") writes for the whole document.
func sameAsEncoder(t *testing.T, path, study string, axes []string, recs []*Record) {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", " ")
	if err := enc.Encode(struct {
		Study   string    `json:"study"`
		Axes    []string  `json:"axes"`
		Records []*Record `json:"runs"`
	}{study, axes, recs}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		i := 0
		for i < min(len(got), len(want.Bytes())) && got[i] == want.Bytes()[i] {
			i++
		}
		t.Errorf("%s differs from the encoder's document at byte %d of %d (encoder: %d)", path, i, len(got), want.Len())
	}
}

// TestResultsJSONAsEncoder: writeResultsJSON streams the document the
// encoder writes whole, for no runs, none listed, one and several, axes or
// none, with characters the encoder escapes.
func TestResultsJSONAsEncoder(t *testing.T) {
	rec := func(id string) *Record {
		return &Record{Run: id, Seed: 7, Result: &report.Result{Scenario: "a<b>&c", AcceptedFlitsPerNodeCycle: 0.25}}
	}
	for _, c := range []struct {
		name string
		axes []string
		recs []*Record
	}{
		{"nil runs", nil, nil},
		{"no runs", []string{}, []*Record{}},
		{"one run", []string{"traffic.load"}, []*Record{rec("p0-r0")}},
		{"three runs", []string{"a", "b<&>"}, []*Record{rec("p0-r0"), rec("p1-r0"), rec("p2-r0")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "results.json")
			var buf bytes.Buffer
			if err := writeResultsJSON(&buf, "study \"x\" <&>", c.axes, c.recs); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			sameAsEncoder(t, path, "study \"x\" <&>", c.axes, c.recs)
		})
	}
}
