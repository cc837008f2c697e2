package clock

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestTreeBarrierPhases: with group counts that are not multiples of the
// group size and fan-outs that leave partial last levels, no participant
// starts phase k+1 before every participant has finished phase k.
func TestTreeBarrierPhases(t *testing.T) {
	for _, parties := range []int{1, 2, 63, 64, 65, 129, 1000, 4097} {
		b := NewTreeBarrier(parties)
		const phases = 50
		var done [phases]atomic.Int32
		var bad atomic.Int32
		var wg sync.WaitGroup
		for i := 0; i < parties; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := 0; k < phases; k++ {
					if k > 0 && done[k-1].Load() != int32(parties) {
						bad.Add(1)
					}
					done[k].Add(1)
					if !b.Wait(i) {
						bad.Add(1)
						return
					}
				}
			}()
		}
		wg.Wait()
		if bad.Load() != 0 {
			t.Errorf("%d parties: %d participants ran ahead of the barrier", parties, bad.Load())
		}
	}
}

// TestTreeBarrierBreak: breaking the barrier releases every waiter, and
// later waits return false at once.
func TestTreeBarrierBreak(t *testing.T) {
	b := NewTreeBarrier(130)
	var wg sync.WaitGroup
	var released atomic.Int32
	for i := 1; i < 130; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !b.Wait(i) {
				released.Add(1)
			}
		}()
	}
	b.Break()
	wg.Wait()
	if released.Load() != 129 {
		t.Fatalf("%d of 129 waiters saw the break", released.Load())
	}
	if b.Wait(0) {
		t.Fatal("Wait after Break returned true")
	}
}
