package study

import (
	"context"
	"path/filepath"
	"testing"
)

// TestShippedStudiesValidate: every study under studies/ parses, expands and
// builds (the channel dependency check included).
func TestShippedStudiesValidate(t *testing.T) {
	t.Parallel() // long and independent: see "Parallel tests" in study_test.go
	files, err := filepath.Glob("../studies/*.toml")
	if err != nil || len(files) < 3 {
		t.Fatalf("studies: %v, %v", files, err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := LoadFile(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Points) < 2 {
				t.Errorf("%d points", len(f.Points))
			}
			if err := f.CheckBuild(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
	}
}
