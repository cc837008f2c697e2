//go:build !race

package runner

// raceEnabled skips TestShippedStudiesDraw under the race detector (which
// slows the simulator and the drawing about tenfold; the drawing runs on
// one goroutine): it runs in the ordinary `go test ./...`.
const raceEnabled = false
