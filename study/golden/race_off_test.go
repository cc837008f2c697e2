//go:build !race

package golden_test

// raceEnabled shortens the longest tests under the race detector (which
// slows the simulator about tenfold); the full-length versions run in the
// ordinary `go test ./...`.
const raceEnabled = false
