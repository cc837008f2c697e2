package runner

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/icnsim/icnsim/study"
	"github.com/schollz/progressbar/v3"
)

// progress follows a study's runs while they simulate: each run stores the
// cycle it has reached (study.Options.OnCycle, an atomic store per step),
// and a ticker turns them into the bar on a terminal (runs done, with the
// runs in flight counted by the share of their expected cycles, the
// simulated cycles per second and the time left) or, off a terminal, a
// heartbeat line every interval. It reads nothing of the networks.
type progress struct {
	name     string
	pending  []int   // the run indexes to run
	expected []int64 // by run index: study.Config.ExpectedCycles, 0 unknown
	cycle    []atomic.Int64
	done     []atomic.Bool
	bar      *progressbar.ProgressBar
	beat     io.Writer
	every    time.Duration
	start    time.Time
	stop     chan struct{}
	wg       sync.WaitGroup
}

// unitsPerRun is the bar's resolution within a run.
const unitsPerRun = 1000

// newProgress starts following runs[pending]: a bar on bar's writer, a
// heartbeat line on beat every interval (either may be nil).
func newProgress(f *study.File, runs []study.RunSpec, pending []int, barTo, beat io.Writer, every time.Duration) *progress {
	p := &progress{name: f.Name, pending: pending, expected: make([]int64, len(runs)), cycle: make([]atomic.Int64, len(runs)),
		done: make([]atomic.Bool, len(runs)), beat: beat, every: every, start: time.Now(), stop: make(chan struct{})}
	for _, i := range pending {
		p.expected[i] = runs[i].Config.ExpectedCycles()
	}
	if barTo != nil {
		p.bar = progressbar.NewOptions(len(pending)*unitsPerRun,
			progressbar.OptionSetWriter(barTo),
			progressbar.OptionSetDescription(f.Name),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionShowElapsedTimeOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(barTo) }),
			progressbar.OptionSetWidth(30))
	}
	tick := 200 * time.Millisecond
	if p.bar == nil {
		tick = every
	}
	if p.bar != nil || p.beat != nil && every > 0 {
		p.wg.Add(1)
		go p.follow(tick)
	}
	return p
}

// at records that run i reached cycle c.
func (p *progress) at(i int, c int64) { p.cycle[i].Store(c) }

// finished records that run i finished.
func (p *progress) finished(i int) { p.done[i].Store(true) }

// close stops the ticker; with every run finished the bar completes.
func (p *progress) close() {
	close(p.stop)
	p.wg.Wait()
	if p.bar != nil {
		p.update()
	}
}

// follow updates the bar every tick, and writes a heartbeat line every
// p.every, until close.
func (p *progress) follow(tick time.Duration) {
	defer p.wg.Done()
	t := time.NewTicker(tick)
	defer t.Stop()
	lastBeat := time.Now()
	for {
		select {
		case <-p.stop:
			return
		case now := <-t.C:
			if p.bar != nil {
				p.update()
			}
			if p.beat != nil && p.every > 0 && now.Sub(lastBeat) >= p.every {
				fmt.Fprintln(p.beat, p.line())
				lastBeat = now
			}
		}
	}
}

// state is what the runs have done: units of the bar (unitsPerRun per
// finished run, a run in flight its share of its expected cycles, at most
// unitsPerRun - 1), runs finished, runs in flight and cycles simulated.
func (p *progress) state() (units, finished, running int, cycles int64) {
	for _, i := range p.pending {
		c := p.cycle[i].Load()
		cycles += c
		switch {
		case p.done[i].Load():
			units += unitsPerRun
			finished++
		case c > 0:
			running++
			if e := p.expected[i]; e > 0 {
				units += int(min(int64(unitsPerRun-1), c*unitsPerRun/e))
			}
		}
	}
	return units, finished, running, cycles
}

// update sets the bar from the runs' state.
func (p *progress) update() {
	units, finished, running, cycles := p.state()
	p.bar.Describe(fmt.Sprintf("%s: %d/%d runs, %d running, %s cycles/s", p.name, finished, len(p.pending), running, siCount(p.rate(cycles))))
	p.bar.Set(units)
}

// rate is the cycles simulated per second of wall clock so far.
func (p *progress) rate(cycles int64) float64 {
	s := time.Since(p.start).Seconds()
	if s <= 0 {
		return 0
	}
	return float64(cycles) / s
}

// line is a heartbeat: runs finished and in flight, the cycles of those in
// flight against their expected length, the rate, the time so far and,
// once the share done is known, about how long is left.
func (p *progress) line() string {
	units, finished, running, cycles := p.state()
	elapsed := time.Since(p.start).Round(time.Second)
	var flight []string
	for _, i := range p.pending {
		if c := p.cycle[i].Load(); c > 0 && !p.done[i].Load() && len(flight) < 4 {
			if e := p.expected[i]; e > 0 && c <= e {
				flight = append(flight, fmt.Sprintf("%d of ~%d", c, e))
			} else if e > 0 {
				flight = append(flight, fmt.Sprintf("%d, draining", c))
			} else {
				flight = append(flight, fmt.Sprint(c))
			}
		}
	}
	s := fmt.Sprintf("icnsim: %s: %d of %d runs finished, %d running", p.name, finished, len(p.pending), running)
	if len(flight) > 0 {
		s += " (at cycle " + strings.Join(flight, ", ")
		if running > len(flight) {
			s += ", ..."
		}
		s += ")"
	}
	s += fmt.Sprintf("; %s cycles/s; %s elapsed", siCount(p.rate(cycles)), elapsed)
	if total := len(p.pending) * unitsPerRun; units > 0 && units < total {
		left := time.Duration(float64(time.Since(p.start)) * float64(total-units) / float64(units)).Round(time.Second)
		s += fmt.Sprintf(", about %s left", left)
	}
	return s
}

// siCount writes a count per second with k, M or G.
func siCount(v float64) string {
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%.2fG", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%.2fM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.1fk", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}
