package study

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/icnsim/icnsim/topology/graph"
)

// Loading a configuration file: strict decoding (every wrong type and
// unknown key reported with its line), the errors' form, and finding the
// line a key is set on.

// FieldError is one problem with a configuration value.
type FieldError struct {
	File    string // may be empty
	Line    int    // 0 when unknown
	Key     string // TOML key path, e.g. "router.vc.vcs"
	Value   any
	Allowed string
}

func (e *FieldError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s = %s: %s", e.Key, formatValue(e.Value), e.Allowed)
	return b.String()
}

func formatValue(v any) string {
	if r, ok := v.(rawValue); ok {
		return string(r)
	}
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice {
		parts := make([]string, rv.Len())
		for i := range parts {
			parts[i] = formatValue(rv.Index(i).Interface())
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

func readFile(path string) ([]byte, error) { return os.ReadFile(path) }

// Load reads a configuration file strictly: unknown keys, wrong types and
// invalid values are all reported, joined, before anything runs.
func Load(path string) (Config, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	return Parse(path, src)
}

// Parse reads a configuration from src; name is used in error messages.
func Parse(name string, src []byte) (Config, error) {
	cfg := Default()
	md, errs, err := decodeAll(name, src, &cfg)
	if err != nil {
		return Config{}, err
	}
	// Its topology file, read once for the checks below and the run.
	gl := &graphLoader{ctx: context.Background(), graphs: map[string]*graph.Loaded{}}
	if err := gl.attach(&cfg.Network); err != nil {
		return Config{}, err
	}
	for _, k := range unknownKeys(md) {
		allowed := movedKey(k, &cfg)
		if allowed == "" {
			allowed = unknownKey(k, "configuration key")
		}
		errs = append(errs, &FieldError{File: name, Line: lineOf(src, k), Key: k.String(), Value: valueAt(src, lineOf(src, k)), Allowed: allowed})
	}
	for _, s := range selectors() {
		unselectedTables(md, s, []string{s.selected(&cfg)}, func(key []string, allowed string) {
			errs = append(errs, &FieldError{File: name, Line: lineOf(src, key), Key: strings.Join(key, "."), Value: "(table)", Allowed: allowed})
		})
	}
	for _, e := range cfg.Validate() {
		if fe, ok := e.(*FieldError); ok {
			fe.File = name
			fe.Line = lineOf(src, strings.Split(fe.Key, "."))
		}
		errs = append(errs, e)
	}
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return cfg, nil
}

// typeErrRE matches BurntSushi/toml's type-mismatch error of a value;
// tableErrRE its error of a value where a table is needed.
var (
	typeErrRE  = regexp.MustCompile(`line (\d+) \(last key "([^"]*)"\): incompatible types: TOML value has type ([^;]+); destination has type (\w+)`)
	tableErrRE = regexp.MustCompile(`line (\d+) \(last key "([^"]*)"\): type mismatch for [^:]+: expected table but found (\w+)`)
)

// decodeAll decodes src into v, collecting every type mismatch: the decoder
// stops at the first, so each offending line is blanked (keeping the line
// numbers) and the decode repeated. A syntax error ends it with one error.
func decodeAll(name string, src []byte, v any) (toml.MetaData, []error, error) {
	var errs []error
	src = bytes.Clone(src)
	for range 100 {
		md, err := toml.NewDecoder(bytes.NewReader(src)).Decode(v)
		if err == nil {
			// The decoder visits a table's keys in map order: report by line.
			slices.SortStableFunc(errs, func(a, b error) int { return a.(*FieldError).Line - b.(*FieldError).Line })
			return md, errs, nil
		}
		var pe toml.ParseError
		if errors.As(err, &pe) && !strings.Contains(pe.Message, "incompatible types") {
			if len(errs) > 0 {
				// A syntax error only after lines of wrong-typed values
				// were blanked (the rest of a value over several lines):
				// the type errors are what is wrong with the file.
				return toml.MetaData{}, errs, errors.Join(errs...)
			}
			if key, val, ok := valueOfLine(src, pe); ok {
				return md, nil, fmt.Errorf("%s:%d: %s = %s: %s", name, pe.Position.Line, key, val, pe.Message)
			}
			return md, nil, fmt.Errorf("%s:%d: %s", name, pe.Position.Line, pe.Message)
		}
		m := typeErrRE.FindStringSubmatch(err.Error())
		if t := tableErrRE.FindStringSubmatch(err.Error()); m == nil && t != nil {
			m = []string{t[0], t[1], t[2], t[3], "struct"}
		}
		if m == nil {
			return md, nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "toml: "))
		}
		line, _ := strconv.Atoi(m[1])
		lines := bytes.Split(src, []byte("\n"))
		if line < 1 || line > len(lines) || len(bytes.TrimSpace(lines[line-1])) == 0 {
			return md, nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "toml: "))
		}
		val := string(bytes.TrimSpace(lines[line-1]))
		if i := strings.Index(val, "="); i >= 0 {
			val = strings.TrimSpace(val[i+1:])
		}
		allowed := fmt.Sprintf("wrong type: %s where %s is needed", tomlWord(m[3]), typeWord(m[4]))
		if m[2] == "network.file" {
			allowed = movedFileKey
		}
		errs = append(errs, &FieldError{File: name, Line: line, Key: m[2], Value: rawValue(val), Allowed: allowed})
		lines[line-1] = nil
		src = bytes.Join(lines, []byte("\n"))
	}
	return toml.MetaData{}, errs, errors.Join(errs...)
}

// changedKey names the first field of the table at path (a struct of
// TOML-tagged fields) whose value differs from the default's, and that value.
func changedKey[T any](path string, v, def T) (string, any) {
	rv, rd := reflect.ValueOf(v), reflect.ValueOf(def)
	for i := range rv.NumField() {
		if rv.Field(i).Interface() != rd.Field(i).Interface() {
			tag, _, _ := strings.Cut(rv.Type().Field(i).Tag.Get("toml"), ",")
			return path + "." + tag, rv.Field(i).Interface()
		}
	}
	return path, nil
}

// valueOfLine finds the key and value of a parse error's line when the
// error is in a value (an integer too large, a float out of range), so that
// the message names the key path like every other.
func valueOfLine(src []byte, pe toml.ParseError) (key, val string, ok bool) {
	lines := bytes.Split(src, []byte("\n"))
	ln := pe.Position.Line
	if pe.LastKey == "" || ln < 1 || ln > len(lines) {
		return "", "", false
	}
	leaf := pe.LastKey[strings.LastIndex(pe.LastKey, ".")+1:]
	k, v, found := strings.Cut(string(bytes.TrimSpace(lines[ln-1])), "=")
	k = strings.Trim(strings.TrimSpace(k), `"'`)
	if !found || (k != leaf && !strings.HasSuffix(pe.LastKey, "."+k) && k != pe.LastKey) {
		return "", "", false
	}
	return pe.LastKey, strings.TrimSpace(v), true
}

// rawValue is a value as written in the file, printed unquoted.
type rawValue string

func (r rawValue) String() string { return string(r) }

// tomlWord names the TOML type of a decoded value's Go type.
func tomlWord(goType string) string {
	switch {
	case goType == "int64":
		return "an integer"
	case goType == "float64":
		return "a float"
	case goType == "string":
		return "a string"
	case goType == "bool":
		return "a boolean"
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case strings.HasPrefix(goType, "map"):
		return "a table"
	}
	return "a " + goType
}

func typeWord(goType string) string {
	switch goType {
	case "integer", "int", "int64", "uint64":
		return "an integer"
	case "float", "float64":
		return "a number"
	case "string":
		return "a string"
	case "bool", "boolean":
		return "true or false"
	case "slice", "array":
		return "an array [...]"
	case "struct", "map":
		return "a table"
	}
	return goType
}

// allowedKeys lists the keys of the table holding key k.
func allowedKeys(k toml.Key) string {
	var keys []string
	b := configKeys()
	prefix := strings.Join(k[:len(k)-1], ".")
	if t, ok := studyTables()[prefix]; ok {
		return strings.Join(tagsOf(t), ", ")
	}
	if prefix == "" {
		keys = append(keys, "study", "axis", "plot", "reduce", "reference")
	}
	for _, full := range b {
		parent, leaf := "", full
		if i := strings.LastIndex(full, "."); i >= 0 {
			parent, leaf = full[:i], full[i+1:]
		}
		switch {
		case parent == prefix:
			keys = append(keys, leaf)
		case prefix == "" || strings.HasPrefix(parent, prefix+"."):
			// A table under this one (recn under router).
			sub := strings.Split(strings.TrimPrefix(strings.TrimPrefix(parent, prefix), "."), ".")[0]
			if !slices.Contains(keys, sub) {
				keys = append(keys, sub)
			}
		}
	}
	if len(keys) == 0 {
		return "(no such table)"
	}
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}

// configKeys lists the key paths of a configuration, every family's table
// included, from the Config type (a table left empty has its keys still).
func configKeys() []string {
	var out []string
	var walk func(prefix string, t reflect.Type)
	walk = func(prefix string, t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			name := tomlName(f)
			switch {
			case f.Anonymous && f.Type.Kind() == reflect.Struct:
				walk(prefix, f.Type) // the families' tables, under their parent
			case !f.IsExported() || name == "" || name == "-":
			case f.Type.Kind() == reflect.Struct && !unmarshalsItself(f.Type):
				walk(prefix+name+".", f.Type)
			default:
				out = append(out, prefix+name)
			}
		}
	}
	walk("", reflect.TypeOf(Config{}))
	return out
}

// unmarshalsItself reports a struct type that reads itself from one TOML value
// (toml.Unmarshaler, as fattree.Ratios from an array): a key, not a table.
func unmarshalsItself(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(reflect.TypeFor[toml.Unmarshaler]())
}

// lineOf finds the line (1-based) at which key path k is set, or 0.
func lineOf(src []byte, k []string) int {
	table := ""
	want := strings.Join(k[:len(k)-1], ".")
	leaf := k[len(k)-1]
	for i, line := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			table = strings.Trim(t, "[] \t")
			if j := strings.Index(table, "#"); j >= 0 {
				table = strings.TrimSpace(table[:j])
			}
			if table == strings.Join(k, ".") {
				return i + 1
			}
			continue
		}
		if eq := strings.Index(t, "="); eq > 0 {
			key := strings.Trim(strings.TrimSpace(t[:eq]), `"`)
			full := key
			if table != "" {
				full = table + "." + key
			}
			// (a table defined by a dotted key, "vc.vcs = 2" under [router],
			// is found at that key's line)
			if full == strings.Join(k, ".") || (table == want && key == leaf) || strings.HasPrefix(full, strings.Join(k, ".")+".") {
				return i + 1
			}
		}
	}
	return 0
}

func rangeErr(key string, v any, allowed string) error {
	return &FieldError{Key: key, Value: v, Allowed: allowed}
}

// unknownKey words the error of an unknown key k (what: "configuration
// key" or "study or configuration key"): the keys allowed in its table,
// and the table a key of that name belongs in, or the nearest keys.
func unknownKey(k toml.Key, what string) string {
	allowed := allowedKeys(k)
	msg := "unknown key, not a " + what + "; allowed here: " + allowed
	leaf, full := k[len(k)-1], k.String()
	all := configKeys()
	slices.Sort(all)
	var elsewhere []string
	for _, a := range all {
		if a != full && (a == leaf || strings.HasSuffix(a, "."+leaf)) {
			elsewhere = append(elsewhere, a)
		}
	}
	switch {
	case len(elsewhere) > 0:
		table := elsewhere[0][:max(strings.LastIndex(elsewhere[0], "."), 0)]
		if table == "" {
			return msg + fmt.Sprintf("; %q is a top-level key: write it before the first table", leaf)
		}
		return msg + fmt.Sprintf("; %q is a key of [%s]: write it there (%s)", leaf, table, strings.Join(elsewhere, ", "))
	case allowed != "(no such table)":
		if s := didYouMean(leaf, strings.Split(allowed, ", ")); s != "" {
			return msg + s
		}
	}
	return msg + didYouMean(full, all)
}

// unknownKeys are the keys the decoder did not use, without the keys of a
// table that is itself unknown (reported once, as the table).
func unknownKeys(md toml.MetaData) []toml.Key {
	var out []toml.Key
	for _, k := range md.Undecoded() {
		if !slices.ContainsFunc(out, func(p toml.Key) bool { return len(p) < len(k) && slices.Equal(p, k[:len(p)]) }) {
			out = append(out, k)
		}
	}
	return out
}

// TOML is the configuration as a TOML file that Parse reads back to the
// same TOML: every key, and of the families' tables its topology's only,
// of the router kinds' its kind's (the others are not part of the
// configuration).
func (c Config) TOML() string {
	c.Network = c.Network.selectedOnly()
	keepSelected(&c.Router.kinds, selectors()[1].selected(&c))
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(c); err != nil {
		panic(err) // a Config always encodes
	}
	return buf.String()
}

// valueAt is the value written on line n (1-based) of src, as written
// ("unifrom", 3, [1, 2]), for the message of an unknown key; "(table)" for
// a table's header and "(unknown key)" where the line holds no value.
func valueAt(src []byte, n int) rawValue {
	lines := strings.Split(string(src), "\n")
	if n < 1 || n > len(lines) {
		return "(unknown key)"
	}
	t := strings.TrimSpace(lines[n-1])
	if strings.HasPrefix(t, "[") {
		return "(table)"
	}
	if _, v, ok := strings.Cut(t, "="); ok {
		if v = strings.TrimSpace(stripComment(v)); v != "" {
			return rawValue(v)
		}
	}
	return "(unknown key)"
}
