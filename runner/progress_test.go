package runner

import (
	"bytes"
	"regexp"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a buffer several goroutines may write.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestHeartbeatInsideRuns: with a heartbeat, lines come while a run is
// in flight, naming the cycle it has reached of its expected length, not
// only when runs finish; the bar's writer gets the bar.
func TestHeartbeatInsideRuns(t *testing.T) {
	f := parse(t, `name = "beat"
[network]
topology = "torus"
[network.torus]
k = 16
[measure]
warmup_cycles = 2000
measure_cycles = 4000
[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.1, 0.2]
`)
	var log, bar lockedBuffer
	run(t, f, Options{Jobs: 1, Log: &log, Heartbeat: 20 * time.Millisecond, Progress: &bar})
	inFlight := regexp.MustCompile(`icnsim: beat: [01] of 2 runs finished, 1 running \(at cycle [1-9][0-9]* of ~6000\); [0-9.]+k? cycles/s`)
	if !inFlight.MatchString(log.String()) {
		t.Errorf("no heartbeat inside a run:\n%s", log.String())
	}
	if b := bar.String(); !bytes.Contains([]byte(b), []byte("beat: ")) || !bytes.Contains([]byte(b), []byte("cycles/s")) {
		t.Errorf("no bar:\n%q", b)
	}
}
