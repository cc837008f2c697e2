package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// reportStudy is a study small enough to run twice in a test, with a
// purpose in its leading comment.
const reportStudy = `# Two loads on a 4x4 mesh. The index shows this sentence only.
name = "NAME"
seed = 1
[network]
topology = "mesh"

[network.mesh]
k = 4
[router]
routing = "dor"
[traffic]
process = "bernoulli"
[measure]
warmup_cycles = 50
measure_cycles = 100
drain_cycles = 500
[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.05, 0.1]
`

// TestReportSeveralDirectories: icnsim report with one DIR rewrites its
// index.html and nothing else, as before; with several it rewrites each
// and writes an index page in the directory that holds them, linking each
// report with its study's name, purpose and figure count, and prints its
// path; run again, it replaces its own index.
func TestReportSeveralDirectories(t *testing.T) {
	parent := t.TempDir()
	for _, name := range []string{"alpha", "beta"} {
		src := filepath.Join(parent, name+".toml")
		if err := os.WriteFile(src, []byte(strings.Replace(reportStudy, "NAME", name, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, stderr, code := icnsim(t, "run", src, "--out", filepath.Join(parent, "out", name), "--quiet"); code != 0 {
			t.Fatalf("running %s: exit %d: %s", name, code, stderr)
		}
	}
	out := filepath.Join(parent, "out")
	alpha := filepath.Join(out, "alpha")
	os.Remove(filepath.Join(alpha, "index.html"))
	stdout, stderr, code := icnsim(t, "report", alpha)
	if code != 0 || stdout != "wrote "+filepath.Join(alpha, "index.html")+"\n" {
		t.Fatalf("report one DIR: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(alpha, "index.html")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err == nil {
		t.Error("report with one DIR wrote an index of reports")
	}
	// Several, named relative to the working directory.
	for run := range 2 {
		cmd := exec.Command(os.Args[0], "report", "out/alpha", "out/beta")
		cmd.Dir = parent
		cmd.Env = append(os.Environ(), "ICNSIM_AS_MAIN=1")
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Run(); err != nil {
			t.Fatalf("run %d: %v: %s", run, err, e.String())
		}
		want := "wrote out/alpha/index.html\nwrote out/beta/index.html\nwrote out/index.html, the index of the 2 studies' reports\n"
		if o.String() != want {
			t.Errorf("run %d printed %q, want %q", run, o.String(), want)
		}
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(index)
	figures := func(dir string) string {
		svgs, _ := filepath.Glob(filepath.Join(out, dir, "plots", "*.svg"))
		if len(svgs) == 0 {
			t.Fatalf("%s drew no figures", dir)
		}
		return fmt.Sprintf("<td>%d</td>", len(svgs))
	}
	for _, want := range []string{`<a href="alpha/index.html">alpha</a>`, `<a href="beta/index.html">beta</a>`, "Two loads on a 4x4 mesh.", figures("alpha"), figures("beta")} {
		if !strings.Contains(page, want) {
			t.Errorf("index lacks %s", want)
		}
	}
	if strings.Contains(page, "The index shows this sentence only") {
		t.Error("the index shows more than the purpose's first sentence")
	}
	// No DIR at all is one clear error.
	if _, stderr, code := icnsim(t, "report"); code != 1 || !strings.Contains(stderr, "report needs at least one study DIR") {
		t.Errorf("report without DIR: exit %d, %q", code, stderr)
	}
}
