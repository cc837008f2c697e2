// Package runner runs studies: it spreads a study's runs (points x
// replicates) over goroutines with errgroup, writes each finished run
// atomically to OUT/points/ID.json with its full configuration, seed and
// digest, resumes a study by skipping runs already finished, runs one shard
// of a study (for job arrays on a cluster) and merges shard directories, and
// writes the study's tables and figures once every run is there. In a sweep
// of entropy-throttling thresholds it gives a run the result of a finished,
// provably equivalent run instead of simulating it (study.Equivalence,
// schedule.go); Options.NoReuse turns that off, and the files are the same.
//
// Layout of a study directory:
//
//	study.toml          the study file, byte for byte
//	points/ID.json      one record per finished run (ID = p000012-r003)
//	results.csv         one row per run: axes as columns, metrics with units
//	results.json        every record, in run order
//	replicates.csv      per point: mean and standard deviation over replicates
//	summary.txt         the text summary table and the reductions
//	reduce-NAME.csv     one table per [[reduce]]
//	series/ID.csv       each run's time series, where recorded
//	plots/*.png, *.svg  the figures (plots.go), redrawn whole each time
//	reference.csv       with [[reference]]: published values beside ours
//	index.html          the report (htmlpage.go; icnsim report DIR)
//
// Every file is a function of the study file alone: results do not depend on
// --jobs, --workers, the executor, sharding or interruptions. (index.html
// also names the icnsim build that wrote it, in its footer.)
//
// It may import study and every layer below it, with figure and htmlreport;
// only the command imports it.
package runner

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/internal/atomicfile"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/study"
)

// Shard selects every Count-th run, starting with run Index-1 (Index is
// 1-based, as in --shard 2/3). The zero Shard is the whole study.
type Shard struct{ Index, Count int }

// Has reports whether run i (0-based, in run order) belongs to the shard.
func (s Shard) Has(i int) bool { return s.Count == 0 || i%s.Count == s.Index-1 }

func (s Shard) String() string {
	if s.Count == 0 {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// ParseShard reads "i/n" with 1 <= i <= n.
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	a, err1 := strconv.Atoi(strings.TrimSpace(i))
	b, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || b < 1 || a < 1 || a > b || b > 1_000_000 {
		return Shard{}, fmt.Errorf("--shard = %q: allowed: i/n with 1 <= i <= n (shard i of n; e.g. 2/3)", s)
	}
	return Shard{Index: a, Count: b}, nil
}

// ShardFromEnv reads a Slurm job array's task: SLURM_ARRAY_TASK_ID among
// SLURM_ARRAY_TASK_COUNT tasks numbered from SLURM_ARRAY_TASK_MIN (0 when
// unset). ok is false when the variables are not set.
func ShardFromEnv(getenv func(string) string) (s Shard, ok bool, err error) {
	id, count := getenv("SLURM_ARRAY_TASK_ID"), getenv("SLURM_ARRAY_TASK_COUNT")
	if id == "" || count == "" {
		return Shard{}, false, nil
	}
	lo := 0
	if m := getenv("SLURM_ARRAY_TASK_MIN"); m != "" {
		if lo, err = strconv.Atoi(m); err != nil {
			return Shard{}, true, fmt.Errorf("SLURM_ARRAY_TASK_MIN = %q: not an integer", m)
		}
	}
	i, err1 := strconv.Atoi(id)
	n, err2 := strconv.Atoi(count)
	if err1 != nil || err2 != nil || n < 1 || i-lo < 0 || i-lo >= n {
		return Shard{}, true, fmt.Errorf("SLURM_ARRAY_TASK_ID = %q, SLURM_ARRAY_TASK_COUNT = %q, SLURM_ARRAY_TASK_MIN = %d: need MIN <= ID < MIN+COUNT (use a contiguous --array=0-N or 1-N)", id, count, lo)
	}
	return Shard{Index: i - lo + 1, Count: n}, true, nil
}

// Options say how to run a study; none changes its results.
type Options struct {
	Jobs    int        // runs at once; 0 = GOMAXPROCS
	Workers int        // shard workers per run; 0 = 1
	Exec    actor.Kind // executor of each run; default shards
	// Blocking is each run's temporal blocking ("" is auto: see study.Blocking).
	Blocking study.Blocking
	Out      string // the study directory; "" = write nothing
	Resume   bool   // skip runs already finished in Out
	Shard    Shard
	Checks   bool // verify network invariants after every cycle (slow)
	// Progress, when not nil, gets a progress bar that advances with the
	// cycles the runs in flight simulate (runs done, cycles per second,
	// time left).
	Progress io.Writer
	// Heartbeat, when positive, writes a line to Log at this interval:
	// runs finished and in flight, their cycles, the rate and the time
	// left (for a study off a terminal: a batch job's log).
	Heartbeat time.Duration
	// Log, when not nil, gets one-line notes (resumed runs, shard share).
	Log io.Writer
	// NoReuse simulates every run, even one whose result an equivalent run
	// already gave (see study.Equivalence); the results are the same.
	NoReuse bool
	// MaxMemory refuses the study, before anything runs, when Jobs of its
	// largest runs at once are estimated to need more (zero Bytes: no limit).
	MaxMemory study.MemoryLimit
	// RecordTrace, when set, gives the writers of the traces of the
	// study's one run's jobs (study.Options.RecordTrace); a study of more
	// runs is refused.
	RecordTrace func(job int) (io.Writer, error)
}

// Record is one finished run, as written to points/ID.json.
type Record struct {
	Study     string         `json:"study"`
	Run       string         `json:"run"`
	Point     int            `json:"point"`
	Replicate int            `json:"replicate"`
	Params    []ParamValue   `json:"params"`
	Seed      uint64         `json:"seed"`
	Config    string         `json:"config_toml"`
	Digest    string         `json:"digest"`
	Result    *report.Result `json:"result"`
	// Checksum is the SHA-256 of the record's JSON with this field empty:
	// a record changed on disk (a flipped bit in a per-node view, which
	// Digest leaves out, or an edited seed) is not this run's and is redone.
	// Records written before it existed have none.
	Checksum string `json:"checksum,omitempty"`
}

// checksum is rec's Checksum as it should be.
func (rec *Record) checksum() string {
	c := *rec
	c.Checksum = ""
	b, err := json.Marshal(&c)
	if err != nil {
		panic(err) // a Record always encodes
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ParamValue is an axis value of a run.
type ParamValue struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
}

// Outcome is what a call to Run did.
type Outcome struct {
	Dir     string
	Total   int // runs in the study
	Share   int // runs in this shard
	Resumed int // runs found finished and skipped
	Ran     int // runs simulated now
	// Reproduced counts the runs given the result of an equivalent run
	// (study.Equivalence) instead of being simulated.
	Reproduced int
	Records    []*Record        // every run of the study in order; nil where not available
	Complete   bool             // every run of the study has a record
	Results    []*report.Result // the records' results, in order, when complete
}

// ConfigTOML is a configuration's full TOML text, as stored in a record,
// with defaults that depend on other keys resolved (the warm-up).
func ConfigTOML(c study.Config) string {
	c.Measure.WarmupCycles = c.Measure.Warmup()
	return c.TOML()
}

func newRecord(f *study.File, r *study.RunSpec, res *report.Result) *Record {
	rec := &Record{Study: f.Name, Run: r.ID(), Point: r.Point.Index, Replicate: r.Replicate, Seed: r.Config.Seed,
		Config: ConfigTOML(r.Config), Digest: res.Digest(), Result: res, Params: []ParamValue{}}
	for _, p := range r.Point.Params {
		rec.Params = append(rec.Params, ParamValue{Key: p.Key, Value: p.Value})
	}
	rec.Checksum = rec.checksum()
	return rec
}

func pointPath(dir, id string) string { return filepath.Join(dir, "points", id+".json") }

// loadRecord reads run r of study f from dir; ok is false when the record is
// missing, unreadable, corrupt, or not this run's: another study, point,
// replicate, seed or configuration, a result that does not match its
// digest, or a record changed after it was written (Checksum).
func loadRecord(dir string, f *study.File, r *study.RunSpec) (*Record, bool) {
	b, err := os.ReadFile(pointPath(dir, r.ID()))
	if err != nil {
		return nil, false
	}
	// Axis values stay as written (json.Number): an integer above 2^53 read
	// as a float64 would no longer encode to the bytes on disk.
	var rec Record
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&rec); err != nil || rec.Result == nil {
		return nil, false
	}
	if rec.Checksum != "" || bytes.Contains(b, []byte(`"checksum"`)) {
		// A record of this version is the bytes writeRecord wrote, no
		// other: an unknown key, a missing one or a changed value is not
		// this run's (records from before Checksum pass the checks below).
		canon, err := encodeRecord(&rec)
		if err != nil || rec.Checksum != rec.checksum() || !bytes.Equal(b, canon) {
			return nil, false
		}
	}
	want := newRecord(f, r, rec.Result)
	if rec.Study != want.Study || rec.Run != want.Run || rec.Point != want.Point || rec.Replicate != want.Replicate ||
		rec.Seed != want.Seed || !sameJSON(rec.Params, want.Params) || rec.Digest != want.Digest || !sameConfig(rec.Config, r.Config) {
		return nil, false
	}
	rec.Params = want.Params // the study's own values, equal to those read
	return &rec, true
}

// sameJSON reports whether a and b encode alike (axis values read back
// from JSON are float64 where the study's are int).
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// sameConfig reports whether a record's configuration text is c: the same
// text, or text that reads as c once the keys it lacks take their
// defaults (a record written before those keys existed: keys are only
// ever added with defaults that leave earlier results unchanged).
func sameConfig(recorded string, c study.Config) bool {
	want := ConfigTOML(c)
	if recorded == want {
		return true
	}
	old, err := study.Parse("record", []byte(recorded))
	return err == nil && ConfigTOML(old) == want
}

func writeRecord(dir string, rec *Record) error {
	b, err := encodeRecord(rec)
	if err != nil {
		return err
	}
	return atomicfile.Write(pointPath(dir, rec.Run), b)
}

// encodeRecord is a record's file: indented JSON and a newline.
func encodeRecord(rec *Record) ([]byte, error) {
	b, err := json.MarshalIndent(rec, "", " ")
	return append(b, '\n'), err
}

// sameRuns reports whether the study file old runs exactly f's runs: the
// same name, points (each with the same configuration), replicates and
// seeds. A study whose [plot] options, [[reference]] values or comments
// changed still owns its finished runs, so that published numbers can be
// added to a finished study and its outputs redrawn.
func sameRuns(old []byte, f *study.File) bool {
	g, err := study.ParseFile("study.toml", old)
	if err != nil || g.Name != f.Name || g.Study != f.Study || len(g.Points) != len(f.Points) {
		return false
	}
	for i := range g.Points {
		if g.Points[i].Label() != f.Points[i].Label() || ConfigTOML(g.Points[i].Config) != ConfigTOML(f.Points[i].Config) {
			return false
		}
	}
	return true
}

// prepare makes the study directory, refusing one that holds another study
// or, without resume, finished runs.
func prepare(dir string, f *study.File, resume bool) error {
	if err := os.MkdirAll(filepath.Join(dir, "points"), 0o755); err != nil {
		return fmt.Errorf("cannot make the study directory %s: %w", dir, err)
	}
	if old, err := os.ReadFile(filepath.Join(dir, "study.toml")); err == nil && !bytes.Equal(old, f.Source) && !sameRuns(old, f) {
		hint := "use another --out"
		if bytes.Contains(old, []byte(study.SetMark)) {
			hint = "its study.toml has keys set with --set (marked \"" + study.SetMark + "\"): give the same --set again, or use another --out"
		}
		return fmt.Errorf("%s holds the results of a different study (its study.toml differs from %s in its runs); %s", dir, f.Path, hint)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "points"))
	if err != nil {
		return err
	}
	if err := removeTemps(dir); err != nil {
		return err
	}
	finished := 0
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") && !strings.HasPrefix(e.Name(), ".") {
			finished++
		}
	}
	if finished > 0 && !resume {
		total := len(f.Runs())
		if finished >= total {
			return fmt.Errorf("%s already holds %d finished runs of this study, all of them: icnsim plot %s redraws its tables, figures and report (%s) from them without running anything; --resume checks them, reruns any that is corrupt and rewrites the outputs; or run it afresh into another --out",
				dir, finished, dir, filepath.Join(dir, ReportFile))
		}
		return fmt.Errorf("%s already holds %d finished runs of this study, of %d: --resume keeps them and runs the rest (redoing any corrupt one), then writes the tables, figures and report; or run it afresh into another --out",
			dir, finished, total)
	}
	return atomicfile.Write(filepath.Join(dir, "study.toml"), f.Source)
}

// removeTemps deletes the temporary files that a writer killed between
// writing and renaming left in the study directory's own folders (see
// atomicfile); nothing else under dir is touched.
func removeTemps(dir string) error {
	for _, sub := range []string{".", "points", "series", "plots", "links", "flows", "matrices"} {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return err
		}
		for _, e := range entries {
			if !e.IsDir() && atomicfile.IsTemp(e.Name()) {
				if err := os.Remove(filepath.Join(dir, sub, e.Name())); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Run runs the study's share of runs (opt.Shard), resuming from opt.Out when
// opt.Resume, and writes the study's outputs when every run is finished and
// opt.Out is set. On an error or a cancelled ctx, finished runs stay written.
func Run(ctx context.Context, f *study.File, opt Options) (*Outcome, error) {
	runs := f.Runs()
	out := &Outcome{Dir: opt.Out, Total: len(runs), Records: make([]*Record, len(runs))}
	if opt.RecordTrace != nil && len(runs) != 1 {
		return nil, fmt.Errorf("recording a trace: %s has %d runs; a trace records one (drop the axes and replicates, or --set the swept keys in a copy)", f.Path, len(runs))
	}
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	// The memory guard first, from the configurations alone: the check
	// below takes time and memory in proportion to the networks.
	if err := f.CheckMemory(min(jobs, len(runs)), opt.MaxMemory); err != nil {
		return out, err
	}
	// One channel-dependency check per distinct network, not one per run,
	// before anything is written.
	if err := f.CheckBuild(ctx); err != nil {
		if ctx.Err() != nil {
			if opt.Out == "" {
				return out, errors.New("interrupted while checking the study's networks (routing and deadlock), before any run started: nothing written")
			}
			return out, fmt.Errorf("interrupted while checking the study's networks (routing and deadlock), before any run started: nothing written; run it again (with --resume if %s holds runs of an earlier attempt)", opt.Out)
		}
		return out, err
	}
	const checked = true
	// Blocking on where a run cannot be blocked is refused before any run
	// starts, not at that run.
	// The router and the policies decide whether a network without tiles
	// has links long enough to run in blocks (fabric.LeadTiling).
	type blockShape struct {
		n       study.Network
		r       study.Router
		p       study.Policy
		m       study.Measure
		process string
	}
	seenBlock := map[blockShape]bool{}
	for i := range f.Points {
		pt := &f.Points[i]
		if s := (blockShape{pt.Config.Network, pt.Config.Router, pt.Config.Policy, pt.Config.Measure, pt.Config.Traffic.Process}); opt.Blocking != study.BlockingOn || seenBlock[s] {
			continue
		} else {
			seenBlock[s] = true
		}
		if err := study.CheckBlocking(ctx, pt.Config, study.Options{Exec: opt.Exec, Checks: opt.Checks, Blocking: opt.Blocking}); err != nil {
			if label := pt.Label(); label != "" {
				return out, fmt.Errorf("%s: at the point %s: %w", f.Path, label, err)
			}
			return out, fmt.Errorf("%s: %w", f.Path, err)
		}
	}
	if opt.Out != "" {
		if err := prepare(opt.Out, f, opt.Resume); err != nil {
			return out, err
		}
	}
	var pending []int
	for i := range runs {
		if !opt.Shard.Has(i) {
			continue
		}
		out.Share++
		if opt.Out != "" && opt.Resume {
			if rec, ok := loadRecord(opt.Out, f, &runs[i]); ok {
				out.Records[i] = rec
				out.Resumed++
				continue
			}
		}
		pending = append(pending, i)
	}
	if opt.Log != nil && (opt.Shard.Count > 0 || out.Resumed > 0) {
		share := ""
		if opt.Shard.Count > 0 {
			share = fmt.Sprintf("; shard %s has %d", opt.Shard, out.Share)
		}
		fmt.Fprintf(opt.Log, "icnsim: study %q: %d runs%s; %d already finished, %d to run\n",
			f.Name, out.Total, share, out.Resumed, len(pending))
	}
	var prog *progress
	if (opt.Progress != nil || opt.Heartbeat > 0 && opt.Log != nil) && len(pending) > 0 {
		prog = newProgress(f, runs, pending, opt.Progress, opt.Log, opt.Heartbeat)
	}
	workers := max(opt.Workers, 1)
	finish := func(i int, res *report.Result) error {
		rec := newRecord(f, &runs[i], res)
		if opt.Out != "" {
			if err := writeRecord(opt.Out, rec); err != nil {
				return &writeError{run: rec.Run, path: pointPath(opt.Out, rec.Run), err: err}
			}
		}
		out.Records[i] = rec
		if prog != nil {
			prog.finished(i)
		}
		return nil
	}
	simulate := func(ctx context.Context, i int) (*report.Result, *study.Equivalence, error) {
		r := &runs[i]
		so := study.Options{Exec: opt.Exec, Workers: workers, Checks: opt.Checks, DeadlockChecked: checked, Blocking: opt.Blocking, RecordTrace: opt.RecordTrace}
		if prog != nil {
			so.OnCycle = func(c int64) { prog.at(i, c) }
		}
		res, eq, err := study.RunEquivalent(ctx, r.Config, so)
		if err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
				return nil, nil, err
			}
			label := r.Point.Label()
			if label != "" {
				label = " (" + label + ")"
			}
			return nil, nil, fmt.Errorf("run %s%s, seed %d: %w", r.ID(), label, r.Config.Seed, err)
		}
		return res, eq, nil
	}
	var err error
	if opt.NoReuse {
		err = runAll(ctx, pending, jobs, simulate, finish)
	} else {
		err = runReusing(ctx, runs, pending, jobs, simulate, finish, &out.Reproduced)
	}
	if prog != nil {
		prog.close()
	}
	for _, i := range pending {
		if out.Records[i] != nil {
			out.Ran++
		}
	}
	out.Ran -= out.Reproduced
	if opt.Log != nil && out.Reproduced > 0 {
		fmt.Fprintf(opt.Log, "icnsim: study %q: %d runs simulated, %d reproduced exactly from an equivalent run (thresholds that take every throttling decision alike; --no-reuse simulates them all)\n",
			f.Name, out.Ran, out.Reproduced)
	}

	if err != nil || ctx.Err() != nil {
		if ctx.Err() != nil {
			return out, interruptedRuns(f, opt, out, err)
		}
		if we := (*writeError)(nil); errors.As(err, &we) {
			kept := 0
			for _, r := range out.Records {
				if r != nil {
					kept++
				}
			}
			return out, fmt.Errorf("%w; the %d runs finished before it are kept in %s: free space there (or make it writable) and continue with --resume", err, kept, opt.Out)
		}
		return out, err
	}
	out.Complete = true
	for _, r := range out.Records {
		if r == nil {
			out.Complete = false
			break
		}
		out.Results = append(out.Results, r.Result)
	}
	if !out.Complete {
		out.Results = nil
	}
	if out.Complete && opt.Out != "" {
		if err := WriteOutputs(ctx, opt.Out, f, out.Records); err != nil {
			return out, outputsError(opt.Out, len(out.Records), err)
		}
	}
	return out, nil
}

// interruptedRuns says what an interruption of a study's runs stopped (for
// a single run, in which phase: runErr) and what it kept.
func interruptedRuns(f *study.File, opt Options, out *Outcome, runErr error) error {
	done := out.Resumed + out.Ran + out.Reproduced
	of := "runs"
	if opt.Shard.Count > 0 {
		of = fmt.Sprintf("runs of shard %s", opt.Shard)
	}
	switch {
	case opt.Out == "" && out.Share == 1:
		where := fmt.Sprintf("while building or simulating %q", f.Name)
		if ie := (*study.InterruptedError)(nil); errors.As(runErr, &ie) {
			where = ie.Of(f.Name)
		}
		return fmt.Errorf("interrupted %s: nothing written (a single run without --out keeps nothing)", where)
	case opt.Out == "":
		return fmt.Errorf("interrupted while running the study: %d of %d %s had finished; nothing is kept without --out", done, out.Share, of)
	}
	resume := fmt.Sprintf("icnsim run %s --out %s --resume", f.Path, opt.Out)
	if opt.Shard.Count > 0 {
		resume += " --shard " + opt.Shard.String()
	}
	return fmt.Errorf("interrupted while running the study: %d of %d %s had finished and are kept in %s (the runs in progress are dropped); continue with --resume (%s)",
		done, out.Share, of, opt.Out, resume)
}

// LoadStudy reads the study file of a study directory; ctx stops it.
func LoadStudy(ctx context.Context, dir string) (*study.File, error) {
	path := filepath.Join(dir, "study.toml")
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%s is not a study directory (no study.toml): %w", dir, err)
	}
	return study.LoadFile(ctx, path)
}

// Merge joins the finished runs of study directories (shards of one study
// run on several machines) into out, which may be one of them, and writes
// the study's outputs. A run missing from every directory is reported, with
// nothing written beyond the runs that are there.
func Merge(ctx context.Context, dirs []string, out string) (*Outcome, error) {
	if len(dirs) == 0 {
		return nil, errors.New("merge needs at least one study directory")
	}
	var f *study.File
	for _, d := range dirs {
		g, err := LoadStudy(ctx, d)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("interrupted while merging into %s, reading the study of %s: nothing merged", out, d)
			}
			return nil, err
		}
		if f != nil && !bytes.Equal(f.Source, g.Source) {
			return nil, fmt.Errorf("%s and %s hold different studies (their study.toml differ)", dirs[0], d)
		}
		f = g
	}
	if err := os.MkdirAll(filepath.Join(out, "points"), 0o755); err != nil {
		return nil, err
	}
	if old, err := os.ReadFile(filepath.Join(out, "study.toml")); err == nil && !bytes.Equal(old, f.Source) {
		return nil, fmt.Errorf("%s holds the results of a different study; merge into another directory", out)
	}
	if err := atomicfile.Write(filepath.Join(out, "study.toml"), f.Source); err != nil {
		return nil, err
	}
	runs := f.Runs()
	res := &Outcome{Dir: out, Total: len(runs), Share: len(runs), Records: make([]*Record, len(runs))}
	var missing []string
	sources := append([]string{out}, dirs...) // runs already merged count
	merged := 0
	for i := range runs {
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("interrupted while merging into %s: %d of %d runs were merged and are kept there, each whole; the study's tables, figures and report are not written; merge again to finish", out, merged, len(runs))
		}
		r := &runs[i]
		for _, d := range sources {
			if rec, ok := loadRecord(d, f, r); ok {
				res.Records[i] = rec
				break
			}
		}
		if res.Records[i] == nil {
			label := r.Point.Label()
			if label != "" {
				label = " (" + label + ")"
			}
			missing = append(missing, r.ID()+label)
			continue
		}
		if _, ok := loadRecord(out, f, r); !ok {
			if err := writeRecord(out, res.Records[i]); err != nil {
				we := &writeError{run: r.ID(), path: pointPath(out, r.ID()), err: err}
				return nil, fmt.Errorf("%w; the runs merged before it are kept in %s: free space there (or make it writable) and merge again", we, out)
			}
		}
		merged++
	}
	if len(missing) > 0 {
		shown := missing[:min(len(missing), 20)]
		more := ""
		if len(missing) > len(shown) {
			more = fmt.Sprintf("\n  ... and %d more", len(missing)-len(shown))
		}
		return res, fmt.Errorf("merge: %d of %d runs are missing from %s (run their shards, or the study with --resume):\n  %s%s",
			len(missing), len(runs), strings.Join(dirs, ", "), strings.Join(shown, "\n  "), more)
	}
	res.Complete = true
	for _, r := range res.Records {
		res.Results = append(res.Results, r.Result)
	}
	if err := WriteOutputs(ctx, out, f, res.Records); err != nil {
		return res, outputsError(out, len(res.Records), err)
	}
	return res, nil
}

// writeError is a finished run whose record could not be written (a full
// disk, a directory made read-only).
type writeError struct {
	run, path string
	err       error
}

func (e *writeError) Error() string {
	cause := e.err
	if pe := (*fs.PathError)(nil); errors.As(e.err, &pe) {
		cause = pe.Err // the temporary file's name says nothing to a user
	}
	return fmt.Sprintf("cannot write run %s to %s: %v", e.run, e.path, cause)
}
func (e *writeError) Unwrap() error { return e.err }

// outputsError says what to do when every run is kept but the tables and
// figures could not be written.
func outputsError(dir string, runs int, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("interrupted while writing the study's tables, figures and report to %s: all %d runs are kept there, and every file written so far is whole; icnsim plot %s writes them", dir, runs, dir)
	}
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		err = pe.Err // the temporary file's name says nothing to a user
	}
	return fmt.Errorf("cannot write the study's tables and figures to %s: %w; all %d runs are kept there: free space (or make it writable) and write them with icnsim plot %s", dir, err, runs, dir)
}

// Reload reads every record of a complete study directory (for icnsim plot).
func Reload(ctx context.Context, dir string) (*study.File, []*Record, error) {
	f, err := LoadStudy(ctx, dir)
	if err != nil {
		return nil, nil, err
	}
	runs := f.Runs()
	recs := make([]*Record, len(runs))
	for i := range runs {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		rec, ok := loadRecord(dir, f, &runs[i])
		if !ok {
			return nil, nil, fmt.Errorf("%s: run %s is missing or corrupt; finish the study with icnsim run --resume", dir, runs[i].ID())
		}
		recs[i] = rec
	}
	return f, recs, nil
}
