// Package dirtest compares directory trees in tests: a study's outputs must
// be byte-identical however it was run.
//
// It imports the standard library only.
package dirtest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Tree maps every file under dir (by relative path) to its bytes.
func Tree(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Same fails the test unless dirs a and b hold the same files, byte for
// byte, and returns the number of files compared.
func Same(t testing.TB, a, b string) int {
	t.Helper()
	ta, tb := Tree(t, a), Tree(t, b)
	for name, da := range ta {
		db, ok := tb[name]
		if !ok {
			t.Errorf("%s: only in %s", name, a)
		} else if !bytes.Equal(da, db) {
			t.Errorf("%s differs between %s and %s", name, a, b)
		}
	}
	for name := range tb {
		if _, ok := ta[name]; !ok {
			t.Errorf("%s: only in %s", name, b)
		}
	}
	return len(ta)
}
