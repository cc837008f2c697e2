package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/internal/dirtest"
	"github.com/icnsim/icnsim/internal/fuzzguard"
	"github.com/icnsim/icnsim/study"
)

// fuzzStudyTOML is a study of two short runs (two loads) on a 4x4 mesh,
// small enough that the fuzzer can resume it thousands of times.
const fuzzStudyTOML = `name = "fuzz-resume"
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
warmup_cycles = 50
measure_cycles = 100
drain_cycles = 300
[plot]
formats = ["svg"]
[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.05, 0.1]
`

// Damage kinds of FuzzResumeAndMerge.
const (
	replaceRecord  = iota // the record's bytes are the fuzzer's
	truncateRecord        // the record cut at pos
	spliceRecord          // the fuzzer's bytes written over the record at pos
	replaceStudy          // study.toml is the fuzzer's (a foreign directory)
	spliceStudy           // the fuzzer's bytes written over study.toml at pos
	damageKinds
)

// damage applies kind to the file's bytes old.
func damage(kind int, old []byte, pos uint32, data []byte) []byte {
	switch kind {
	case replaceRecord, replaceStudy:
		return data
	case truncateRecord:
		return old[:int(pos)%(len(old)+1)]
	default:
		at := int(pos) % (len(old) + 1)
		b := append([]byte(nil), old[:at]...)
		b = append(b, data...)
		if at+len(data) < len(old) {
			b = append(b, old[at+len(data):]...)
		}
		return b
	}
}

// FuzzResumeAndMerge damages one file of a finished study directory (a run
// record truncated, overwritten or spliced, or the study file replaced by
// another: a foreign directory) and checks what a user relies on: reading
// the directory (icnsim plot), merging it and resuming it either fail with
// an error or give exactly the files of an uninterrupted run; never a panic,
// never different results.
func FuzzResumeAndMerge(f *testing.F) {
	ctx := context.Background()
	root := f.TempDir()
	src := filepath.Join(root, "fuzz.toml")
	if err := os.WriteFile(src, []byte(fuzzStudyTOML), 0o644); err != nil {
		f.Fatal(err)
	}
	sf, err := study.LoadFile(context.Background(), src)
	if err != nil {
		f.Fatal(err)
	}
	ref := filepath.Join(root, "ref")
	if _, err := Run(ctx, sf, Options{Jobs: 1, Exec: actor.Serial, Out: ref}); err != nil {
		f.Fatal(err)
	}
	record := pointPath(ref, sf.Runs()[0].ID())
	recBytes, err := os.ReadFile(record)
	if err != nil {
		f.Fatal(err)
	}
	// Seeds: each damage kind with bytes from the record itself, other
	// studies (a shipped one's first lines, another seed), and JSON that
	// parses but lies.
	other := strings.Replace(fuzzStudyTOML, "seed = 3", "seed = 4", 1)
	for _, s := range []struct {
		kind int
		pos  uint32
		data string
	}{
		{replaceRecord, 0, ""},
		{replaceRecord, 0, "{}"},
		{replaceRecord, 0, `{"study": "fuzz-resume", "run": "p000000-r000", "result": {}}`},
		{replaceRecord, 0, string(recBytes)},
		{truncateRecord, uint32(len(recBytes) / 2), ""},
		{truncateRecord, uint32(len(recBytes) - 2), ""},
		{spliceRecord, uint32(bytes.Index(recBytes, []byte(`"seed"`))), `"seed": 5`},
		{spliceRecord, uint32(bytes.Index(recBytes, []byte(`"replicate"`))), `"replicate": 1`},
		{spliceRecord, uint32(bytes.Index(recBytes, []byte(`"point"`))), `"point": 1`},
		{spliceRecord, uint32(bytes.Index(recBytes, []byte(`"study"`))), `"study": "fuzz-resumf"`},
		{spliceRecord, 40, "\x00\xff"},
		// the checksum blanked, to pass off an edit the digest leaves out
		{spliceRecord, uint32(bytes.Index(recBytes, []byte(`"checksum"`))), `"checksum": ""` + strings.Repeat(" ", 64)},
		{replaceStudy, 0, other},
		{replaceStudy, 0, "name = \"x\"\n"},
		{replaceStudy, 0, "not toml ["},
		{spliceStudy, uint32(strings.Index(fuzzStudyTOML, "svg")), "png"},
		{spliceStudy, uint32(strings.Index(fuzzStudyTOML, "0.05")), "0.06"},
		{spliceStudy, 0, "# a comment\n"},
	} {
		f.Add(uint8(s.kind), s.pos, []byte(s.data))
	}
	f.Fuzz(func(t *testing.T, kind uint8, pos uint32, data []byte) {
		k := int(kind) % damageKinds
		defer fuzzguard.Start(time.Minute, fmt.Sprintf("damage %d at %d with %q", k, pos, data))()
		dir := filepath.Join(t.TempDir(), "d")
		copyTree(t, ref, dir)
		target := record
		if k >= replaceStudy {
			target = filepath.Join(ref, "study.toml")
		}
		old, err := os.ReadFile(target)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(ref, target)
		if err := os.WriteFile(filepath.Join(dir, rel), damage(k, old, pos, data), 0o644); err != nil {
			t.Fatal(err)
		}

		// icnsim plot / report: read every record.
		if _, _, err := Reload(ctx, dir); err == nil && k < replaceStudy {
			redrawn := filepath.Join(t.TempDir(), "redrawn")
			copyTree(t, dir, redrawn)
			g, recs, _ := Reload(ctx, redrawn)
			if err := WriteOutputs(ctx, redrawn, g, recs); err != nil {
				t.Fatalf("outputs of a directory that reads: %v", err)
			}
			dirtest.Same(t, ref, redrawn)
		}

		// icnsim merge into a new directory.
		merged := filepath.Join(t.TempDir(), "merged")
		if _, err := Merge(ctx, []string{dir}, merged); err == nil {
			g, _ := LoadStudy(context.Background(), merged)
			if bytes.Equal(g.Source, sf.Source) {
				dirtest.Same(t, ref, merged)
			}
		} else if strings.Contains(err.Error(), "panic") {
			t.Fatal(err)
		}

		// icnsim run --resume with the study file.
		if _, err := Run(ctx, sf, Options{Jobs: 1, Exec: actor.Serial, Out: dir, Resume: true}); err != nil {
			if k < replaceStudy || !strings.Contains(err.Error(), "different study") {
				t.Fatalf("resume after damage %d: %v", k, err)
			}
			return
		}
		dirtest.Same(t, ref, dir)
	})
}

// copyTree copies the files under from to to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	for rel, b := range dirtest.Tree(t, from) {
		p := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestResumeLargeIntegerAxis: an integer axis value above 2^53 (which a
// float64 would round) keeps its records finished on resume and in plot.
func TestResumeLargeIntegerAxis(t *testing.T) {
	f := parse(t, strings.Replace(fuzzStudyTOML, `key = "traffic.load_flits_per_node_cycle"
values = [0.05, 0.1]`, `key = "measure.watchdog_cycles"
values = [9007199254740993, 100000]`, 1))
	d := t.TempDir()
	run(t, f, Options{Jobs: 1, Out: d})
	if o := run(t, f, Options{Jobs: 1, Out: d, Resume: true}); o.Resumed != 2 || o.Ran != 0 {
		t.Fatalf("resume took up %d finished runs and ran %d; want 2 and 0", o.Resumed, o.Ran)
	}
	if _, _, err := Reload(context.Background(), d); err != nil {
		t.Fatal(err)
	}
}
