package link

import (
	"testing"

	"github.com/icnsim/icnsim/clock"
)

// BenchmarkWirePoll is one cycle of 1,024 wires of latency 1: a flit and
// a credit sent on each, and each polled, as a network's readers and
// writers do every cycle; reported per wire.
func BenchmarkWirePoll(b *testing.B) {
	const n = 1024
	ws := NewWires(n, 1, 1)
	now := clock.Cycle(0)
	got, cycles := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		for w := range n {
			ws.SendFlit(w, now, Flit{Dst: int32(w)})
			ws.SendCredit(w, now, Credit{VC: 0})
		}
		now++
		cycles++
		for w := range n {
			if _, _, hasFlit, hasCredit := ws.Take(w, now); hasFlit && hasCredit {
				got++
			}
		}
	}
	if got == 0 {
		b.Fatal("no wire delivered a flit and a credit")
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(cycles*n), "ns/wire")
}
