package study

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Overrides on the command line (icnsim run FILE --set KEY=VALUE): each
// is written into the study's text, on the line that sets the key or, if
// the file leaves the key out, in its table, with a comment that says so.
// The study is then the file a user would have written: it is read and
// checked as one, its study directory keeps it as study.toml (so the
// override is recorded, and --resume or merge compare it like any edit),
// and the report shows it.

// SetMark ends every line a --set wrote into a study's text.
const SetMark = "# --set on the command line"

// Set is one KEY=VALUE override.
type Set struct {
	Key   string // the key path, "measure.measure_cycles"
	Value string // TOML text of the value: 2000, "uniform", [1, 2]
	Arg   string // as given, for messages: "measure.measure_cycles=2000"
}

// ParseSets reads --set arguments: KEY=VALUE, the value in TOML (a number,
// true or false, a quoted string, an array) or, where it is none of
// those, a bare word taken as a string (traffic.pattern=uniform).
func ParseSets(args []string) ([]Set, error) {
	var out []Set
	var errs []error
	keys := settableKeys()
	for _, a := range args {
		key, val, ok := strings.Cut(a, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch {
		case !ok || key == "":
			errs = append(errs, fmt.Errorf("--set %s: allowed: KEY=VALUE, e.g. measure.measure_cycles=2000 or traffic.pattern=uniform", a))
			continue
		case !slices.Contains(keys, key):
			msg := fmt.Sprintf("--set %s: %s is not a key a file can set", a, key)
			if near := nearest(key, keys, 4); len(near) > 0 {
				msg += "; nearest: " + strings.Join(near, ", ")
			}
			errs = append(errs, errors.New(msg+" (icnsim config --default lists every key)"))
			continue
		case slices.ContainsFunc(out, func(s Set) bool { return s.Key == key }):
			errs = append(errs, fmt.Errorf("--set %s: %s is set twice on the command line", a, key))
			continue
		}
		if !isTOMLValue(val) {
			if val == "" || strings.ContainsAny(val, "\"'\n[]{}") {
				errs = append(errs, fmt.Errorf("--set %s: %q is not a TOML value (a number, true, false, a quoted string or an array)", a, val))
				continue
			}
			val = strconv.Quote(val)
		}
		out = append(out, Set{Key: key, Value: val, Arg: a})
	}
	return out, errors.Join(errs...)
}

// isTOMLValue reports whether text is one TOML value.
func isTOMLValue(text string) bool {
	var m map[string]any
	_, err := toml.Decode("v = "+text, &m)
	return err == nil
}

// settableKeys are the keys --set may set: the configuration's (as an
// axis may sweep them, and seed and name) and the [study] and [plot]
// tables' scalars.
func settableKeys() []string {
	keys := configKeys()
	for _, t := range []struct {
		table string
		v     any
	}{{"study", StudySpec{}}, {"plot", PlotSpec{}}} {
		rt := reflect.TypeOf(t.v)
		for i := range rt.NumField() {
			if f := rt.Field(i); f.IsExported() && tomlName(f) != "" && tomlName(f) != "-" && f.Type.Kind() != reflect.Map {
				keys = append(keys, t.table+"."+tomlName(f))
			}
		}
	}
	slices.Sort(keys)
	return keys
}

// applied is a study's text with overrides written in, and where lines
// were added (0-based line indexes in the new text), so that an error's
// line can name the file's own line.
type applied struct {
	src      []byte
	inserted []int
}

// fileLine is the file's line of line n (1-based) of the new text; 0 for
// an added line.
func (a applied) fileLine(n int) int {
	if slices.Contains(a.inserted, n-1) {
		return 0
	}
	shift := 0
	for _, i := range a.inserted {
		if i < n-1 {
			shift++
		}
	}
	return n - shift
}

// headerName is the table a line opens ("[router.vc]" -> "router.vc"),
// and false for any other line (an array of tables' "[[axis]]" too).
func headerName(line string) (string, bool) {
	t := strings.TrimSpace(stripComment(line))
	if !strings.HasPrefix(t, "[") || strings.HasPrefix(t, "[[") || !strings.HasSuffix(t, "]") {
		return "", false
	}
	parts := strings.Split(strings.TrimSpace(t[1:len(t)-1]), ".")
	for i := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(parts[i]), `"`)
	}
	return strings.Join(parts, "."), true
}

// applySets writes sets into src (see the package comment above).
func applySets(src []byte, sets []Set) (applied, error) {
	var md toml.MetaData
	var doc map[string]any
	md, _ = toml.Decode(string(src), &doc) // the file's syntax was checked before
	lines := strings.Split(string(src), "\n")
	var a applied
	for _, s := range sets {
		parts := strings.Split(s.Key, ".")
		mark := "  " + SetMark
		i, eq := exactKeyLine(lines, parts)
		if i < 0 && md.IsDefined(parts...) {
			return applied{}, fmt.Errorf("--set %s: the file sets %s in an inline table or a form --set does not rewrite: edit the file", s.Arg, s.Key)
		}
		if i >= 0 {
			old := strings.TrimSpace(stripComment(lines[i][eq+1:]))
			if !isTOMLValue(old) {
				return applied{}, fmt.Errorf("--set %s: the file sets %s over several lines (line %d): edit the file", s.Arg, s.Key, i+1)
			}
			lines[i] = lines[i][:eq+1] + " " + s.Value + mark + " (the file has " + old + ")"
			continue
		}
		at, text := -1, ""
		for n := len(parts) - 1; n >= 1 && at < 0; n-- {
			table := strings.Join(parts[:n], ".")
			if h := slices.IndexFunc(lines, func(l string) bool { name, ok := headerName(l); return ok && name == table }); h >= 0 {
				at, text = h+1, strings.Join(parts[n:], ".")
			}
		}
		if at < 0 { // no table of the key: a dotted key before the first table
			at = slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "[") })
			if at < 0 {
				at = len(lines)
			}
			text = s.Key
		}
		lines = slices.Insert(lines, at, text+" = "+s.Value+mark+" (the file leaves it out)")
		for j := range a.inserted {
			if a.inserted[j] >= at {
				a.inserted[j]++
			}
		}
		a.inserted = append(a.inserted, at)
	}
	a.src = []byte(strings.Join(lines, "\n"))
	return a, nil
}

// exactKeyLine is the 0-based line that sets key path parts itself (not a
// key under it), and the index of its "=", or -1.
func exactKeyLine(lines []string, parts []string) (int, int) {
	table, full := "", strings.Join(parts, ".")
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			table, _ = headerName(t) // "" for an array of tables: no key of ours
			if strings.HasPrefix(t, "[[") {
				table = "[[" // keys under [[axis]] are never a configuration key
			}
			continue
		}
		eq := strings.Index(line, "=")
		if eq <= 0 || strings.HasPrefix(t, "#") {
			continue
		}
		key := strings.Trim(strings.TrimSpace(line[:eq]), `"`)
		if table != "" {
			key = table + "." + key
		}
		if key == full {
			return i, eq
		}
	}
	return -1, -1
}

// stripComment is line without a trailing # comment (outside quotes).
func stripComment(line string) string {
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case quote != 0 && c == '\\' && quote == '"':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '#':
			return line[:i]
		}
	}
	return line
}

// LoadFileSets reads a study file as LoadFile does, with sets written in
// (see applySets): the File's Source is the text with them. A set of a
// key an axis sweeps is refused; an error about a set key names the
// --set, not a line; other errors name the file's own lines.
func LoadFileSets(ctx context.Context, path string, sets []Set) (*File, error) {
	src, err := readFile(path)
	if err != nil {
		return nil, err
	}
	if len(sets) == 0 {
		return ParseFileContext(ctx, path, src)
	}
	var axes struct {
		Axis []struct {
			Key string `toml:"key"`
		} `toml:"axis"`
	}
	if _, err := toml.Decode(string(src), &axes); err != nil {
		return ParseFileContext(ctx, path, src) // the file's own syntax error, with its line
	}
	var errs []error
	for _, s := range sets {
		if i := slices.IndexFunc(axes.Axis, func(a struct {
			Key string `toml:"key"`
		}) bool {
			return a.Key == s.Key
		}); i >= 0 {
			errs = append(errs, fmt.Errorf("--set %s: axis[%d] of %s sweeps %s, so a single value would not run; change the axis's values in the file", s.Arg, i, path, s.Key))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	a, err := applySets(src, sets)
	if err != nil {
		return nil, err
	}
	f, err := ParseFileContext(ctx, path, a.src)
	if err != nil {
		return nil, relocateSetErrors(err, a, sets)
	}
	return f, nil
}

// relocateSetErrors rewrites the errors of the text with sets written in:
// those of a set key name the --set, the others their line in the file.
func relocateSetErrors(err error, a applied, sets []Set) error {
	var list []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	} else {
		list = []error{err}
	}
	var out []error
	for _, e := range list {
		fe, ok := e.(*FieldError)
		if !ok {
			out = append(out, e)
			continue
		}
		c := *fe
		if i := slices.IndexFunc(sets, func(s Set) bool { return s.Key == fe.Key }); i >= 0 {
			c.File, c.Line = "--set "+sets[i].Arg, 0
			if r, raw := c.Value.(rawValue); raw { // a wrong type: the value without the line's comment
				c.Value = rawValue(strings.TrimSpace(stripComment(string(r))))
			}
		} else if c.Line > 0 {
			c.Line = a.fileLine(c.Line)
		}
		out = append(out, &c)
	}
	return errors.Join(out...)
}

//
