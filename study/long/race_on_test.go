//go:build race

package long_test

const raceEnabled = true
