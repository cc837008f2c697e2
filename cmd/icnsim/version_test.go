package main

import (
	"strings"
	"testing"
)

// TestVersionAndCompletion: --version names the build (as reports record
// it), and the CLI library's completion lists a command's flags.
func TestVersionAndCompletion(t *testing.T) {
	stdout, stderr, code := icnsim(t, "--version")
	if code != 0 || !strings.HasPrefix(stdout, "icnsim version ") {
		t.Errorf("--version: exit %d: %q %q", code, stdout, stderr)
	}
	stdout, _, code = icnsim(t, "run", "--se", "--generate-bash-completion")
	if code != 0 || !strings.Contains(stdout, "--set") || !strings.Contains(stdout, "--seed") {
		t.Errorf("completion of run --se: exit %d: %q", code, stdout)
	}
	stdout, _, _ = icnsim(t, "--generate-bash-completion")
	for _, c := range []string{"run", "validate", "config", "bench"} {
		if !strings.Contains(stdout, c+"\n") {
			t.Errorf("completion of the commands lacks %s: %q", c, stdout)
		}
	}
}
