//go:build !race

package vc

// raceEnabled shortens the longest tests under the race detector (which
// slows the simulator about tenfold and runs beside the other packages'
// race tests); the full versions run in the ordinary `go test ./...`.
const raceEnabled = false
