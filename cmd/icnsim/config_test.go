package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/icnsim/icnsim/study"
)

// loaderKeys lists every key path a study file may set, from the TOML tags
// of study.File and the types under it (tables, arrays of tables, inline
// tables such as axis.range), as the loader decodes them: "router.ioq.recn.saqs",
// "axis.range.step", "reference.at". A map is a leaf: its keys are the
// user's (axis keys).
func loaderKeys(t reflect.Type, prefix string, out *[]string) {
	loaderKeysOn(t, prefix, out, nil)
}

// loaderKeysOn is loaderKeys with the struct types being walked: a table
// of the same type inside itself (a job's further jobs,
// [[workload.also]]) is one key, not walked again.
func loaderKeysOn(t reflect.Type, prefix string, out *[]string, path []reflect.Type) {
	path = append(path, t)
	for i := range t.NumField() {
		f := t.Field(i)
		tag := strings.Split(f.Tag.Get("toml"), ",")[0]
		if f.Anonymous && tag == "" {
			// The study file's embedded Config, and the families' tables
			// under [network] (unexported, yet decoded).
			loaderKeysOn(f.Type, prefix, out, path)
			continue
		}
		if !f.IsExported() || tag == "-" {
			continue
		}
		if tag == "" {
			tag = f.Name // the decoder matches an untagged field by its name
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct {
			ft = ft.Elem()
		}
		// A struct that reads itself from one value (toml.Unmarshaler: a
		// grid's k, a fat-tree's tapering) is a key, not a table.
		unmarshals := reflect.PointerTo(ft).Implements(reflect.TypeFor[toml.Unmarshaler]())
		if ft.Kind() == reflect.Struct && !unmarshals && !slices.Contains(path, ft) {
			loaderKeysOn(ft, prefix+tag+".", out, path)
			continue
		}
		*out = append(*out, prefix+tag)
	}
}

var (
	tableLine  = regexp.MustCompile(`^\[\[?\s*([a-z_.]+)\s*\]\]?\s*(#.*)?$`)
	keyLine    = regexp.MustCompile(`^([a-z_]+)\s*=\s*(.*)$`)
	inlineKeys = regexp.MustCompile(`[{,]\s*([a-z_]+)\s*=`)
)

// documentedKeys lists the key paths that a commented TOML file sets or
// shows commented out ("# key = value" under "[table]" or "# [table]"),
// with the keys of inline tables ("range = { from = ... }"). Lines that
// start with "##" are prose.
func documentedKeys(text string) []string {
	var keys []string
	table := ""
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "##") {
			continue
		}
		l = strings.TrimSpace(strings.TrimPrefix(l, "#"))
		if m := tableLine.FindStringSubmatch(l); m != nil {
			table = m[1] + "."
			continue
		}
		m := keyLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		// An inline table of bare keys is a table (its keys count); one
		// of quoted keys is a map, a key of its own.
		var inner []string
		if v := strings.TrimSpace(m[2]); strings.HasPrefix(v, "{") {
			for _, in := range inlineKeys.FindAllStringSubmatch(v[:strings.Index(v+"}", "}")+1], -1) {
				inner = append(inner, table+m[1]+"."+in[1])
			}
		}
		if len(inner) == 0 {
			inner = []string{table + m[1]}
		}
		keys = append(keys, inner...)
	}
	return keys
}

func configDefault(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	if err := newApp(&buf).Run([]string{"icnsim", "config", "--default"}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestConfigDefaultDocumentsEveryKey: every key the loader accepts, in a
// configuration or a study file, appears in config --default (set, or
// commented out with its default), and config --default shows no key the
// loader would refuse.
func TestConfigDefaultDocumentsEveryKey(t *testing.T) {
	var keys []string
	loaderKeys(reflect.TypeOf(study.File{}), "", &keys)
	for _, want := range []string{"name", "router.ioq.recn.saqs", "study.replicates", "axis.range.step", "plot.node_figures", "reduce.baseline", "reference.value", "reference.at"} {
		if !slices.Contains(keys, want) {
			t.Fatalf("the reflected key list lacks %s: %v", want, keys)
		}
	}
	doc := documentedKeys(configDefault(t))
	for _, k := range keys {
		if !slices.Contains(doc, k) {
			t.Errorf("config --default does not document %s", k)
		}
	}
	for _, k := range doc {
		if !slices.Contains(keys, k) {
			t.Errorf("config --default shows %s, which the loader does not accept", k)
		}
	}
	t.Logf("%d keys", len(keys))
}

// TestConfigDefaultStudy: config --default printed as it is is one
// configuration (its study tables are commented out); with the study
// tables' TOML lines uncommented it is a valid study whose every table is
// in use.
func TestConfigDefaultStudy(t *testing.T) {
	text := configDefault(t)
	dir := t.TempDir()
	validate := func(name, src string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := newApp(&out).Run([]string{"icnsim", "validate", path}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return out.String()
	}
	if out := validate("as-printed.toml", text); !strings.Contains(out, "1 points x 1 replicates = 1 runs") {
		t.Errorf("config --default as printed is not one configuration:\n%s", out)
	}
	start := strings.Index(text, "\n## ")
	if start < 0 {
		t.Fatal("config --default has no study section (## prose)")
	}
	var b strings.Builder
	b.WriteString(text[:start+1])
	uncommented := 0
	for _, line := range strings.Split(text[start+1:], "\n") {
		if rest, ok := strings.CutPrefix(line, "# "); ok {
			line = rest
			uncommented++
		}
		b.WriteString(line + "\n")
	}
	out := validate("study.toml", b.String())
	for _, want := range []string{"6 points x 1 replicates = 6 runs", "traffic.pattern: 2 values", "traffic.packets_per_node: 3 values"} {
		if !strings.Contains(out, want) {
			t.Errorf("the uncommented study does not give %q:\n%s", want, out)
		}
	}
	f, err := study.LoadFile(context.Background(), filepath.Join(dir, "study.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Axes) != 2 || len(f.Reduce) != 1 || len(f.References) != 1 || f.Study.Replicates != 1 {
		t.Errorf("the uncommented study does not use every table: %d axes, %d reductions, %d references", len(f.Axes), len(f.Reduce), len(f.References))
	}
	t.Logf("%d lines uncommented", uncommented)
}

// TestHelpDefaults: no flag's help claims a default it does not have: a
// zero that means "choose for me" (--jobs, --workers, --seed) says what is
// chosen instead of "(default: 0)", and no flag states two defaults.
func TestHelpDefaults(t *testing.T) {
	app := newApp(&bytes.Buffer{})
	want := map[string][]string{
		"run":      {"--jobs value        runs of a study at once (default: GOMAXPROCS", "--workers value     shard workers per run (with --exec shards) (default: GOMAXPROCS", "(default: the file's seed)", "(default: 75% of this machine's memory)", "(default: out/NAME for a study"},
		"bench":    {"(default: the scenario's size only)", "(default: 75% of this machine's memory)", `(default: "1,2")`},
		"validate": {"(default: 75% of this machine's memory)"},
	}
	for _, cmd := range app.Commands {
		var out bytes.Buffer
		if err := newApp(&out).Run([]string{"icnsim", cmd.Name, "--help"}); err != nil {
			t.Fatal(err)
		}
		help := out.String()
		for _, line := range strings.Split(help, "\n") {
			if strings.Contains(line, "(default: 0)") || strings.Count(line, "(default:") > 1 || strings.Contains(line, "(default: )") {
				t.Errorf("icnsim %s --help: a misleading default:\n%s", cmd.Name, line)
			}
		}
		for _, w := range want[cmd.Name] {
			// (the columns' width follows the longest flag: compare words)
			if !strings.Contains(strings.Join(strings.Fields(help), " "), strings.Join(strings.Fields(w), " ")) {
				t.Errorf("icnsim %s --help lacks %q:\n%s", cmd.Name, w, help)
			}
		}
	}
}
