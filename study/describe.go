package study

import (
	"fmt"
	"slices"
	"strings"
)

// FixedWords says in words what every point of the study has in common: the
// network, the traffic, the routing and switching, the injection policy,
// as far as no axis sweeps them ("8x8 mesh, uniform traffic, Bernoulli
// injection, dor routing, VCT"). Figures print it under their title.
func (f *File) FixedWords() string {
	swept := func(keys ...string) bool {
		return slices.ContainsFunc(f.AxisKeys(), func(k string) bool { return slices.Contains(keys, k) })
	}
	c := &f.Config
	if len(f.Points) > 0 {
		c = &f.Points[0].Config
	}
	var parts []string
	networkSwept := slices.ContainsFunc(f.AxisKeys(), func(k string) bool { return strings.HasPrefix(k, "network.") })
	if t, _ := c.Network.table(); t != nil && !networkSwept {
		if w := t.Words(); w != "" {
			parts = append(parts, w)
		}
	}
	t := c.Traffic
	switch {
	case t.Process == "job" && !swept("traffic.process"):
		// A job: its motif and ranks stand for the pattern and process.
		w := &c.Workload
		job := "job"
		if !swept("workload.motif") {
			job = w.Motif + " job"
		}
		if !swept("workload.ranks") {
			job += fmt.Sprintf(" of %d ranks", c.ranks())
		}
		if !swept("workload.placement") {
			job += ", " + w.Placement + " placement"
		}
		for _, a := range c.jobs()[1:] {
			job += fmt.Sprintf(", beside a %s job of %d ranks", a.Motif, c.ranksOf(&a))
		}
		if bg := w.BackgroundLoad; bg > 0 {
			job += fmt.Sprintf(", background %g flits/node/cycle", bg)
		}
		parts = append(parts, job)
	default:
		if !swept("traffic.pattern") && t.Pattern != "" {
			parts = append(parts, t.Pattern+" traffic")
		}
		if !swept("traffic.process") && t.Process != "" {
			parts = append(parts, t.Process+" injection")
		}
	}
	r := c.Router
	if !swept("router.routing") && r.Routing != "" {
		parts = append(parts, r.Routing+" routing")
	}
	if !swept("router.ioq.queues", "router.kind") && r.Kind == "ioq" && r.IOQ.Queues != "" {
		parts = append(parts, r.IOQ.Queues+" queues")
	}
	if !swept("router.vc.switching", "router.kind") && r.Kind != "ioq" {
		switch r.VC.Switching {
		case "vct":
			parts = append(parts, "VCT")
		case "":
		default:
			parts = append(parts, r.VC.Switching+" switching")
		}
	}
	if !swept("policy.injection") && c.Policy.Injection != "" && c.Policy.Injection != "none" {
		parts = append(parts, "injection policy "+c.Policy.Injection)
	}
	return strings.Join(parts, ", ")
}

// EffectiveTOML is the configuration point i of the study runs, every key
// with its value (a key the file leaves out shows its default), as TOML
// that icnsim reads back to the same configuration: icnsim config FILE.
// A header of comments names the file, the point and its axis values, and
// the network in words; a size the family derives when it is left out
// (a dragonfly's p, h and g) is a comment with the value the words give,
// since 0 written in a file is refused.
func (f *File) EffectiveTOML(i int) (string, error) {
	if i < 0 || i >= len(f.Points) {
		return "", fmt.Errorf("--point = %d: allowed: 0..%d (%s has %d points)", i, len(f.Points)-1, f.Path, len(f.Points))
	}
	pt := &f.Points[i]
	c := pt.Config
	var b strings.Builder
	fmt.Fprintf(&b, "# The configuration of %s", f.Path)
	if len(f.Points) > 1 {
		fmt.Fprintf(&b, ", point %d of 0..%d (%s)", i, len(f.Points)-1, pt.Label())
	}
	b.WriteString(": every key, those the file leaves out at their defaults.\n")
	if t, _ := c.Network.table(); t != nil {
		if w := t.Words(); w != "" {
			fmt.Fprintf(&b, "# network: %s\n", w)
		}
	}
	if f.Study.Replicates > 1 {
		fmt.Fprintf(&b, "# replicate 0's seed; the study runs %d replicates (seeds %q)\n", f.Study.Replicates, f.Study.Seeds)
	}
	b.WriteString(readableTOML(c))
	return strings.TrimRight(b.String(), "\n") + "\n", nil
}

// readableTOML is c.TOML() as a file may hold it: a size left out for the
// family to derive (0 in c) is a comment, since 0 written is refused.
func readableTOML(c Config) string {
	zeros := leftOutKeys()
	table := ""
	var b strings.Builder
	for _, line := range strings.Split(c.TOML(), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			table = strings.Trim(t, "[]")
		}
		if key, val, ok := strings.Cut(t, " = "); ok && val == "0" {
			if _, left := zeros[table+"."+key]; left {
				line = strings.Replace(line, t, "# "+key+" left out: the family's derived value", 1)
			}
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// WithSets is cfg (a bench scenario: name its origin) with sets written
// in, checked as a file holding cfg would be.
func WithSets(name string, cfg Config, sets []Set) (Config, error) {
	if len(sets) == 0 {
		return cfg, nil
	}
	a, err := applySets([]byte(readableTOML(cfg)), sets)
	if err != nil {
		return Config{}, err
	}
	f, err := ParseFile(name, a.src)
	if err != nil {
		return Config{}, relocateSetErrors(err, a, sets)
	}
	if len(f.Points) != 1 {
		return Config{}, fmt.Errorf("%s: %d points; one configuration expected", name, len(f.Points))
	}
	return f.Points[0].Config, nil
}

// RunWords says how the study's runs were measured, generated from its
// points (not from its comments, which a shortened copy leaves stale):
// the method and its lengths in cycles, the offered load or its range,
// the replicates, and the keys set on the command line (--set).
func (f *File) RunWords() string {
	if len(f.Points) == 0 {
		return ""
	}
	c := f.Points[0].Config
	same := func(get func(c *Config) string) (string, bool) {
		v := get(&f.Points[0].Config)
		for i := range f.Points {
			if get(&f.Points[i].Config) != v {
				return v, false
			}
		}
		return v, true
	}
	var parts []string
	lengths, fixed := same(func(c *Config) string {
		m, t := &c.Measure, &c.Traffic
		switch {
		case t.Process == "collective":
			return fmt.Sprintf("a burst of %d packets of %d flits per node, run to its last delivery", t.PacketsPerNode, t.PacketFlits)
		case t.Process == "job":
			its := fmt.Sprintf("%d iterations", c.Workload.Iterations)
			if c.Workload.Iterations == 1 {
				its = "one iteration"
			}
			return fmt.Sprintf("%s, packets of up to %d flits, run until every rank has finished", its, t.PacketFlits)
		case m.Method == "batches":
			return fmt.Sprintf("warm-up %d cycles, then batches of %d cycles until stable (%d to %d batches, tolerance %g), drain up to %d cycles", m.Warmup(), m.BatchCycles, m.MinBatches, m.MaxBatches, m.Tolerance, m.DrainCycles)
		case m.Method == "packet-batches":
			return fmt.Sprintf("warm-up %d cycles, then %d batches of %d delivered packets", m.Warmup(), m.PacketBatches, m.PacketsPerBatch(c.Nodes()))
		}
		return fmt.Sprintf("warm-up %d cycles, window %d cycles, drain up to %d cycles", m.Warmup(), m.MeasureCycles, m.DrainCycles)
	})
	if !fixed {
		lengths += " at the first point (the lengths vary by point)"
	}
	parts = append(parts, lengths)
	if t := c.Traffic; t.Process != "collective" && t.Process != "saturation" && t.Process != "job" {
		var loads []float64
		for i := range f.Points {
			loads = append(loads, f.Points[i].Config.Traffic.Load)
		}
		lo, hi := slices.Min(loads), slices.Max(loads)
		switch {
		case t.LoadOfWireCapacity > 0 || t.LoadOfBisection > 0:
		case lo == hi:
			parts = append(parts, fmt.Sprintf("offered load %g flits/node/cycle", lo))
		default:
			parts = append(parts, fmt.Sprintf("offered load %g to %g flits/node/cycle", lo, hi))
		}
	}
	if f.Study.Replicates > 1 {
		parts = append(parts, fmt.Sprintf("%d replicates", f.Study.Replicates))
	}
	var sets []string
	table := ""
	for _, line := range strings.Split(string(f.Source), "\n") {
		if t := strings.TrimSpace(stripComment(line)); strings.HasPrefix(t, "[") {
			table = strings.Trim(t, "[] ") + "."
		}
		if i := strings.Index(line, SetMark); i > 0 {
			set := strings.Join(strings.Fields(line[:i]), " ")
			if !strings.HasPrefix(strings.TrimSpace(line), "[") && table != "" && !strings.HasPrefix(set, table) {
				set = table + set
			}
			sets = append(sets, set)
		}
	}
	if len(sets) > 0 {
		parts = append(parts, "set on the command line: "+strings.Join(sets, ", "))
	}
	return strings.Join(parts, "; ")
}
