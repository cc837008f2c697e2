package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/internal/badinput"
)

// TestBadCommandLines: every command's flags and arguments, given a value
// they do not allow or a directory that is not what they need, end the
// process with one clear line on stderr (naming the flag or path, the bad
// value and what is allowed) and exit status 1: no panic, no help page.
func TestBadCommandLines(t *testing.T) {
	dir := t.TempDir()
	write := fileWriter(t, dir)
	axis := "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 4]\n"
	studyFile := write("s.toml", badinput.StudyBase+axis)
	otherFile := write("other.toml", strings.Replace(badinput.StudyBase, `name = "bad"`, `name = "other"`, 1)+axis)
	badConfig := write("bad.toml", "[router]\nvc.vcs = 0\n")
	regular := write("regular-file", "")
	done := filepath.Join(dir, "done")
	if _, stderr, code := icnsim(t, "run", studyFile, "--out", done, "--quiet", "--jobs", "1"); code != 0 {
		t.Fatalf("setting up a finished study: exit %d: %s", code, stderr)
	}
	otherDone := filepath.Join(dir, "other-done")
	if _, stderr, code := icnsim(t, "run", otherFile, "--out", otherDone, "--quiet", "--jobs", "1"); code != 0 {
		t.Fatalf("setting up another finished study: exit %d: %s", code, stderr)
	}
	half := filepath.Join(dir, "half")
	if _, stderr, code := icnsim(t, "run", studyFile, "--out", half, "--quiet", "--shard", "1/2"); code != 0 {
		t.Fatalf("setting up a shard: exit %d: %s", code, stderr)
	}
	notStudy := t.TempDir()

	cases := []struct {
		name string
		args []string
		want []string
	}{
		// icnsim run
		{"run --workers 0", []string{"run", studyFile, "--workers", "0"}, []string{"--workers = 0", "allowed: 1 or more"}},
		{"run --blocking maybe", []string{"run", studyFile, "--blocking", "maybe"}, []string{`--blocking = "maybe"`, "allowed: auto, off, on"}},
		{"run --workers -1", []string{"run", studyFile, "--workers", "-1"}, []string{"--workers = -1", "allowed: 1 or more"}},
		{"run --workers not a number", []string{"run", studyFile, "--workers", "two"}, []string{"run: invalid value \"two\" for flag --workers"}},
		{"run --jobs -1", []string{"run", studyFile, "--jobs", "-1"}, []string{"--jobs = -1", "allowed: 1 or more"}},
		{"run --jobs 0", []string{"run", studyFile, "--jobs", "0"}, []string{"--jobs = 0", "allowed: 1 or more"}},
		{"run --shard 3/2", []string{"run", studyFile, "--shard", "3/2"}, []string{`--shard = "3/2"`, "1 <= i <= n"}},
		{"run --shard 0/2", []string{"run", studyFile, "--shard", "0/2"}, []string{`--shard = "0/2"`, "1 <= i <= n"}},
		{"run --shard 1/0", []string{"run", studyFile, "--shard", "1/0"}, []string{`--shard = "1/0"`, "1 <= i <= n"}},
		{"run --shard words", []string{"run", studyFile, "--shard", "half"}, []string{`--shard = "half"`, "i/n"}},
		{"run --exec unknown", []string{"run", studyFile, "--exec", "threads"}, []string{`--exec: unknown executor "threads"`, "serial, actors, shards"}},
		{"run --max-memory unit", []string{"run", studyFile, "--max-memory", "12XB"}, []string{`--max-memory "12XB"`, "8GiB", "50%", "off"}},
		{"built-in scenario over --max-memory", []string{"run", "--max-memory", "8KiB"}, []string{"torus32-tornado-collective", "needs an estimated", "more than the limit of 8.0 KiB"}},
		{"run --max-memory negative share", []string{"run", studyFile, "--max-memory", "-5%"}, []string{`--max-memory "-5%"`, "above 0%"}},
		{"run --max-memory share above all", []string{"run", studyFile, "--max-memory", "150%"}, []string{`--max-memory "150%"`, "at most 100%"}},
		{"run --max-memory 0", []string{"run", studyFile, "--max-memory", "0"}, []string{`--max-memory "0"`, "less than one page", "use off for no limit"}},
		{"run --max-memory 0B", []string{"run", studyFile, "--max-memory", "0B"}, []string{`--max-memory "0B"`, "comes to 0 bytes", "use off for no limit"}},
		{"run --max-memory half a byte", []string{"run", studyFile, "--max-memory", "0.5B"}, []string{`--max-memory "0.5B"`, "comes to 0.5 bytes, less than one page (4096 bytes)"}},
		{"run --max-memory tiny size", []string{"run", studyFile, "--max-memory", "1e-9KiB"}, []string{`--max-memory "1e-9KiB"`, "less than one page"}},
		{"run --max-memory tiny share", []string{"run", studyFile, "--max-memory", "1e-30%"}, []string{`--max-memory "1e-30%"`, "less than one page"}},
		{"run --max-memory NaN share", []string{"run", studyFile, "--max-memory", "NaN%"}, []string{`--max-memory "NaN%"`, "not a finite number", "or off for no limit"}},
		{"bench --max-memory Inf", []string{"bench", "--max-memory", "InfGiB"}, []string{`--max-memory "InfGiB"`, "not a finite number"}},
		{"bench --max-memory 0", []string{"bench", "--max-memory", "0GiB"}, []string{`--max-memory "0GiB"`, "use off for no limit"}},
		{"validate --max-memory half a byte", []string{"validate", studyFile, "--max-memory", "0.5B"}, []string{`--max-memory "0.5B"`, "less than one page"}},
		{"run --seed negative", []string{"run", studyFile, "--seed", "-1"}, []string{`invalid value "-1" for flag --seed`}},
		{"run --set without a file", []string{"run", "--set", "traffic.pattern=uniform"}, []string{"--set and --heartbeat need a FILE.toml"}},
		{"run --heartbeat too short", []string{"run", studyFile, "--heartbeat", "1ms"}, []string{"--heartbeat = 1ms", "100ms or more"}},
		{"run --json and --csv", []string{"run", studyFile, "--json", "--csv"}, []string{"--json or --csv, not both"}},
		{"run --seed and --set seed", []string{"run", studyFile, "--seed", "3", "--set", "seed=4"}, []string{"--seed and --set seed=...", "give the seed once"}},
		{"run --set of a swept key", []string{"run", studyFile, "--set", "router.vc.vcs=3", "--out", filepath.Join(dir, "set")}, []string{"--set router.vc.vcs=3", "axis[0] of " + studyFile + " sweeps router.vc.vcs"}},
		{"run --set of no key", []string{"run", studyFile, "--set", "router.vc.buffer=3"}, []string{"--set router.vc.buffer=3", "not a key a file can set", "nearest: router.vc.buffer_flits"}},
		{"run --set without a value", []string{"run", studyFile, "--set", "measure.measure_cycles"}, []string{"--set measure.measure_cycles", "KEY=VALUE"}},
		{"run --set out of range", []string{"run", studyFile, "--set", "measure.measure_cycles=0"}, []string{"--set measure.measure_cycles=0: measure.measure_cycles = 0: allowed: >= 1"}},
		{"validate --set of a wrong type", []string{"validate", studyFile, "--set", "measure.measure_cycles=many"}, []string{`--set measure.measure_cycles=many: measure.measure_cycles = "many": wrong type: a string where an integer is needed`}},
		{"validate --set twice", []string{"validate", studyFile, "--set", "seed=1", "--set", "seed=2"}, []string{"--set seed=2", "seed is set twice"}},
		{"bench --set out of range", []string{"bench", "--set", "router.vc.vcs=0"}, []string{"--set router.vc.vcs=0: router.vc.vcs = 0: allowed: 1..64"}},
		{"config --default --set", []string{"config", "--default", "--set", "seed=2"}, []string{"--default (the defaults) or a FILE.toml with its --set overrides"}},
		{"config --point out of range", []string{"config", studyFile, "--point", "2"}, []string{"--point = 2: allowed: 0..1", "has 2 points"}},
		{"run --out under a regular file", []string{"run", studyFile, "--out", filepath.Join(regular, "out")}, []string{regular, "not a directory"}},
		{"run --out is a regular file", []string{"run", studyFile, "--out", regular}, []string{regular, "not a directory"}},
		{"run --resume on another study's directory", []string{"run", studyFile, "--out", otherDone, "--resume"}, []string{otherDone, "different study", "use another --out"}},
		{"run into a finished study without --resume", []string{"run", studyFile, "--out", done}, []string{done, "already holds 2 finished runs of this study, all of them", "icnsim plot " + done + " redraws", filepath.Join(done, "index.html"), "--resume checks them", "another --out"}},
		{"run into a half-finished study without --resume", []string{"run", studyFile, "--out", half}, []string{half, "already holds 1 finished runs of this study, of 2", "--resume keeps them and runs the rest", "another --out"}},
		{"run --out without a study", []string{"run", "--out", filepath.Join(dir, "x")}, []string{"--out, --resume and --shard need a study FILE.toml"}},
		{"run two files", []string{"run", studyFile, otherFile}, []string{"at most one FILE.toml"}},
		{"run a missing file", []string{"run", filepath.Join(dir, "missing.toml")}, []string{"missing.toml", "no such file"}},
		{"run a directory", []string{"run", dir}, []string{dir, "is a directory"}},
		{"run unknown flag", []string{"run", studyFile, "--job", "2"}, []string{"run: flag provided but not defined: --job", "icnsim run --help"}},
		{"run a bad configuration", []string{"run", badConfig}, []string{badConfig, "router.vc.vcs = 0"}},
		// icnsim validate
		{"validate without a file", []string{"validate"}, []string{"validate needs exactly one FILE.toml"}},
		{"validate two files", []string{"validate", studyFile, otherFile}, []string{"validate needs exactly one FILE.toml"}},
		{"validate a study directory", []string{"validate", done}, []string{done, "is a directory"}},
		// icnsim plot and report
		{"plot a directory that is not a study", []string{"plot", notStudy}, []string{notStudy, "not a study directory (no study.toml)"}},
		{"plot an unfinished study", []string{"plot", half}, []string{half, "run p000001-r000 is missing or corrupt", "--resume"}},
		{"plot without a directory", []string{"plot"}, []string{"plot needs"}},
		{"report a directory that is not a study", []string{"report", notStudy}, []string{notStudy, "not a study directory"}},
		{"report an unfinished study", []string{"report", half}, []string{half, "missing or corrupt"}},
		// icnsim merge
		{"merge without --out", []string{"merge", done}, []string{"merge needs --out DIR"}},
		{"merge --out without its value", []string{"merge", done, otherDone, "--out"}, []string{"merge: flag --out needs a value"}},
		{"run --out without its value", []string{"run", studyFile, "--out"}, []string{"run: flag --out needs a value"}},
		{"merge without directories", []string{"merge", "--out", filepath.Join(dir, "m1")}, []string{"merge needs at least one study DIR"}},
		{"merge two different studies", []string{"merge", "--out", filepath.Join(dir, "m2"), done, otherDone}, []string{done, otherDone, "hold different studies"}},
		{"merge into another study", []string{"merge", "--out", otherDone, done}, []string{otherDone, "results of a different study"}},
		{"merge a directory that is not a study", []string{"merge", "--out", filepath.Join(dir, "m3"), notStudy}, []string{notStudy, "not a study directory"}},
		// icnsim bench
		{"bench --workers 0", []string{"bench", "--workers", "0"}, []string{`--workers = "0"`, "counts >= 1"}},
		{"bench --blocking on,nope", []string{"bench", "--blocking", "on,nope"}, []string{`--blocking = "nope"`, "allowed: auto, off, on"}},
		{"bench --block-steps 0", []string{"bench", "--block-steps", "0"}, []string{"--block-steps = 0", "allowed: 1 or more"}},
		{"bench --block-side -3", []string{"bench", "--block-side", "-3"}, []string{"--block-side = -3", "allowed: 1 or more"}},
		{"bench --workers list", []string{"bench", "--workers", "1,x"}, []string{`--workers = "1,x"`, "counts >= 1"}},
		{"bench --scenario unknown", []string{"bench", "--scenario", "torus99"}, []string{"torus99", "torus32-uniform"}},
		{"bench --cycles 0", []string{"bench", "--cycles", "0"}, []string{"--cycles", ">= 1"}},
		{"bench --cycles not a number", []string{"bench", "--cycles", "many"}, []string{`bench: invalid value "many" for flag --cycles`}},
		{"bench --warmup negative", []string{"bench", "--warmup", "-1"}, []string{"--warmup >= 0"}},
		{"bench --repeat 0", []string{"bench", "--repeat", "0"}, []string{"--repeat must be >= 1"}},
		{"bench --sizes words", []string{"bench", "--sizes", "big"}, []string{`--sizes = "big"`, "comma-separated sizes"}},
		{"bench --sizes out of range", []string{"bench", "--sizes", "1"}, []string{"--sizes 1", "network.torus.k = 1", "2..1024"}},
		{"bench --exec unknown", []string{"bench", "--exec", "gpu"}, []string{`unknown executor "gpu"`}},
		{"bench --config missing", []string{"bench", "--config", filepath.Join(dir, "nope.toml")}, []string{"nope.toml", "no such file"}},
		{"bench --config bad", []string{"bench", "--config", badConfig}, []string{badConfig, "router.vc.vcs = 0"}},
		// the rest
		{"config unknown flag", []string{"config", "--defaults"}, []string{"config: flag provided but not defined: --defaults"}},
		{"unknown command", []string{"simulate"}, []string{`unknown command "simulate"`, "run, validate, config, merge, plot, report, bench"}},
		{"unknown global flag", []string{"--verbose", "run"}, []string{"flag provided but not defined: --verbose"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := dirState(t, dir)
			_, stderr, code := icnsim(t, c.args...)
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") || strings.Contains(stderr, "USAGE:") ||
				!strings.HasPrefix(stderr, "icnsim: ") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("not one clear line:\n%s", stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("error does not mention %q:\n%s", w, stderr)
				}
			}
			if after := dirState(t, dir); after != before {
				t.Errorf("the command changed the files under %s:\nbefore: %s\nafter:  %s", dir, before, after)
			}
		})
	}
	if len(cases)+len(badinput.Configs())+len(badinput.Studies()) < 40 {
		t.Fatalf("only %d bad-input cases", len(cases)+len(badinput.Configs())+len(badinput.Studies()))
	}
}

// dirState lists the files under dir with their sizes and times, so a test
// can tell that a refused command wrote nothing.
func dirState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !info.IsDir() {
			b.WriteString(p + " " + info.ModTime().String() + ";")
		} else {
			b.WriteString(p + "/;")
		}
		return nil
	})
	return b.String()
}

// fileWriter returns a function that writes a file of the given name and
// text in dir and returns its path.
func fileWriter(t *testing.T, dir string) func(name, text string) string {
	return func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
}
