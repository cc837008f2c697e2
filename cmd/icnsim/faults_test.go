package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/internal/badinput"
	"github.com/icnsim/icnsim/internal/dirtest"
)

// faultStudy is a study of 24 runs on a 4x4 mesh whose records (about 5 KB
// each) fill a small file system part way; measureCycles sets how long each
// run takes.
func faultStudy(t *testing.T, dir string, measureCycles int) string {
	t.Helper()
	src := strings.Replace(badinput.StudyBase, "measure_cycles = 100", fmt.Sprintf("measure_cycles = %d\ndrain_cycles = 1000", measureCycles), 1) +
		"[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"transpose\", \"bit-complement\"]\n" +
		"[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nrange = {from = 0.05, to = 0.4, step = 0.05}\n"
	path := filepath.Join(dir, "faults.toml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// inMountNamespace runs script with sh in a new user and mount namespace
// (unshare -rm), where it may mount a tmpfs of its own and remount it
// read-only, as a user would meet a full or read-only disk: no root needed,
// nothing visible outside. It returns the combined output.
func inMountNamespace(t *testing.T, script string, env ...string) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("needs Linux mount namespaces to make a small or read-only file system")
	}
	if err := exec.Command("unshare", "-rm", "true").Run(); err != nil {
		t.Skipf("needs unshare -rm (user and mount namespaces) to make a small or read-only file system: %v", err)
	}
	cmd := exec.Command("unshare", "-rm", "sh", "-euc", script)
	cmd.Env = append(append(os.Environ(), "ICNSIM_AS_MAIN=1", "ICNSIM="+os.Args[0]), env...)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("namespace script: %v\n%s", err, b)
	}
	return string(b)
}

// faultRun is what the study left after the fault: its exit status, its
// stderr, and a copy of its directory taken inside the namespace.
type faultRun struct {
	code   int
	stderr string
	saved  string
}

func readFaultRun(t *testing.T, save string) faultRun {
	t.Helper()
	rc, err := os.ReadFile(filepath.Join(save, "rc"))
	if err != nil {
		t.Fatal(err)
	}
	code, _ := strconv.Atoi(strings.TrimSpace(string(rc)))
	stderr, _ := os.ReadFile(filepath.Join(save, "stderr"))
	return faultRun{code: code, stderr: string(stderr), saved: filepath.Join(save, "out")}
}

// checkFaultRun checks a study that a fault stopped: one clear error naming
// the cause and --resume, exit status 1; every record it kept is whole and
// is taken up by --resume (in a healthy directory), and the resumed study's
// files equal those of an uninterrupted run.
func checkFaultRun(t *testing.T, fr faultRun, study, ref, cause string) {
	t.Helper()
	if fr.code != 1 {
		t.Errorf("exit status %d, want 1; stderr:\n%s", fr.code, fr.stderr)
	}
	msg := strings.TrimSpace(fr.stderr)
	if !strings.HasPrefix(msg, "icnsim: ") || strings.Contains(msg, "\n") || strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine ") {
		t.Errorf("not one clear line:\n%s", fr.stderr)
	}
	for _, w := range []string{cause, "kept in", "--resume"} {
		if !strings.Contains(msg, w) {
			t.Errorf("error does not mention %q:\n%s", w, msg)
		}
	}
	kept := countRuns(fr.saved)
	if kept < 1 || kept >= 24 {
		t.Fatalf("the fault left %d of 24 runs; the test wants it to strike part way", kept)
	}
	if !strings.Contains(msg, fmt.Sprintf("the %d runs finished before it are kept", kept)) {
		t.Errorf("the error does not count the %d runs kept:\n%s", kept, msg)
	}
	t.Logf("kept %d of 24 runs; stopped with: %s", kept, msg)
	_, stderr, code := icnsim(t, "run", study, "--out", fr.saved, "--resume", "--quiet", "--jobs", "2")
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	if want := fmt.Sprintf("%d already finished, %d to run", kept, 24-kept); !strings.Contains(stderr, want) {
		t.Errorf("resume did not take up every kept run (want %q):\n%s", want, stderr)
	}
	if n := dirtest.Same(t, ref, fr.saved); n < 24 {
		t.Errorf("compared only %d files", n)
	}
}

// runOnTmpfs runs study on a tmpfs of the given size (a mount option such
// as 80k) until it ends, and returns what it left, saved to save.
func runOnTmpfs(t *testing.T, study, save, size string) faultRun {
	t.Helper()
	if err := os.MkdirAll(save, 0o755); err != nil {
		t.Fatal(err)
	}
	inMountNamespace(t, `
mnt=$(mktemp -d)
mount -t tmpfs -o size="$SIZE" tmpfs "$mnt"
rc=0
"$ICNSIM" run "$STUDY" --out "$mnt/out" --quiet --jobs 1 2>"$SAVE/stderr" >/dev/null || rc=$?
echo $rc >"$SAVE/rc"
cp -a "$mnt/out" "$SAVE/out"
`, "STUDY="+study, "SAVE="+save, "SIZE="+size)
	return readFaultRun(t, save)
}

// TestFullDisk: a study whose output directory is on a file system that
// fills part way through stops with a clear error; the runs it finished are
// whole, and resuming them elsewhere gives an uninterrupted run's files.
func TestFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a study")
	}
	dir := t.TempDir()
	study := faultStudy(t, dir, 400)
	ref := filepath.Join(dir, "ref")
	if _, stderr, code := icnsim(t, "run", study, "--out", ref, "--quiet", "--jobs", "2"); code != 0 {
		t.Fatalf("reference run: exit %d: %s", code, stderr)
	}
	// 80 KiB holds the study file and about ten 5 KB records (two pages each).
	checkFaultRun(t, runOnTmpfs(t, study, filepath.Join(dir, "save"), "80k"), study, ref, "no space left on device")

	// A disk that holds every record but fills while the tables and
	// figures are written: all runs kept, and icnsim plot writes the rest.
	fr := runOnTmpfs(t, study, filepath.Join(dir, "late"), "300k")
	msg := strings.TrimSpace(fr.stderr)
	t.Logf("stopped with: %s", msg)
	if fr.code != 1 || strings.Contains(msg, "\n") || !strings.Contains(msg, "no space left on device") ||
		!strings.Contains(msg, "all 24 runs are kept") || !strings.Contains(msg, "write them with icnsim plot") {
		t.Errorf("exit %d, stderr:\n%s", fr.code, fr.stderr)
	}
	if countRuns(fr.saved) != 24 {
		t.Fatalf("%d records kept, want 24", countRuns(fr.saved))
	}
	if _, stderr, code := icnsim(t, "plot", fr.saved); code != 0 {
		t.Fatalf("plot: exit %d: %s", code, stderr)
	}
	dirtest.Same(t, ref, fr.saved)
}

// TestReadOnlyMidStudy: a study whose output directory becomes read-only
// while it runs (a file system remounted read-only after an error, an
// expired mount) stops with a clear error; the runs it finished are whole,
// and resuming them elsewhere gives an uninterrupted run's files.
func TestReadOnlyMidStudy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a study")
	}
	dir := t.TempDir()
	study := faultStudy(t, dir, 6000) // about 0.2 s a run: time to strike part way
	ref := filepath.Join(dir, "ref")
	if _, stderr, code := icnsim(t, "run", study, "--out", ref, "--quiet", "--jobs", "2"); code != 0 {
		t.Fatalf("reference run: exit %d: %s", code, stderr)
	}
	save := filepath.Join(dir, "save")
	os.MkdirAll(save, 0o755)
	inMountNamespace(t, `
mnt=$(mktemp -d)
mount -t tmpfs -o size=64m tmpfs "$mnt"
"$ICNSIM" run "$STUDY" --out "$mnt/out" --quiet --jobs 1 2>"$SAVE/stderr" >/dev/null &
pid=$!
until [ "$(ls "$mnt/out/points" 2>/dev/null | grep -c '^p.*json$')" -ge 4 ]; do sleep 0.02; done
# The kernel refuses to remount read-only (EBUSY, "mount point is busy")
# while a file on it is open for writing: icnsim writes each record briefly,
# so try again until it lands between two writes (5 s at most).
tries=0
until mount -o remount,ro "$mnt" 2>/dev/null; do
	tries=$((tries + 1))
	if [ "$tries" -ge 500 ]; then echo "remount read-only: still busy after $tries tries" >&2; exit 1; fi
	sleep 0.01
done
rc=0
wait $pid || rc=$?
echo $rc >"$SAVE/rc"
cp -a "$mnt/out" "$SAVE/out"
`, "STUDY="+study, "SAVE="+save)
	checkFaultRun(t, readFaultRun(t, save), study, ref, "read-only file system")
}
