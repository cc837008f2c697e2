// Package atomicfile writes files so that a reader, or a process resumed
// after the writer was killed, sees the old file or the whole new one, never
// a part: write a temporary file in the same directory, sync, rename.
//
// It imports the standard library only.
package atomicfile

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Write writes data to a temporary file in path's directory (mode 0644),
// syncs it and renames it over path, so readers (and a resumed study after a
// crash) see either the old file or the whole new one, never a part.
func Write(path string, data []byte) error {
	return WriteFrom(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFrom is Write for a file that fill writes, streamed through a buffer
// into the temporary file: a study's results.json runs to gigabytes, which
// held whole in memory cost seconds of growing and collecting it. If fill
// fails, path is left as it was.
func WriteFrom(path string, fill func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+tempMark+"*")
	if err != nil {
		return err
	}
	// os.CreateTemp makes the file 0600; results, figures and reports
	// are for sharing (a study directory on a cluster, index.html on a
	// web server): readable by all, as a file os.Create makes.
	werr := tmp.Chmod(0o644)
	if werr == nil {
		bw := bufio.NewWriterSize(tmp, 1<<16)
		if werr = fill(bw); werr == nil {
			werr = bw.Flush()
		}
	}
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return werr
	}
	return os.Rename(tmp.Name(), path)
}

const tempMark = ".tmp-atomic-"

// IsTemp reports whether name is one of Write's temporary files, which a
// writer killed before its rename leaves behind.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempMark)
}
