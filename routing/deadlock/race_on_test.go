//go:build race

package deadlock

const raceEnabled = true
