package study

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/traffic"
)

// acceptPool is, per key, the values the property test draws: valid ones,
// each key's extremes (0, negative, NaN, 1e-300, 1e308) and mistakes;
// files are topology files to draw.
func acceptPool(files []any) map[string][]any {
	var routings []any // sorted: the draw must reproduce
	for _, n := range slices.Sorted(maps.Keys(Routings())) {
		routings = append(routings, n)
	}
	var patterns []any
	for _, p := range traffic.PatternNames() {
		patterns = append(patterns, p)
	}
	tiny, huge, nan := 1e-300, 1e308, math.NaN()
	pool := map[string][]any{
		"router.ugal_threshold_flits":        {0, 4, 64, -1},
		"router.kind":                        {"vc", "vc", "ioq"},
		"router.ioq.queues":                  {"1q", "voq-sw", "voq-net", "recn"},
		"router.routing":                     routings,
		"router.vc.vcs":                      {1, 2, 3, 4, 5, 6, 8, 0, 65},
		"router.vc.buffer_flits":             {1, 2, 4, 8, 16, 0},
		"router.vc.switching":                {"vct", "wormhole"},
		"router.routing_delay_cycles":        {0, 1, 2, 1000, -1},
		"router.link_latency_cycles":         {1, 2, 3, 0},
		"router.credit_latency_cycles":       {1, 2, 0},
		"router.vc.selection":                {"free-most-credits", "least-occupied"},
		"router.vc.selection_ties":           {"rotation", "random", "fsin"},
		"router.ioq.port_memory_bytes":       {64, 512, 1024, 131072, 8, 0},
		"router.ioq.flit_bytes":              {1, 8, 16, 0},
		"router.ioq.link_gbps":               {8.0, 0.001, 1e6, tiny, huge, nan, 0.0, -8.0},
		"router.allow_deadlock":              {false, true},
		"router.vc.internal_speedup":         {1, 2, 3, 4, 0, 5},
		"router.vc.arbitration":              {"round-robin", "oldest-first", "class-priority", "oldest"},
		"router.vc.switch_allocator":         {"separable-input-first", "separable-output-first", "islip", "wavefront", "islip3"},
		"router.vc.islip_iterations":         {1, 2, 4, 0, 65},
		"router.vc.vc_allocation_cycles":     {0, 1, 2, -1, 65},
		"router.vc.switch_allocation_cycles": {1, 2, 0, 65},
		"router.vc.crossbar_cycles":          {0, 1, 3, -1},
		"router.vc.class_vcs":                {[]any{}, []any{}, []any{1, 1}, []any{2, 2}, []any{1, 2}, []any{3, 0}, []any{1, 1, 1}},
		"router.vc.class_share":              {"none", "none", "priority", "weighted", "fair"},
		"router.vc.class_weights":            {[]any{}, []any{3, 1}, []any{1, 1, 1}, []any{0, 1}, []any{101, 1}},
		"traffic.class_volume_percent":       {[]any{}, []any{}, []any{50.0, 50.0}, []any{25, 75}, []any{10, 30, 60}, []any{100}, []any{60, 60}, []any{nan, 50}},
		"traffic.class_packet_flits":         {[]any{}, []any{}, []any{1, 8}, []any{4, 4, 4}, []any{0, 4}},
		"router.har.free":                    {"tail-sent", "upper-empty", "all-empty"},
		"router.ioq.recn.saqs":               {1, 2, 8, 0, 59, 60},
		"router.ioq.recn.detect_fraction":    {0.01, 0.1, 0.0, 1.0, tiny, nan},
		"router.ioq.recn.xoff_fraction":      {0.01, 0.2, 0.0, 1.0, tiny},
		"router.ioq.recn.xon_fraction":       {0.005, 0.1, 0.0, nan},
		"router.ioq.recn.idle_cycles":        {0, 1, 1024, -1},
		"router.ioq.recn.control_lanes":      {"shared", "dedicated"},
		"router.ioq.recn.xoff_scope":         {"children", "feeders"},
		"traffic.pattern":                    patterns,
		"traffic.process":                    {"bernoulli", "poisson", "saturation", "collective", "ramp"},
		"traffic.load_flits_per_node_cycle":  {0.01, 0.3, 1.0, tiny, 1e-20, nan, 0.0, huge},
		"traffic.packets_per_node":           {1, 3, 0},
		"traffic.packet_flits":               {1, 2, 8, 20, 0},
		"traffic.long_packet_flits":          {0, 16, 64},
		"traffic.long_volume_percent":        {0.0, 50.0, 100.0, tiny, nan},
		"traffic.load_of_wire_capacity":      {0.0, 0.5, tiny, 1.0},
		"traffic.load_of_bisection":          {0.0, 0.5, tiny, huge},
		"traffic.hotspot_fraction":           {0.02, 0.0, 1.0, nan},
		"traffic.hotspot_node":               {-1, 0, 3},
		"traffic.self":                       {"loopback", "skip", "redraw"},
		"traffic.source_queue_packets":       {0, 1, 4},
		"traffic.phase_cycle":                {0, 50},
		"traffic.phase_pattern":              patterns,
		"traffic.ramp_cycles":                {1, 100, 1_000_000},
		"policy.injection":                   {"none", "none", "hyst(70,90,30)", "base", "gt.a", "sat(4,8,ring)", "sat(2,4,tree)", "sat", "sat(1,1,ring)"},
		"policy.sat_l":                       {1, 4, 16},
		"policy.sat_k":                       {1, 8, 16},
		"policy.sat_structure":               {"ring", "tree"},
		"policy.sat_hop_latency_cycles":      {1, 3},
		"policy.sat_node_latency_cycles":     {0, 1, 5},
		"policy.measure_circuit":             {false, true},
		"policy.circuit":                     {"auto", "grid", "tree"},
		"policy.circuit_lanes":               {"dedicated", "steal"},
		"measure.method":                     {"window", "batches", "packet-batches"},
		"measure.warmup_cycles":              {0, 20, 50},
		"measure.measure_cycles":             {1, 100, 150},
		"measure.sample_cycles":              {0, 1, 10},
		"measure.batch_cycles":               {20, 50},
		"measure.drain_cycles":               {0, 50},
		"measure.batch_packets":              {0, 10},
		"measure.packet_batches":             {1, 2},
		"measure.watchdog_cycles":            {0, 100000},
	}
	// The families' tables, from the catalog: each key of each table
	// draws the values of its leaf (a new family's key needs a pool here).
	leaves := map[string][]any{
		"k": {2, 3, 4, 5, 0, -1}, "levels": {1, 2, 3}, "concentration": {1, 2, 4, 0}, "node_channels": {0, 1, 2},
		"routers_per_group": {2, 3, 4, 6, 0, -1, 65}, "global_per_router": {0, 1, 2, 3, 33}, "groups": {0, 2, 3, 5, 9, 256},
		"nodes_per_router": {0, 1, 2, 3, 33}, "global_arrangement": {"palmtree", "consecutive", "diagonal"},
		"global_latency_cycles": {0, 3, 10, 1001}, "local_latency_cycles": {0, 2, 10, 1001}, "dimensions": {1, 2, 3, 0, 9}, "trunking": {0, 1, 2, 9}, "path": files,
		"oversubscription": {[]any{2, 1}, []any{1, 1}, []any{2}, []any{3, 1}}, "q": {3, 4, 5, 6, 2, 0, 44}, "leaves": {1, 2, 3, 0, 33}, "spines": {0, 1, 2, 33}, "nodes_per_leaf": {0, 1, 2, 33}, "global_per_spine": {0, 1, 2, 3, 33},
	}
	for _, name := range topologies() {
		pool["network.topology"] = append(pool["network.topology"], name)
		for _, leaf := range familyKeys()[name] {
			if leaves[leaf] == nil {
				panic(fmt.Sprintf("acceptPool: no values for network.%s.%s", name, leaf))
			}
			pool["network."+name+"."+leaf] = leaves[leaf]
		}
	}
	return pool
}

// TestAcceptedConfigurationsRun is the property "what validate accepts,
// run runs": configurations drawn from the keys' pools (a few keys changed
// from one of several bases), capped at 200 cycles; each one that
// Validate and the build checks accept must run to the end without a
// panic, and give a result that encodes (no +Inf in its JSON) and
// digests. The draw is seeded: a failure reproduces.
func TestAcceptedConfigurationsRun(t *testing.T) {
	files := randomGraphFiles(t, 24)
	pool := acceptPool(files)
	keys := make([]string, 0, len(pool))
	for k := range pool {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	bases := []map[string]any{
		{"network.torus.k": 4},
		{"network.topology": "mesh", "network.mesh.k": 4, "router.routing": "dor", "router.vc.vcs": 2, "traffic.process": "bernoulli"},
		{"network.topology": "fattree", "network.fattree.k": 2, "network.fattree.levels": 3, "router.routing": "fattree-adaptive", "router.vc.vcs": 2, "traffic.process": "bernoulli", "traffic.pattern": "uniform", "policy.injection": "sat(4,8,ring)"},
		{"network.topology": "mesh", "network.mesh.k": 4, "router.kind": "ioq", "router.routing": "dor", "router.ioq.queues": "recn", "router.ioq.port_memory_bytes": 1024, "traffic.process": "bernoulli", "traffic.pattern": "hotspot"},
		{"network.topology": "mesh", "network.mesh.k": 4, "router.routing": "hybrid-har", "router.vc.vcs": 4, "router.vc.switching": "wormhole", "network.mesh.node_channels": 2, "traffic.process": "bernoulli", "traffic.long_packet_flits": 16, "traffic.long_volume_percent": 50.0},
		{"network.topology": "dragonfly", "network.dragonfly.routers_per_group": 4, "router.routing": "ugal-l", "router.vc.vcs": 3, "traffic.process": "bernoulli", "traffic.pattern": "uniform"},
		{"network.topology": "dragonfly", "network.dragonfly.routers_per_group": 2, "network.dragonfly.global_latency_cycles": 4, "router.routing": "par", "router.vc.vcs": 4, "router.vc.internal_speedup": 2, "traffic.process": "bernoulli", "traffic.pattern": "group-shift"},
		{"network.topology": "dragonfly", "network.dragonfly.routers_per_group": 3, "network.dragonfly.groups": 4, "router.routing": "val", "router.vc.vcs": 3, "traffic.process": "bernoulli", "traffic.pattern": "uniform"},
		{"network.topology": "hyperx", "network.hyperx.k": 3, "network.hyperx.dimensions": 2, "network.hyperx.nodes_per_router": 2, "router.routing": "val", "router.vc.vcs": 2, "traffic.process": "bernoulli", "traffic.pattern": "uniform"},
		{"network.topology": "dragonflyplus", "network.dragonflyplus.leaves": 2, "network.dragonflyplus.global_latency_cycles": 3, "router.routing": "ugal-l", "router.vc.vcs": 3, "traffic.process": "bernoulli", "traffic.pattern": "group-shift"},
		{"network.topology": "slimfly", "network.slimfly.q": 3, "router.routing": "val", "router.vc.vcs": 4, "traffic.process": "bernoulli", "traffic.pattern": "dimension-shift"},
		{"network.topology": "file", "network.file.path": files[0], "router.routing": "shortest-hops", "router.vc.vcs": 6, "traffic.process": "bernoulli", "traffic.pattern": "uniform"},
	}
	// A family of the catalog that no base above names gets one of its
	// own: its table's defaults, under the first routing defined on it with
	// that routing's least VCs (a new family runs here without a line).
	for _, name := range topologies() {
		if name == Default().Network.Topology || slices.ContainsFunc(bases, func(b map[string]any) bool { return b["network.topology"] == name }) {
			continue
		}
		for _, spec := range RoutingList() {
			if slices.Contains(spec.Topologies, name) && len(spec.Loops) == 0 {
				bases = append(bases, map[string]any{"network.topology": name, "router.routing": spec.Name, "router.vc.vcs": max(spec.MinVCs, 1),
					"traffic.process": "bernoulli", "traffic.pattern": "uniform"})
				break
			}
		}
	}
	draws := 12000
	if testing.Short() || raceEnabled {
		draws = 1500 // the race detector runs 10 times slower
	}
	rng := rand.New(rand.NewPCG(34, 200))
	accepted, ran := 0, 0
	ranOn, ranWith := map[string]int{}, map[string]int{}
	for i := range draws {
		cfg := cappedDefault()
		var set []string
		for k, v := range bases[rng.IntN(len(bases))] {
			if err := setKey(&cfg, k, v); err != nil {
				t.Fatalf("base %s = %v: %v", k, v, err)
			}
		}
		for range 1 + rng.IntN(4) {
			k := keys[rng.IntN(len(keys))]
			v := pool[k][rng.IntN(len(pool[k]))]
			if err := setKey(&cfg, k, v); err != nil {
				t.Fatalf("draw %d: %s = %v: %v", i, k, v, err)
			}
			set = append(set, fmt.Sprintf("%s=%v", k, v))
		}
		if errs := cfg.Validate(); len(errs) > 0 {
			continue
		}
		accepted++
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		if checkNetwork(ctx, cfg) != nil || checkTraffic(ctx, cfg) != nil {
			cancel()
			continue
		}
		ran++
		ranOn[cfg.Network.Topology]++
		ranWith[cfg.Network.Topology+" "+cfg.Router.Routing]++
		what := fmt.Sprintf("draw %d (%s)", i, strings.Join(set, " "))
		r, err := runCapped(ctx, cfg)
		timedOut := ctx.Err() != nil
		cancel()
		var pe *actor.PanicError
		switch {
		case errors.As(err, &pe) || err != nil && strings.Contains(err.Error(), "panic"):
			t.Errorf("%s: %v", what, err)
		case timedOut:
			t.Errorf("%s: did not finish 200 cycles in 60 s", what)
		case err != nil && cfg.Measure.Method != "window" && strings.Contains(err.Error(), "before the measurement window closed"):
			// Batches end when their means converge (batches) or enough
			// packets are delivered (packet-batches), which no check can
			// know before the run: the run says so, naming the key.
		case err != nil:
			t.Errorf("%s: Validate and the build checks accepted it, but the run failed: %v", what, err)
		case err == nil:
			if _, jerr := json.Marshal(r); jerr != nil {
				t.Errorf("%s: the result does not encode: %v", what, jerr)
			}
			_ = r.Digest()
			if werr := report.WriteText(io.Discard, []*report.Result{r}); werr != nil {
				t.Errorf("%s: the result does not print: %v", what, werr)
			}
		}
	}
	t.Logf("%d draws, %d accepted by Validate, %d passed the build checks and ran; by topology: %v", draws, accepted, ran, ranOn)
	if ran < draws/10 {
		t.Errorf("only %d of %d draws ran: the pools test too little", ran, draws)
	}
	for _, topo := range topologies() { // every family of the catalog runs
		if ranOn[topo] < draws/100 {
			t.Errorf("only %d draws ran on a %s", ranOn[topo], topo)
		}
	}
	if draws < 12000 {
		return
	}
	for name, spec := range Routings() {
		for _, topo := range spec.Topologies {
			if (topo == "dragonfly" || topo == "hyperx" || topo == "file") && ranWith[topo+" "+name] == 0 && !directedRun(bases, topo, spec) {
				t.Errorf("no draw ran %s on a %s, nor a directed one", name, topo)
			}
		}
	}
}

// cappedDefault is the built-in configuration with its runs capped at
// 200 cycles, as the acceptance draws run.
func cappedDefault() Config {
	cfg := BuiltIn()
	cfg.Measure.MaxCycles, cfg.Measure.WarmupCycles, cfg.Measure.MeasureCycles, cfg.Measure.DrainCycles = 200, 50, 100, 50
	cfg.Measure.StallCycles = 150
	return cfg
}

// directedRun runs routing spec on family topo from the first base on
// it, with the fewest VCs from spec.MinVCs up that validate and pass the
// deadlock check (or, where none does, that validate with
// allow_deadlock), for a
// combination the seeded draws missed (which ones they reach shifts with
// every base added): it reports whether the run ended without an error.
func directedRun(bases []map[string]any, topo string, spec routing.Spec) bool {
	i := slices.IndexFunc(bases, func(b map[string]any) bool { return b["network.topology"] == topo })
	if i < 0 {
		return false
	}
	// A routing the check refuses at every VC count (ugal-l-booksim:
	// BookSim2's phases have a cycle) runs with allow_deadlock.
	for try := range 16 {
		vcs, allow := max(spec.MinVCs, 1)+try%8, try >= 8
		if vcs > 8 {
			continue
		}
		cfg := cappedDefault()
		for k, v := range bases[i] {
			if setKey(&cfg, k, v) != nil {
				return false
			}
		}
		if setKey(&cfg, "router.routing", spec.Name) != nil || setKey(&cfg, "router.vc.vcs", vcs) != nil ||
			setKey(&cfg, "router.allow_deadlock", allow) != nil || len(cfg.Validate()) > 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		if checkNetwork(ctx, cfg) != nil || checkTraffic(ctx, cfg) != nil {
			cancel()
			continue
		}
		_, err := runCapped(ctx, cfg)
		cancel()
		return err == nil
	}
	return false
}

// randomGraphFiles writes n topology files drawn at random (seeded): 1 to
// 10 routers joined by a random tree and extra links (parallel ones
// among them; none in every third, a tree) of random latencies, 2 to 12
// nodes on random routers, some routers without nodes; one in eight
// leaves a router out of the tree, a file the reader refuses.
func randomGraphFiles(t *testing.T, n int) []any {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(47, 1))
	files := make([]any, n)
	for i := range files {
		routers := 1 + rng.IntN(10)
		var b strings.Builder
		fmt.Fprintf(&b, "# random graph %d\nrouters %d\n", i, routers)
		nodes := 2 + rng.IntN(11)
		for range nodes {
			fmt.Fprintf(&b, "node %d\n", rng.IntN(routers))
		}
		lat := func() string {
			if rng.IntN(2) == 0 {
				return ""
			}
			return fmt.Sprintf(" %d", rng.IntN(6))
		}
		cut := -1
		if routers > 2 && i%8 == 7 {
			cut = 1 + rng.IntN(routers-1)
		}
		for r := 1; r < routers; r++ {
			if r != cut {
				fmt.Fprintf(&b, "link %d %d%s\n", rng.IntN(r), r, lat())
			}
		}
		for range rng.IntN(routers+1) * min(i%3, 1) { // every third a tree
			a, c := rng.IntN(routers), rng.IntN(routers)
			if a != c && a != cut && c != cut {
				fmt.Fprintf(&b, "link %d %d%s\n", a, c, lat())
			}
		}
		path := filepath.Join(dir, fmt.Sprintf("g%02d.txt", i))
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		files[i] = path
	}
	return files
}

// runCapped runs cfg serially, turning a panic that escapes Run into an
// error that says so.
func runCapped(ctx context.Context, cfg Config) (r *report.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic outside the executor: %v", p)
		}
	}()
	return Run(ctx, cfg, Options{Exec: actor.Serial})
}
