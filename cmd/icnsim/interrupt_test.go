package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// interruptWhen starts icnsim with args, sends SIGINT once ready() holds
// (polled every 5 ms, for at most a minute), and returns its stdout, stderr
// and exit status.
func interruptWhen(t *testing.T, ready func() bool, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ICNSIM_AS_MAIN=1")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); !ready() && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// checkInterrupted checks that an interrupted command exited with 130 and
// said, in one line after the signal's notice, what it stopped and kept.
func checkInterrupted(t *testing.T, stderr string, code int, want ...string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	if code != 130 || !strings.HasPrefix(last, "icnsim: SIGINT: interrupted ") || strings.Contains(stderr, "goroutine ") {
		t.Fatalf("exit %d (want 130), stderr:\n%s", code, stderr)
	}
	for _, w := range want {
		if !strings.Contains(last, w) {
			t.Errorf("the interruption does not say %q:\n%s", w, last)
		}
	}
	t.Logf("%s", last)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestInterruptValidate: Ctrl-C while validate checks a large network for
// deadlock says so, and that nothing was written or run.
func TestInterruptValidate(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("checks a million-router network")
	}
	path := filepath.Join(t.TempDir(), "duato1024.toml")
	// duato's check of a 1024x1024 torus takes seconds.
	os.WriteFile(path, []byte("name = \"duato1024\"\n[network]\n\n[network.torus]\nk = 1024\n[router]\nrouting = \"duato\"\nvc.vcs = 4\n[traffic]\nprocess = \"bernoulli\"\npattern = \"uniform\"\nload_flits_per_node_cycle = 0.001\n"), 0o644)
	start := time.Now()
	stdout, stderr, code := interruptWhen(t, func() bool { return time.Since(start) > 500*time.Millisecond }, "validate", path)
	checkInterrupted(t, stderr, code, "checking the networks of "+path, "deadlock", "nothing written")
	if stdout != "" {
		t.Errorf("an interrupted validate printed a verdict:\n%s", stdout)
	}
}

// TestInterruptWritingAndPlot: Ctrl-C while a finished study writes its
// tables and figures, and while icnsim plot redraws them, says what it
// stopped, that the runs are kept and that icnsim plot writes the rest;
// icnsim plot then does.
func TestInterruptWritingAndPlot(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("runs a study")
	}
	dir := t.TempDir()
	// 160 points with a per-point figure each: seconds of writing.
	src := strings.Replace(base, "measure_cycles = 100", "measure_cycles = 400\ndrain_cycles = 1000\nsample_cycles = 10", 1) +
		"[plot]\nmax_lines = 1000\nnode_figures = \"both\"\n" +
		"[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"transpose\", \"bit-complement\", \"shuffle\"]\n" +
		"[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nrange = {from = 0.01, to = 0.4, step = 0.01}\n"
	path, out := filepath.Join(dir, "s160.toml"), filepath.Join(dir, "out")
	os.WriteFile(path, []byte(src), 0o644)
	results := filepath.Join(out, "results.csv")

	// The study's runs finish, then the writing is interrupted.
	_, stderr, code := interruptWhen(t, func() bool { return exists(results) }, "run", path, "--out", out, "--quiet")
	checkInterrupted(t, stderr, code, "writing the study's tables, figures and report to "+out, "all 160 runs are kept", "icnsim plot "+out+" writes them")
	if n := countRuns(out); n != 160 {
		t.Fatalf("%d runs kept, want 160", n)
	}
	if exists(filepath.Join(out, "index.html")) {
		t.Fatal("the interruption came after the report was written: the test proved nothing")
	}

	// plot, interrupted while it redraws.
	os.Remove(results)
	_, stderr, code = interruptWhen(t, func() bool { return exists(results) }, "plot", out)
	checkInterrupted(t, stderr, code, "redrawing the tables, figures and report of "+out,
		"its 160 runs are kept in "+filepath.Join(out, "points"), "icnsim plot "+out+" redraws them all")
	if exists(filepath.Join(out, "index.html")) {
		t.Fatal("the interruption came after the report was written: the test proved nothing")
	}

	// Commands cancelled before they read the runs (in process, with a
	// cancelled context: deterministic).
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"plot", out}, "interrupted while reading the runs of " + out + ": nothing written"},
		{[]string{"report", out}, "interrupted while reading the runs of " + out + ": nothing written"},
		{[]string{"merge", "--out", filepath.Join(dir, "merged"), out}, "interrupted while merging into " + filepath.Join(dir, "merged") + ", reading the study of " + out + ": nothing merged"},
	} {
		err := newApp(&bytes.Buffer{}).RunContext(ctx, append([]string{"icnsim"}, c.args...))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s cancelled: %v\nwant: %s", c.args[0], err, c.want)
		}
	}

	// Uninterrupted, plot writes everything.
	stdout, stderr, code := icnsim(t, "plot", out)
	if code != 0 || !strings.Contains(stdout, "the report: "+filepath.Join(out, "index.html")) || !exists(filepath.Join(out, "index.html")) {
		t.Fatalf("plot: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestInterruptSingleRunSaysWhat: an interrupted single run without --out
// says what it stopped and that nothing is kept.
func TestInterruptSingleRunSaysWhat(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("runs a network")
	}
	path := filepath.Join(t.TempDir(), "long.toml")
	os.WriteFile(path, []byte("name = \"torus16-long\"\n[network]\n\n[network.torus]\nk = 16\n[traffic]\nprocess = \"bernoulli\"\npattern = \"uniform\"\nload_flits_per_node_cycle = 0.05\n[measure]\nwarmup_cycles = 10000000\nmeasure_cycles = 1000\nmax_cycles = 20000000\n"), 0o644)
	start := time.Now()
	_, stderr, code := interruptWhen(t, func() bool { return time.Since(start) > time.Second }, "run", path)
	checkInterrupted(t, stderr, code, `interrupted in the warm-up (cycles 0..9999999) of "torus16-long", at cycle `, "nothing written")
}
