// Package fuzzguard turns a hang of a fuzz target into a crasher: the
// fuzzing engine keeps the input of a worker that panics, but an input that
// never returns only stalls the campaign. Test code only.
//
// It imports the standard library only.
package fuzzguard

import (
	"flag"
	"fmt"
	"time"
)

// Start arms a timer that panics, naming in, when the input has not been
// answered within limit; stop disarms it. It arms only while fuzzing (go
// test -fuzz): a seed-corpus run under the race detector or on a loaded
// machine is slow by design, and go test's own -timeout catches its hangs.
func Start(limit time.Duration, in any) (stop func()) {
	f := flag.Lookup("test.fuzz")
	if f == nil || f.Value.String() == "" {
		return func() {}
	}
	t := time.AfterFunc(limit, func() { panic(fmt.Sprintf("input %q: no answer in %v", in, limit)) })
	return func() { t.Stop() }
}
