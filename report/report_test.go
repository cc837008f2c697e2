package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestHistogramQuantiles(t *testing.T) {
	var h Histogram
	for v := uint64(1); v <= 1000; v++ {
		h.Record(v)
	}
	for _, c := range []struct {
		q    float64
		want uint64
	}{{0.5, 500}, {0.99, 990}, {1, 1000}, {0.001, 1}} {
		if got := h.Quantile(c.q); got != c.want {
			t.Errorf("q%.3f = %d, want %d (exact below 1024)", c.q, got, c.want)
		}
	}
	if h.Mean() != 500.5 || h.Max() != 1000 || h.Count() != 1000 {
		t.Errorf("mean %v max %d count %d", h.Mean(), h.Max(), h.Count())
	}
	// Large values: within the bucket's relative width.
	var g Histogram
	for _, v := range []uint64{5000, 123456, 9_000_000} {
		g.Record(v)
	}
	for q, want := range map[float64]float64{0.33: 5000, 0.66: 123456, 1: 9_000_000} {
		if got := float64(g.Quantile(q)); math.Abs(got-want)/want > 1.0/512 {
			t.Errorf("q%.2f = %v, want %v within 1/512", q, got, want)
		}
	}
}

// TestQuantileRank: at least a share q of the values are <= Quantile(q).
func TestQuantileRank(t *testing.T) {
	var h Histogram
	for v := uint64(1); v <= 60; v++ {
		h.Record(v)
	}
	if got := h.Quantile(0.99); got != 60 {
		t.Errorf("p99 of 1..60 = %d, want 60 (59 covers only 98.3%%)", got)
	}
	if got := h.Quantile(0.5); got != 30 {
		t.Errorf("p50 of 1..60 = %d, want 30", got)
	}
}

func TestHistogramMergeEqualsDirect(t *testing.T) {
	var a, b, all Histogram
	for v := uint64(0); v < 5000; v += 7 {
		if v%3 == 0 {
			a.Record(v)
		} else {
			b.Record(v)
		}
		all.Record(v)
	}
	a.Merge(&b)
	if a.Count() != all.Count() || a.Mean() != all.Mean() || a.Quantile(0.9) != all.Quantile(0.9) || a.Max() != all.Max() {
		t.Fatalf("merged %+v differs from direct %+v", Summarise(&a), Summarise(&all))
	}
	cdf := a.CDF()
	if last := cdf[len(cdf)-1]; last[1] != 1 {
		t.Fatalf("CDF ends at %v", last)
	}
}

func TestSpreadJain(t *testing.T) {
	if s := SpreadOf([]float64{2, 2, 2, 2}); s.Jain != 1 || s.Min != 2 || s.Max != 2 {
		t.Errorf("equal shares: %+v", s)
	}
	// One of four nodes gets everything: Jain = 1/4.
	if s := SpreadOf([]float64{1, 0, 0, 0}); s.Jain != 0.25 {
		t.Errorf("one node: Jain %v, want 0.25", s.Jain)
	}
}

func TestDigestAndCSV(t *testing.T) {
	r := &Result{Scenario: "s", Process: "bernoulli", Nodes: 4, AcceptedFlitsPerNodeCycle: 0.25}
	d1 := r.Digest()
	r2 := *r
	if d1 != r2.Digest() || len(d1) != 64 {
		t.Fatalf("digest %q not stable", d1)
	}
	r2.Scenario = "renamed"
	if r2.Digest() != d1 {
		t.Fatal("the study's name changes the digest of the same results")
	}
	r2.AcceptedFlitsPerNodeCycle = 0.2500001
	if r2.Digest() == d1 {
		t.Fatal("digest ignores a changed value")
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, []*Result{r, &r2}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 3 || len(rows[0]) != len(CSVHeader(MetricsFor([]*Result{r, &r2}))) || len(MetricsFor([]*Result{r})) != len(Metrics())-63 { // SAT, wire, bisection, class, traffic-class, switch, SAQ, job and request-reply metrics are gated off
		t.Fatalf("csv: %v rows, err %v", len(rows), err)
	}
	for _, h := range rows[0][8:27] {
		if !strings.Contains(h, "_cycle") && !strings.Contains(h, "jain") && !strings.Contains(h, "hops") &&
			!strings.Contains(h, "packets") && !strings.Contains(h, "cycles") && !strings.Contains(h, "share") {
			t.Errorf("column %q has no unit", h)
		}
	}
}

func TestReductions(t *testing.T) {
	nan := math.NaN()
	ms := []struct {
		xs        []float64
		mean, std float64
	}{
		{[]float64{2, 4, 4, 4, 5, 5, 7, 9}, 5, 2.138089935},
		{[]float64{3}, 3, 0},
		{[]float64{1, 1}, 1, 0},
	}
	for _, c := range ms {
		if m, s := MeanStd(c.xs); m != c.mean || s != c.std {
			t.Errorf("MeanStd(%v) = %v, %v; want %v, %v", c.xs, m, s, c.mean, c.std)
		}
	}
	if m, _ := MeanStd(nil); !math.IsNaN(m) {
		t.Errorf("MeanStd(nil) = %v, want NaN", m)
	}
	gs := []struct {
		xs   []float64
		want float64
	}{{[]float64{1, 4}, 2}, {[]float64{2, 8, 4}, 4}, {[]float64{5}, 5}, {[]float64{1, 0}, nan}, {[]float64{1, -2}, nan}, {nil, nan}}
	for _, c := range gs {
		if got := GeoMean(c.xs); got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("GeoMean(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
	ss := []struct {
		v, base float64
		smaller bool
		want    float64
	}{{50, 100, true, 2}, {200, 100, true, 0.5}, {0.3, 0.2, false, 1.5}, {0, 100, true, nan}, {1, 0, false, nan}}
	for _, c := range ss {
		if got := SpeedUp(c.v, c.base, c.smaller); got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("SpeedUp(%v, %v, %v) = %v, want %v", c.v, c.base, c.smaller, got, c.want)
		}
	}
	bs := []struct {
		xs      []float64
		smaller bool
		want    int
	}{{[]float64{3, 1, 2}, true, 1}, {[]float64{3, 1, 3}, false, 0}, {[]float64{nan, 2, 1}, false, 1}, {[]float64{nan}, true, -1}, {nil, true, -1}}
	for _, c := range bs {
		if got := Best(c.xs, c.smaller); got != c.want {
			t.Errorf("Best(%v, %v) = %d, want %d", c.xs, c.smaller, got, c.want)
		}
	}
}

// TestHistogramCompactEqualsDense: the compact histogram (a byte per bucket
// over the range seen, high parts once a count passes 255) gives the same
// counts, quantiles, CDF and merges as a dense count per bucket, for
// values that drift up and down, counts far past 255, and merges in both
// directions.
func TestHistogramCompactEqualsDense(t *testing.T) {
	dense := map[int]uint64{}
	var h, a, b Histogram
	x := uint64(12345)
	for k := 0; k < 200000; k++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		var v uint64
		switch k % 5 {
		case 0:
			v = 40 + x%20 // a popular range: counts far past 255
		case 1:
			v = x % 3000 // exact and wide buckets
		case 2:
			v = uint64(k) % 700 // drifts up
		case 3:
			v = 5000000 + x%1000000
		default:
			v = 900 - uint64(k)%900 // drifts down
		}
		h.Record(v)
		if k%2 == 0 {
			a.Record(v)
		} else {
			b.Record(v)
		}
		dense[bucketOf(v)]++
	}
	h.settle()
	for i, c := range dense {
		if j := i - int(h.lo); j < 0 || j >= len(h.low) || h.count(j) != c {
			t.Fatalf("bucket %d: compact count differs from %d", i, c)
		}
	}
	var total uint64
	for j := range h.low {
		total += h.count(j)
	}
	if total != h.Count() || h.high == nil {
		t.Fatalf("counts sum to %d of %d (high parts allocated: %v)", total, h.Count(), h.high != nil)
	}
	var m1, m2 Histogram
	m1.Merge(&a)
	m1.Merge(&b)
	m2.Merge(&b)
	m2.Merge(&a)
	for _, m := range []*Histogram{&m1, &m2} {
		if Summarise(m) != Summarise(&h) || fmt.Sprint(m.CDF()) != fmt.Sprint(h.CDF()) {
			t.Fatalf("merged %+v differs from direct %+v", Summarise(m), Summarise(&h))
		}
	}
	for _, q := range []float64{0.01, 0.25, 0.5, 0.9, 0.99, 1} {
		// The dense definition: the smallest bucket whose cumulative count reaches the rank.
		rank := uint64(math.Ceil(q*float64(h.Count()) - 1e-9))
		var seen uint64
		for i := 0; ; i++ {
			if seen += dense[i]; seen >= rank {
				if want := max(h.Quantile(0), min(bucketLow(i), h.Max())); h.Quantile(q) != want {
					t.Errorf("q%v = %d, want %d", q, h.Quantile(q), want)
				}
				break
			}
		}
	}
}

// TestHistogramTail: values outside the reserved range wait in the tail
// without allocating, count in quantiles, CDF and merges, and grow the
// range when the tail is full.
func TestHistogramTail(t *testing.T) {
	var h Histogram
	h.Reserve(100)
	n := len(h.low)
	for _, v := range []uint64{5, 500, 600, 700, 5} {
		h.Record(v)
	}
	if len(h.low) != n || h.nTail != 3 {
		t.Fatalf("range %d buckets (was %d), tail %d: want the three large values in the tail", len(h.low), n, h.nTail)
	}
	if allocs := testing.AllocsPerRun(1, func() { var g Histogram; g.Reserve(100); g.Record(900) }); allocs > 1 {
		t.Errorf("a tail value allocated: %v allocations", allocs)
	}
	var m Histogram
	m.Merge(&h)
	if q := m.Quantile(0.6); q != 500 {
		t.Errorf("merged p60 = %d, want 500", q)
	}
	if q := h.Quantile(1); q != 700 || fmt.Sprint(h.CDF()) != fmt.Sprint(m.CDF()) {
		t.Errorf("p100 %d; CDF %v, merged %v", q, h.CDF(), m.CDF())
	}
	var g Histogram
	g.Reserve(100)
	for v := uint64(200); v < 210; v++ {
		g.Record(v) // the fifth spills: the range grows
	}
	if g.nTail >= tailCap || len(g.low) <= n || g.Quantile(0.5) != 204 {
		t.Errorf("after spilling: tail %d, range %d buckets, p50 %d", g.nTail, len(g.low), g.Quantile(0.5))
	}
}

// TestLabels: every metric has a label in words, and names without one
// are written in words with their unit.
func TestLabels(t *testing.T) {
	for _, m := range Metrics() {
		if _, ok := metricLabels()[m.Name]; !ok {
			t.Errorf("metric %s has no label in metricLabels()", m.Name)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"latency_mean_cycles", "Mean packet latency (cycles)"},
		{"queue_depth_flits", "Queue depth (flits)"},
		{"load_flits_per_node_cycle", "Load (flits/node/cycle)"},
		{"speedup", "Speedup"},
		{"k", "K"},
	} {
		if got := Label(c.in); got != c.want {
			t.Errorf("Label(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSeriesCSVAndDigestOfSwitchRuns: the time series of a run of the
// input/output-buffered switch has no buffer ratios (the switch counts no
// buffers per cycle) but the packets in its adapters' injection memories,
// and with RECN the SAQ columns; the injection-memory counts, the SAQ
// flit counts and RECN's whole-run peaks stay out of the digest (the
// digests of such runs predate them), the SAQs in use do not.
func TestSeriesCSVAndDigestOfSwitchRuns(t *testing.T) {
	vc := &Result{Scenario: "vc", Series: []Sample{{Cycle: 100, InFlightPackets: 3, ValidBufferRatio: 0.5, MobilityRatio: 0.25}}}
	ioq := &Result{Scenario: "ioq", Switch: &SwitchInfo{Queues: "recn"},
		Series: []Sample{{Cycle: 100, InFlightPackets: 3, SourceQueuedPackets: 2, SAQs: &SAQSample{InUseIngress: 4, InUseEgress: 5, Flits: 600, FullestFlits: 170}}}}
	header := func(r *Result) ([]string, []string) {
		var buf bytes.Buffer
		if err := WriteSeriesCSV(&buf, r); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil || len(rows) != 2 {
			t.Fatalf("%s: %d rows, %v", r.Scenario, len(rows), err)
		}
		return rows[0], rows[1]
	}
	h, row := header(vc)
	if !slices.Contains(h, "valid_buffer_ratio") || !slices.Contains(h, "mobility_ratio") || slices.Contains(h, "injection_memory_packets") || slices.Contains(h, "saq_flits") {
		t.Errorf("VC router's series columns %v", h)
	}
	if row[slices.Index(h, "valid_buffer_ratio")] != "0.5" {
		t.Errorf("VC row %v", row)
	}
	before := ioq.Digest()
	ioq.Series[0].InjectionMemoryPackets = 7
	if ioq.Digest() != before {
		t.Error("the injection-memory count changed the digest")
	}
	if ioq.Series[0].InjectionMemoryPackets != 7 {
		t.Error("Digest changed the result")
	}
	// RECN's whole-run peaks and the series' SAQ flit counts came later
	// too: outside the digest, untouched by it; the SAQs in use are in it.
	ioq.SAQs = &SAQResult{MaxPerPortIngress: 3, Refusals: 1}
	before = ioq.Digest()
	ioq.SAQs.MaxPerPortIngressRun, ioq.SAQs.PeakFlitsEgress, ioq.SAQs.XoffFlits = 4, 170, 163
	flits := ioq.Series[0].SAQs.Flits
	ioq.Series[0].SAQs.Flits++
	ioq.Series[0].SAQs.FullestFlits++
	if ioq.Digest() != before {
		t.Error("the whole-run SAQ peaks or the series' SAQ flits changed the digest")
	}
	if ioq.SAQs.PeakFlitsEgress != 170 || ioq.Series[0].SAQs.Flits != flits+1 {
		t.Error("Digest changed the SAQ figures")
	}
	ioq.Series[0].SAQs.Flits = flits
	ioq.Series[0].SAQs.FullestFlits--
	ioq.Series[0].SAQs.InUseIngress++
	if ioq.Digest() == before {
		t.Error("the SAQs in use left the digest")
	}
	ioq.Series[0].SAQs.InUseIngress--
	h, row = header(ioq)
	want := []string{"cycle", "in_flight_packets", "source_queued_packets", "injection_memory_packets", "accepted_flits_per_node_cycle", "saqs_in_use_ingress", "saqs_in_use_egress", "saq_flits", "saq_fullest_flits"}
	if !slices.Equal(h, want) {
		t.Errorf("switch's series columns %v, want %v", h, want)
	}
	if got := strings.Join(row, ","); got != "100,3,2,7,0,4,5,600,170" {
		t.Errorf("switch's row %s", got)
	}
}

// TestCIHalfWidth95: Student's t quantiles from the table and beyond it
// (exact values 2.0395 at 31, 2.021 at 40, 2.000 at 60, 1.980 at 120
// degrees of freedom), and no interval from one value.
func TestCIHalfWidth95(t *testing.T) {
	for _, c := range []struct {
		n    int
		want float64
	}{{2, 12.706 / math.Sqrt(2)}, {5, 2.776 / math.Sqrt(5)}, {32, 2.0395 / math.Sqrt(32)}, {41, 2.021 / math.Sqrt(41)}, {61, 2.000 / math.Sqrt(61)}, {121, 1.980 / math.Sqrt(121)}} {
		if got := CIHalfWidth95(1, c.n); math.Abs(got-c.want) > 0.0006/math.Sqrt(float64(c.n)) {
			t.Errorf("CIHalfWidth95(1, %d) = %.4f, want %.4f", c.n, got, c.want)
		}
	}
	if got := CIHalfWidth95(3, 1); !math.IsNaN(got) {
		t.Errorf("one value: %v, want NaN", got)
	}
}
