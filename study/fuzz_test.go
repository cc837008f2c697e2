package study

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/icnsim/icnsim/internal/badinput"
	"github.com/icnsim/icnsim/internal/fuzzguard"
)

// fuzzName is the file name the fuzzed sources are read under: every error
// must name it.
const fuzzName = "fuzz.toml"

// checkAccepted checks what every accepted study promises the runner: each
// point's configuration is valid and survives the round trip through the
// TOML text that run records store (runner.ConfigTOML), and the study can
// be described and estimated.
func checkAccepted(t *testing.T, f *File) {
	t.Helper()
	if len(f.Points) == 0 || len(f.Runs()) != len(f.Points)*f.Study.Replicates {
		t.Fatalf("%d points, %d runs, %d replicates", len(f.Points), len(f.Runs()), f.Study.Replicates)
	}
	for i := range min(len(f.Points), 20) {
		c := f.Points[i].Config
		if errs := c.Validate(); len(errs) > 0 {
			t.Fatalf("accepted point %d is invalid: %v", i, errs[0])
		}
		text := c.TOML()
		back, err := Parse("record", []byte(text))
		if err != nil {
			t.Fatalf("point %d does not read back from its own TOML: %v\n%s", i, err, text)
		}
		if again := back.TOML(); again != text {
			t.Fatalf("point %d changes on a round trip through TOML:\n%s\n---\n%s", i, text, again)
		}
	}
	_ = f.Describe()
	_ = f.FixedWords()
	f.Estimates()
}

// FuzzStudyFile feeds whole files to the study loader (a configuration file
// is a study of one point): it either accepts the file, and then every
// point is a valid configuration that survives its record's round trip, or
// it returns an error that names the file; it never panics or hangs.
func FuzzStudyFile(f *testing.F) {
	shipped, _ := filepath.Glob(filepath.Join("..", "studies", "*.toml"))
	for _, p := range shipped {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	if len(shipped) < 10 {
		f.Fatalf("only %d shipped studies to seed from", len(shipped))
	}
	for _, c := range badinput.Configs() {
		f.Add([]byte(c.TOML))
	}
	for _, c := range badinput.Studies() {
		f.Add([]byte(badinput.StudyBase + c.TOML))
	}
	f.Add([]byte(DefaultTOML()))
	f.Fuzz(func(t *testing.T, src []byte) {
		defer fuzzguard.Start(time.Minute, src)()
		sf, err := ParseFile(fuzzName, src)
		if err != nil {
			if msg := err.Error(); !strings.Contains(msg, fuzzName) {
				t.Fatalf("error does not name the file:\n%s", msg)
			}
			return
		}
		checkAccepted(t, sf)
	})
}

// FuzzConfigValue puts one value under one configuration key, in the base
// file or as an axis of a study: an error names the file and, when the
// value is well-formed TOML, the key path; an accepted value gives valid
// points.
func FuzzConfigValue(f *testing.F) {
	keys := sweepableKeys()
	for i, k := range keys {
		for _, v := range []string{"0", "-1", "1", "2.5", "1e9", "nan", "-inf", `"x"`, `""`, "true", "[1]", "{a = 1}", "9223372036854775807"} {
			f.Add(uint16(i), v, false)
			f.Add(uint16(i), v, true)
		}
		if v, ok := defaultValue(k); ok {
			f.Add(uint16(i), v, false)
			f.Add(uint16(i), v, true)
		}
	}
	f.Fuzz(func(t *testing.T, which uint16, value string, asAxis bool) {
		key := keys[int(which)%len(keys)]
		table, leaf := key[:strings.LastIndex(key, ".")], key[strings.LastIndex(key, ".")+1:]
		var src string
		if asAxis {
			src = badinput.StudyBase + fmt.Sprintf("[[axis]]\nkey = %q\nvalues = [%s]\n", key, value)
		} else {
			src = fmt.Sprintf("[%s]\n%s = %s\n", table, leaf, value)
		}
		defer fuzzguard.Start(time.Minute, src)()
		sf, err := ParseFile(fuzzName, []byte(src))
		if err == nil {
			checkAccepted(t, sf)
			return
		}
		msg := err.Error()
		if !strings.Contains(msg, fuzzName) {
			t.Fatalf("error does not name the file:\n%s", msg)
		}
		var doc map[string]any
		if _, perr := toml.Decode(src, &doc); perr == nil && !namesAKey(msg, keys) {
			t.Fatalf("well-formed value %s of %s: the error names no key:\n%s", value, key, msg)
		}
	})
}

// namesAKey reports whether msg names a configuration key path or an axis
// (a constraint between two keys may name the other one).
func namesAKey(msg string, keys []string) bool {
	for _, k := range keys {
		if strings.Contains(msg, k) {
			return true
		}
	}
	// A value that smuggles in another line names that line's key.
	return strings.Contains(msg, "axis[0]") || strings.Contains(msg, "unknown key")
}

// defaultValue is key's default as TOML text.
func defaultValue(key string) (string, bool) {
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(Default()); err != nil {
		return "", false
	}
	var doc map[string]any
	if _, err := toml.Decode(buf.String(), &doc); err != nil {
		return "", false
	}
	var cur any = doc
	for _, p := range strings.Split(key, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return "", false
		}
		cur = m[p]
	}
	var out bytes.Buffer
	if err := toml.NewEncoder(&out).Encode(map[string]any{"v": cur}); err != nil {
		return "", false
	}
	return strings.TrimSpace(strings.TrimPrefix(out.String(), "v = ")), true
}
