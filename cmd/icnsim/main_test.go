package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/internal/badinput"
)

// TestMain lets the test binary act as icnsim itself (ICNSIM_AS_MAIN=1), so
// tests can check real exit codes and that no Go panic reaches the user.
func TestMain(m *testing.M) {
	if os.Getenv("ICNSIM_AS_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func icnsim(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ICNSIM_AS_MAIN=1")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// TestBadInput: each malformed or invalid file gives one clear error naming
// the file, key path, bad value and what is allowed, and a non-zero exit.
func TestBadInput(t *testing.T) {
	cases := append(slices.Clone(badinput.Configs()), badinput.MechanismConfigs()...)
	dir := t.TempDir()
	for i, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.Name, " ", "-")+".toml")
			if err := os.WriteFile(path, []byte(c.TOML), 0o644); err != nil {
				t.Fatal(err)
			}
			// In-process for the message, and (for a sample) as a real process for the exit code.
			err := newApp(&bytes.Buffer{}).RunContext(context.Background(), []string{"icnsim", "validate", path})
			if err == nil {
				t.Fatal("accepted")
			}
			msg := err.Error()
			if i >= len(badinput.Configs()) && strings.Contains(msg, "\n") {
				t.Errorf("one problem, more than one line:\n%s", msg)
			}
			for _, w := range append(c.Want, path) {
				if !strings.Contains(msg, w) {
					t.Errorf("error does not mention %q:\n%s", w, msg)
				}
			}
			if i%4 == 0 {
				_, stderr, code := icnsim(t, "run", path)
				if code == 0 || strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") {
					t.Errorf("exit code %d, stderr:\n%s", code, stderr)
				}
				if !strings.HasPrefix(stderr, "icnsim: ") {
					t.Errorf("stderr does not start with one clear message:\n%s", stderr)
				}
			}
		})
	}
}

func TestRunDefaultAndDigest(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the built-in scenario")
	}
	out, stderr, code := icnsim(t, "run", "--exec", "serial")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out2, _, _ := icnsim(t, "run", "--exec", "shards", "--workers", "3")
	digests := func(s string) (d []string) {
		for _, l := range strings.Split(s, "\n") {
			if i := strings.Index(l, "digest: "); i >= 0 {
				d = append(d, l[i:])
			}
		}
		return
	}
	d1, d2 := digests(out), digests(out2)
	if len(d1) != 2 || strings.Join(d1, ",") != strings.Join(d2, ",") {
		t.Fatalf("digests differ or are missing:\n%v\n%v", d1, d2)
	}
	if !strings.Contains(out, "tornado") || !strings.Contains(out, "uniform") {
		t.Fatalf("table lacks the two cases:\n%s", out)
	}
}

func TestConfigDefaultValidates(t *testing.T) {
	var buf bytes.Buffer
	if err := newApp(&buf).Run([]string{"icnsim", "config", "--default"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "d.toml")
	os.WriteFile(path, buf.Bytes(), 0o644)
	var out bytes.Buffer
	if err := newApp(&out).Run([]string{"icnsim", "validate", path}); err != nil {
		t.Fatal(err)
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--exec", "threads"},
		{"bench", "--scenario", "nope"},
		{"bench", "--workers", "0"},
	} {
		_, stderr, code := icnsim(t, args...)
		if code == 0 || strings.Contains(stderr, "goroutine ") {
			t.Errorf("%v: exit %d, stderr %s", args, code, stderr)
		}
	}
}

func TestFlagsAfterFile(t *testing.T) {
	app := newApp(&bytes.Buffer{})
	got, err := flagsFirst(app, []string{"icnsim", "run", "a.toml", "--out", "d", "--checks", "--seed=3", "--", "-x"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"icnsim", "run", "--out", "d", "--checks", "--seed=3", "a.toml", "--", "-x"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got %v, want %v", got, want)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.TOML")
	os.WriteFile(cfg, []byte("[network]\n\n[network.torus]\nk = 4\n[traffic]\npackets_per_node = 2\n"), 0o644)
	out := filepath.Join(dir, "out")
	if _, stderr, code := icnsim(t, "run", cfg, "--out", out, "--exec", "serial"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"results.json", "results.csv"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}
