package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStudyClosingAndResumeWording: a finished study's closing line names
// its report (DIR/index.html); resuming an unsharded study speaks of no
// shard, and a sharded one of its shard.
func TestStudyClosingAndResumeWording(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.toml")
	os.WriteFile(path, []byte(base+"[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 4]\n"), 0o644)
	out := filepath.Join(dir, "out")
	stdout, stderr, code := icnsim(t, "run", path, "--out", out, "--quiet", "--jobs", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	closing := lines[len(lines)-1]
	if want := "results in " + out + ": the report " + filepath.Join(out, "index.html") + " (open it in a browser)"; !strings.HasPrefix(closing, want) {
		t.Errorf("closing line %q, want it to start %q", closing, want)
	}
	if !strings.Contains(closing, "results.csv") || !strings.Contains(closing, "plots/") {
		t.Errorf("closing line %q does not list the tables and plots", closing)
	}

	os.Remove(filepath.Join(out, "points", "p000001-r000.json"))
	_, stderr, code = icnsim(t, "run", path, "--out", out, "--quiet", "--resume")
	if code != 0 || !strings.Contains(stderr, `study "bad": 2 runs; 1 already finished, 1 to run`) || strings.Contains(stderr, "shard") {
		t.Errorf("resume: exit %d, stderr:\n%s", code, stderr)
	}
	_, stderr, code = icnsim(t, "run", path, "--out", filepath.Join(dir, "shard"), "--quiet", "--shard", "2/2")
	if code != 0 || !strings.Contains(stderr, `study "bad": 2 runs; shard 2/2 has 1; 0 already finished, 1 to run`) {
		t.Errorf("shard: exit %d, stderr:\n%s", code, stderr)
	}
}
