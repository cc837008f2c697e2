package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The READMEs whose examples must work as written, from this package's
// directory.
var readmes = []string{"../../README.md", "../../studies/README.md"}

// fence is one fenced block of a Markdown file.
type fence struct {
	file string
	line int    // of the opening fence
	info string // the info string: "toml", "toml fragment", "sh"
	text string
}

func fences(t *testing.T, path string) []fence {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []fence
	var cur *fence
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &fence{file: path, line: n, info: strings.TrimSpace(strings.TrimPrefix(line, "```"))}
		case cur != nil && strings.TrimSpace(line) == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: a fenced block is not closed", path, cur.line)
	}
	return out
}

// TestReadmeTOMLExamples: every ```toml block of the READMEs is a complete
// configuration or study that validates as written (a block marked
// ```toml fragment is a part of one, shown for its keys, and skipped).
func TestReadmeTOMLExamples(t *testing.T) {
	dir := t.TempDir()
	checked := 0
	for r, readme := range readmes {
		for _, f := range fences(t, readme) {
			if f.info != "toml" {
				if strings.HasPrefix(f.info, "toml") && f.info != "toml fragment" {
					t.Errorf("%s:%d: info string %q: use toml (a complete file) or toml fragment", f.file, f.line, f.info)
				}
				continue
			}
			path := filepath.Join(dir, fmt.Sprintf("readme%d-line%d.toml", r, f.line))
			if err := os.WriteFile(path, []byte(f.text), 0o644); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := newApp(&out).Run([]string{"icnsim", "validate", path}); err != nil {
				t.Errorf("%s:%d: the example does not validate as written:\n%v", f.file, f.line, err)
				continue
			}
			checked++
		}
	}
	if checked < 7 {
		t.Fatalf("only %d TOML examples validated; the READMEs hold more", checked)
	}
	t.Logf("%d TOML examples validate", checked)
}

// placeholder matches a command-line argument that stands for the user's
// own file or directory (FILE.toml, DIR, SHARD_DIR...).
var placeholder = regexp.MustCompile(`^[A-Z][A-Z_]*(\.\.\.|\.toml)?$`)

// TestReadmeCommands: every icnsim validate and icnsim config command line
// of the READMEs' ```sh blocks runs as written from the repository's root
// (a line with a placeholder such as FILE.toml is skipped); the output of
// config redirected to a .toml file validates.
func TestReadmeCommands(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ran := 0
	for _, readme := range readmes {
		for _, f := range fences(t, readme) {
			if f.info != "sh" && f.info != "console" {
				continue
			}
			for i, line := range strings.Split(f.text, "\n") {
				line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "$ "))
				if c := strings.Index(line, " #"); c >= 0 {
					line = strings.TrimSpace(line[:c])
				}
				fields := strings.Fields(line)
				if len(fields) < 2 || (fields[0] != "icnsim" && fields[0] != "bin/icnsim") || (fields[1] != "validate" && fields[1] != "config") {
					continue
				}
				where := fmt.Sprintf("%s:%d", f.file, f.line+1+i)
				var args []string
				redirect := ""
				skip := false
				for j := 1; j < len(fields); j++ {
					a := fields[j]
					switch {
					case a == ">" && j+1 < len(fields):
						redirect = filepath.Join(dir, filepath.Base(fields[j+1]))
						j++
						continue
					case placeholder.MatchString(a) || strings.Contains(a, "|"):
						skip = true
					case !strings.HasPrefix(a, "-") && exists(filepath.Join(root, a)):
						a = filepath.Join(root, a)
					}
					args = append(args, a)
				}
				if skip {
					continue
				}
				args, err := flagsFirst(newApp(&bytes.Buffer{}), append([]string{"icnsim"}, args...))
				if err != nil {
					t.Errorf("%s: %s: %v", where, line, err)
					continue
				}
				var out bytes.Buffer
				if err := newApp(&out).Run(args); err != nil {
					t.Errorf("%s: %s: %v", where, line, err)
					continue
				}
				ran++
				if redirect != "" {
					os.WriteFile(redirect, out.Bytes(), 0o644)
					if strings.HasSuffix(redirect, ".toml") {
						if err := newApp(&bytes.Buffer{}).Run([]string{"icnsim", "validate", redirect}); err != nil {
							t.Errorf("%s: the output of %s does not validate: %v", where, line, err)
						}
					}
				}
				t.Logf("%s: %s: ok", where, line)
			}
		}
	}
	if ran < 2 {
		t.Fatalf("only %d command lines ran; the READMEs hold more", ran)
	}
}
