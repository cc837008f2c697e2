package study

import (
	"fmt"
	"strings"

	"github.com/icnsim/icnsim/internal/keys"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/traffic"
)

// DefaultTOML is the full default configuration as commented TOML; parsing it
// gives Default() (a test checks this). It ends with every table a study
// file may add ([study], [[axis]], [plot], [[reduce]], [[reference]]),
// commented out, each key with its default and what is allowed (StudyTOML).
func DefaultTOML() string {
	d := Default()
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	p("# icnsim configuration: one simulation. Every key is optional; these are the defaults.")
	p("# A study adds sweep axes, replicates, plots, reductions and published values: the tables at the end.")
	p("# The study's name: results, figure titles and the default study directory out/NAME. Without it, a file")
	p("# is named after its network, pattern and process, leaving out swept keys (this one: %s;", ImpliedName(d, nil))
	p("# a 4-ary 3-tree under uniform saturation: fattree64-uniform-saturation)")
	p("name = %q", d.Name)
	p("seed = %d  # every random choice derives from this seed", d.Seed)
	p("")
	writeNetworkTOML(p, d)
	writeRouterTOML(p, d)
	writeTrafficTOML(p, d)
	writeWorkloadTOML(p, d)
	p("")
	writePolicyTOML(p, d)
	writeMeasureTOML(p, d)
	b.WriteString(StudyTOML())
	return b.String()
}

// tomlPrinter prints one line of DefaultTOML.
type tomlPrinter func(format string, args ...any)

// writeNetworkTOML prints the [network] table of DefaultTOML and the
// families' tables (each family documents its own keys: KeyDocs).
func writeNetworkTOML(p tomlPrinter, d Config) {
	p("[network]")
	p("topology = %q      # torus (k x k, wrap-around), mesh (k x k), fattree (k-ary n-tree, tapered or not), dragonfly, dragonflyplus, hyperx, slimfly or file; its keys are in its own table below", d.Network.Topology)
	p("")
	for _, name := range topologies() {
		t, _ := (&Network{Topology: name, families: d.Network.families}).table()
		// The built-in scenario's table is written out; the others are
		// commented, as examples of their keys.
		comment := "# "
		if name == d.Network.Topology {
			comment = ""
		}
		p("%s[network.%s]", comment, name)
		for _, k := range t.KeyDocs() {
			p("%s%-26s # %s", comment, k.Key+" = "+k.Value, k.Doc)
		}
		p("")
	}
}

// writeRouterTOML prints the [router] table of DefaultTOML with
// [router.har], and the router kinds' tables (each kind documents its own
// keys: KeyDocs), the built-in scenario's written out, the others
// commented.
func writeRouterTOML(p tomlPrinter, d Config) {
	var routings []string
	for _, n := range routingNames() {
		routings = append(routings, fmt.Sprintf("#   %-14s %s", n, Routings()[n].Doc))
	}
	p("[router]")
	p("kind = %q                  # vc (input-queued virtual-channel router) or ioq (the RECN paper's input/output-buffered switch: mesh, routing = \"dor\"); its keys are in its own table below", d.Router.Kind)
	p("# routing function:")
	p("%s", strings.Join(routings, "\n"))
	p("routing = %q", d.Router.Routing)
	p("# ugal_threshold_flits = 0  # ugal-l, ugal-g, par only: UGAL's T, minimal when q_min*H_min <= q_val*H_val + T")
	p("routing_delay_cycles = %d   # cycles from a head's arrival to its earliest departure (0 = one-cycle router)", d.Router.RoutingDelayCycles)
	p("link_latency_cycles = %d    # router-to-router and NI links, >= 1", d.Router.LinkLatencyCycles)
	p("credit_latency_cycles = %d  # credit return, >= 1", d.Router.CreditLatencyCycles)
	p("allow_deadlock = %v      # run even if the channel dependency graph has a cycle (to study deadlock)", d.Router.AllowDeadlock)
	p("")
	p("[router.har]               # routing = \"hybrid-har\" or \"har-dor\" only")
	p("free = %q         # when a channel takes a new message: tail-sent (once the previous tail has been sent on), upper-empty (the upper network's VCs only when empty downstream: no short message queues behind a long one there), all-empty (every VC and both connection channels only when empty downstream: the paper's \"free\" in every step)", d.Router.HAR.Free)
	p("")
	tables := func(comment, path string, docs []keys.Doc) {
		p("%s[%s]", comment, path)
		for _, k := range docs {
			p("%s%-26s # %s", comment, k.Key+" = "+k.Value, k.Doc)
		}
		p("")
	}
	for _, name := range routerKindNames() {
		comment := "# "
		if name == d.Router.Kind {
			comment = ""
		}
		t := d.Router.kindTable(name)
		tables(comment, "router."+name, t.KeyDocs())
		if s, ok := t.(interface{ SubTables() []keys.Sub }); ok {
			for _, sub := range s.SubTables() {
				p("# %s", sub.Doc)
				tables(comment, "router."+name+"."+sub.Key, sub.Keys)
			}
		}
	}
}

// writeTrafficTOML prints the [traffic] table of DefaultTOML.
func writeTrafficTOML(p tomlPrinter, d Config) {
	var patterns []string
	for _, n := range traffic.PatternNames() {
		patterns = append(patterns, fmt.Sprintf("#   %-18s %s", n, traffic.Patterns()[n].Doc))
	}
	p("[traffic]")
	p("# destination pattern:")
	p("%s", strings.Join(patterns, "\n"))
	p("pattern = %q", d.Traffic.Pattern)
	p("# arrival process: bernoulli, poisson (at load_flits_per_node_cycle), saturation (always backlogged),")
	p("# collective (packets_per_node packets queued at cycle 0; the run ends when all are delivered),")
	p("# ramp (the ramp-load method: bernoulli at a load rising linearly from 0 to load_flits_per_node_cycle over ramp_cycles),")
	p("# on-off (bursty: ON periods of bernoulli arrivals at the peak load load x (on + off) / on, then silent OFF periods,")
	p("# of geometric lengths with means on_cycles and off_cycles; load_flits_per_node_cycle is the average),")
	p("# request-reply (closed loop: each node issues requests of request_flits at load / (request_flits + reply_flits)")
	p("# per cycle, at most max_outstanding unanswered, and answers each request it receives service_cycles later")
	p("# with a reply of reply_flits; load counts requests and replies),")
	p("# job (closed loop: the ranks of the [workload] table run their programs; the run ends when every rank has finished)")
	p("process = %q", d.Traffic.Process)
	p("load_flits_per_node_cycle = %v  # offered load, (0, 1]", d.Traffic.Load)
	p("packets_per_node = %d           # collective burst size", d.Traffic.PacketsPerNode)
	p("packet_flits = %d                # packet length (of the short messages, class 0, when sizes are bimodal)", d.Traffic.PacketFlits)
	p("long_packet_flits = %d           # > 0: long messages (class 1) of this length", d.Traffic.LongPacketFlits)
	p("long_volume_percent = %v         # share of the traffic volume (flits, not packets) in long messages, 0..100", d.Traffic.LongVolumePercent)
	p("class_volume_percent = %s       # traffic classes: percent of the volume in each (2..4 entries summing to 100; [] one class); each measured apart, with [router.vc] class_vcs and class_share", d.Traffic.ClassVolumePercent)
	p("class_packet_flits = %s         # each traffic class's packet size ([]: packet_flits for every class)", d.Traffic.ClassPacketFlits)
	p("load_of_wire_capacity = %v       # > 0: the offered load as a share of the wire capacity (every router-to-router channel busy; the Hybrid-HAR paper's unit), instead of load_flits_per_node_cycle", d.Traffic.LoadOfWireCapacity)
	p("load_of_bisection = %v           # > 0: the offered load as a share of twice the bisection bandwidth (the RECN paper's unit, 1 = what uniform traffic can carry), instead of load_flits_per_node_cycle; reports relative_throughput", d.Traffic.LoadOfBisection)
	p("hotspot_fraction = %v         # hotspot pattern: share of packets to the hot-spot node", d.Traffic.HotspotFraction)
	p("hotspot_source_fraction = %v  # hotspot-sources pattern: share of the sources sending every packet to the hot-spot node (RECN paper: 0.125 case #2, 0.25 case #3)", d.Traffic.HotspotSourceFraction)
	p("hotspot_node = %d               # -1: the centre node", d.Traffic.HotspotNode)
	p("hot_region_fraction = %v       # hot-region pattern: share of packets to nodes 0..N/8-1", d.Traffic.HotRegionFraction)
	p("phase_cycle = %d                 # > 0: packets generated from this cycle on use phase_pattern", d.Traffic.PhaseCycle)
	p("phase_pattern = %q", d.Traffic.PhasePattern)
	p("ramp_cycles = %d          # ramp process: the offered load rises linearly to load_flits_per_node_cycle over this many cycles", d.Traffic.RampCycles)
	p("on_cycles = %v                 # on-off process: the mean ON period (cycles, >= 1)", d.Traffic.OnCycles)
	p("off_cycles = %v                # on-off process: the mean OFF period (cycles, >= 1)", d.Traffic.OffCycles)
	p("# a packet to its own source (a permutation's fixed points, or a random pattern drawing the source):")
	for _, m := range traffic.SelfModeNames() {
		p("#   %-9s %s", m, traffic.SelfModeDoc(m))
	}
	p("self = %q", d.Traffic.Self)
	p("request_flits = %d               # request-reply: a request's length", d.Traffic.RequestFlits)
	p("reply_flits = %d                 # request-reply: a reply's length", d.Traffic.ReplyFlits)
	p("service_cycles = %d              # request-reply: from a request's tail arriving to its reply being queued", d.Traffic.ServiceCycles)
	p("max_outstanding = %d             # request-reply: requests a node may have unanswered (>= 1); an arrival beyond waits", d.Traffic.MaxOutstanding)
	p("server_queue_packets = %d        # request-reply: requests a server holds at once (received, in service, or answered and not yet sent); a request beyond waits in the network", d.Traffic.ServerQueuePackets)
	p("virtual_networks = %d            # request-reply: 2 puts requests and replies on halves of the VCs (deadlock free); 1 shares them (message-dependent deadlock, refused unless allow_deadlock)", d.Traffic.VirtualNetworks)
	p("source_queue_packets = %d   # > 0: bound each node's source queue (bernoulli, poisson, ramp); arrivals wait outside a full queue and the process pauses (FSIN's NIC buffer); latency then counts from entry into the queue", d.Traffic.SourceQueuePackets)
	p("")
}

// writePolicyTOML prints the [policy] table: entropy throttling, its circuit and SAT of DefaultTOML.
func writePolicyTOML(p tomlPrinter, d Config) {
	p("[policy]")
	p("# entropy throttling (Yokota et al.): the injection model of every node, noth (= none), base, hyst, gt.a or gt.x,")
	p("# bare (parameters from the keys below) or with the papers' arguments, e.g. \"base(90,30)\", \"hyst(70,90,30)\",")
	p("# \"gt.x(16,70,90,30)\" (t_G in cycles, thresholds in percent)")
	p("injection = %q", d.Policy.Injection)
	p("r_th_percent = %v     # base: throttle while the mobility ratio R_a = N_a/N_v is below R_th", d.Policy.RthPercent)
	p("r_on_percent = %v     # hyst, gt.a, gt.x: throttling starts when R_a < R_ON ...", d.Policy.ROnPercent)
	p("r_off_percent = %v    # ... and ends when R_a > R_OFF", d.Policy.ROffPercent)
	p("r_n_percent = %v      # forced release while N_v < R_n x (number of routers)", d.Policy.RnPercent)
	p("guard_cycles = %d      # t_G: after each packet, wait t_G cycles (gt.x) or uniform 0..2 t_G (gt.a)", d.Policy.GuardCycles)
	p("circuit = %q      # measurement circuit: auto (grid on a torus or mesh, tree on a fat-tree), grid, tree", d.Policy.Circuit)
	p("circuit_lanes = %q  # dedicated wires, or steal: a register value crosses a link only in cycles it carries no flit", d.Policy.CircuitLanes)
	p("circuit_latency_cycles = %d  # per register hop", d.Policy.CircuitLatencyCycles)
	p("count_injection_buffers = %v  # count the injection ports' buffers in N_v and N_a", d.Policy.CountInjectionBuffers)
	p("measure_circuit = %v  # run the circuit under noth too, for its time series", d.Policy.MeasureCircuit)
	p("# SAT fairness (Izu and Vallejo): injection = \"sat(l,k,ring)\" or \"sat(l,k,tree)\" (also sat(l=12,k=16,ring)):")
	p("# a node starts at most k packets per interval of the SAT signal and, below l with packets ready, holds")
	p("# the signal; ring: the Hamiltonian virtual ring through the switches (fat-tree: node i -> i+1 via the")
	p("# nearest common ancestor; torus, even mesh: a Hamiltonian cycle of the routers), tree: the spanning tree")
	p("# whose switches concentrate the signal. The signal travels on dedicated control lanes, never on data lanes.")
	p("sat_l = %d           # injection = \"sat\" (bare): the starvation threshold l ...", d.Policy.SATL)
	p("sat_k = %d           # ... the quota k per interval (k >= l >= 1) ...", d.Policy.SATK)
	p("sat_structure = %q  # ... and ring or tree", d.Policy.SATStructure)
	p("sat_hop_latency_cycles = %d   # the signal's latency over one link", d.Policy.SATHopLatencyCycles)
	p("sat_node_latency_cycles = %d  # the least time a node holds the signal", d.Policy.SATNodeLatencyCycles)
	p("")
}

// writeMeasureTOML prints the [measure] table of DefaultTOML.
func writeMeasureTOML(p tomlPrinter, d Config) {
	p("[measure]")
	p("# steady processes: warm up, then measure packets generated in a window (method = \"window\"),")
	p("# or in batches of batch_cycles until the batch means of throughput and latency are stable")
	p("# (95%% half-width within tolerance of the mean; method = \"batches\"), or, as the fat-tree fairness")
	p("# paper, in packet_batches batches of batch_packets delivered packets each, reporting per batch and")
	p("# overall the average, minimum and maximum node throughput, Jain's index and the injection matrix")
	p("# (method = \"packet-batches\", usually with traffic.process = \"saturation\"); then drain the measured packets.")
	p("warmup_cycles = %d   # -1: the method's default, 10000 (window, batches) or 50000 (packet-batches)", d.Measure.WarmupCycles)
	p("measure_cycles = %d", d.Measure.MeasureCycles)
	p("method = %q", d.Measure.Method)
	p("batch_cycles = %d", d.Measure.BatchCycles)
	p("min_batches = %d", d.Measure.MinBatches)
	p("max_batches = %d", d.Measure.MaxBatches)
	p("tolerance = %v", d.Measure.Tolerance)
	p("batch_packets = %d     # packet-batches: delivered packets per batch; 0 = 10 x nodes^2", d.Measure.BatchPackets)
	p("packet_batches = %d    # packet-batches: number of batches", d.Measure.PacketBatches)
	p("drain_cycles = %d   # at most this many cycles after the window to deliver measured packets", d.Measure.DrainCycles)
	p("max_cycles = %d   # hard limit on simulated cycles", d.Measure.MaxCycles)
	p("sample_cycles = %d     # time-series period; 0 = no time series", d.Measure.SampleCycles)
	p("# stop, naming the blocked queues, when an input queue holds flits none of which left for this long:")
	p("# a deadlock of all or part of the network, or starvation (raise it for heavily oversubscribed hot spots); 0 = off")
	p("watchdog_cycles = %d", d.Measure.WatchdogCycles)
	p("# collective: stop, not completed, when no flit was injected or delivered for this long with packets left; 0 = off")
	p("stall_cycles = %d", d.Measure.StallCycles)
	p("# ramp process: the critical load is the offered load at the first sample where the accepted throughput,")
	p("# both as moving averages of smooth_samples samples, falls 10%% below the offered load")
	p("smooth_samples = %d", d.Measure.SmoothSamples)
	p("# per-link statistics over the window (a collective: the whole run): flits per cycle and busy share of every")
	p("# router output channel and of each VC, the share of cycles its ready flits waited for a credit, summarised per")
	p("# link class (grid direction, fat-tree level, dragonfly local/global, HyperX dimension) beside the routing's")
	p("# channel-load bound where the routing is deterministic; links/*.csv per run (VC router only)")
	p("link_stats = %v", d.Measure.LinkStats)
	p("# per-flow statistics of the measured packets (packets, flits per cycle, mean and largest latency per")
	p("# source-destination pair; flows/*.csv per run): every pair (networks of at most %d nodes) ...", MaxFlowStatsNodes)
	p("flow_stats = %v", d.Measure.FlowStats)
	p("flows = %q  # ... or only these pairs, \"SRC:DST\" separated by commas: \"0:63, 5:9\"", d.Measure.Flows)
	p("# after the run, where the transient of the packets in the system (in flight and queued at the sources) ends:")
	p("# mser-5 (MSER over batch means of 5 samples of the time series, up to the window's end); the result states it")
	p("# beside warmup_cycles; none: no check")
	p("warmup_detect = %q", d.Measure.WarmupDetect)
}

// StudyTOML documents the tables a study file adds to a configuration, as
// TOML commented out: "## " starts a line of prose, "# " a line of TOML.
// Removing "# " from the TOML lines (all of them) makes a valid study of
// the default configuration, 2 patterns x 3 burst sizes; every key but
// the examples' axes, metrics and published value shows its default.
func StudyTOML() string {
	f, err := ParseFile("(defaults)", nil)
	if err != nil {
		panic(err) // an empty file is the default configuration
	}
	st, pl := f.Study, f.Plot
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	// kv prints a key of TOML with its comment, more a further line of the
	// comment, aligned.
	kv := func(line, comment string) { p("# %-40s # %s", line, comment) }
	more := func(comment string) { p("##%41s %s", "", comment) }
	p("")
	p("## ==========================================================================================")
	p("## A study file is a configuration (above) plus the tables below, each optional: a file without")
	p("## [[axis]] is a study of one point. They are commented out; remove the \"# \" that starts a line of")
	p("## TOML to use it (\"## \" starts a comment). Uncommented together, they make a valid study of the")
	p("## configuration above: 2 patterns x 3 burst sizes, compared by collective duration.")
	p("")
	p("# [study]")
	kv(fmt.Sprintf("replicates = %d", st.Replicates), fmt.Sprintf("runs per point, 1..%d; at most %d runs (points x replicates) per study", MaxReplicates, MaxRuns))
	kv(fmt.Sprintf("seeds = %q", st.Seeds), "common: replicate r has the same seed at every point (replicate 0 the file's seed),")
	more("the usual choice for comparing policies or loads; per-point: a hash of seed, the")
	more("point's axis values and the replicate")
	p("")
	p("## An axis sweeps one key; repeat [[axis]] for more. Axes combine as a cartesian product, the first")
	p("## outermost, except axes with the same zip name, which advance together (equal lengths).")
	p("# [[axis]]")
	kv("key = \"traffic.pattern\"", "any configuration key above but name and seed, as table.key")
	kv("values = [\"tornado\", \"uniform\"]", "the values, each of the key's type")
	kv("zip = \"\"", "\"\": combine with the other axes; a name: advance with the axes of that name")
	p("")
	p("# [[axis]]")
	p("# key = \"traffic.packets_per_node\"")
	kv("range = { from = 10, to = 30, step = 10 }", "instead of values: from, from + step, ... up to to (within 1e-9)")
	p("")
	writePlotTOML(p, kv, more, pl)
	writeReduceTOML(p, kv, more)
	writeMetricsTOML(p)
	return b.String()
}

// writePlotTOML prints StudyTOML's [plot] table: kv a key with its comment,
// more a further line of comment.
func writePlotTOML(p tomlPrinter, kv func(line, comment string), more func(comment string), pl PlotSpec) {
	q := func(ss []string) string {
		var parts []string
		for _, s := range ss {
			parts = append(parts, fmt.Sprintf("%q", s))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	kv("[plot]", "the figures (plots/*.svg, *.png, *.pdf, *.csv) and the report index.html")
	kv(fmt.Sprintf("x = %q", pl.X), "the numeric axis on the x of the curves; \"\": the swept offered load")
	more(fmt.Sprintf("(%s)", strings.Join(loadKeys(), ", ")))
	kv(fmt.Sprintf("lines = %q", pl.Lines), "the axis with one line per value; \"\": the first other axis")
	kv(fmt.Sprintf("metrics = %s", q(pl.Metrics)), "the metrics of the curves; []: accepted_flits_per_node_cycle, latency_mean_cycles")
	kv(fmt.Sprintf("heatmap_x = %q", pl.HeatmapX), "heatmap_x and heatmap_y: two axes to draw heatmap_metric over; \"\": no heatmap")
	p("# heatmap_y = %q", pl.HeatmapY)
	kv(fmt.Sprintf("heatmap_metric = %q", pl.HeatmapMetric), "a metric, or speedup (with a [[reduce]] of kind speedup)")
	kv(fmt.Sprintf("max_lines = %d", pl.MaxLines), "per-point figures (time series, per-node throughput, latency CDF) for")
	more("studies of at most this many points, 0..1000 (0: none)")
	kv(fmt.Sprintf("formats = %s", q(pl.Formats)), "image files: svg, png, pdf (each figure also writes a CSV of its points)")
	kv(fmt.Sprintf("width_in = %v", pl.WidthIn), "a figure's print size in inches (1..40): 3.5 for a paper's column")
	p("# height_in = %v", pl.HeightIn)
	kv(fmt.Sprintf("font_pt = %v", pl.FontPt), "the axis labels' font size in points (4..36); titles 15% larger, ticks 10% smaller")
	kv(fmt.Sprintf("dpi = %d", pl.DPI), "the PNG files' resolution (50..1200)")
	kv(fmt.Sprintf("title = %v", pl.Title), "draw each figure's title; false: a paper's caption carries it")
	kv(fmt.Sprintf("latency_cut = %v", pl.LatencyCut), "with latency_axis = \"cut\": the cut as a multiple of the zero-load latency (>= 1); 0: none")
	kv(fmt.Sprintf("y_max = %v", pl.YMax), "with latency_axis = \"cut\", > 0: the cut at this value instead (in the metric's unit)")
	kv(fmt.Sprintf("latency_axis = %q", pl.LatencyAxis), "latency figures: log (the whole range on a log axis), cut (linear, cut at y_max")
	more("or at latency_cut x the zero-load latency, rounded to 1/2/5 x 10^n; points above marked with their value) or linear")
	kv(fmt.Sprintf("y_log = %v", pl.YLog), "true: latency figures on a log axis (as latency_axis = \"log\", the default, does)")
	kv(fmt.Sprintf("cdf = %q", pl.CDF), "latency distributions: log-x (share at or below, log latency axis), ccdf (share above, log-log), linear")
	kv(fmt.Sprintf("node_figures = %q", pl.NodeFigures), "per-node figures: topology (a heatmap over the grid on a torus or mesh, bars")
	more("by leaf switch on a fat-tree), line (over node ids) or both")
	kv(`node_scale = "auto"`, "per-node heatmaps' colour scale: auto (one for all panels unless a panel")
	more("spans less than a third of their range), shared, or panel (one each)")
	kv("labels = { \"traffic.long_volume_percent\" = \"P = {}%\", \"dor\" = \"DOR\" }", "display names in legends, panels and captions: a key's words,")
	more("a phrase with {} for a key's values, or a value's name; built in: routings, mechanisms and")
	more("processes by their papers' names (DOR, Hybrid-HAR, UGAL-L, RECN, ...), P = {}% for long_volume_percent")
	kv(fmt.Sprintf("paper_form = %q", pl.PaperForm), "the paper's own form too (plots/paper-*): izu-fig3, izu-fig4[:STUDY], izu-fig5, recn-fig1/2/3, har-fig6/9, entropy-table2")
	p("")
}

// writeReduceTOML prints StudyTOML's [[reduce]] and [[reference]] tables.
func writeReduceTOML(p tomlPrinter, kv func(line, comment string), more func(comment string)) {
	p("## A reduction summarises the points' replicate means in reduce-NAME.csv and summary.txt; repeat for more.")
	p("# [[reduce]]")
	kv("kind = \"speedup\"", "speedup (each point against its baseline point), geomean (geometric mean")
	more("over the axes of over), best (the best point of each group of by),")
	more("saturation (per line of a load sweep: metric at its saturation load)")
	kv("metric = \"collective_duration_cycles\"", "a result metric (below), or speedup (an earlier speedup's output)")
	kv("name = \"\"", "the table's name; \"\": kind-metric")
	kv("goal = \"\"", "min (smaller is better) or max; \"\": min for metrics named *_cycles, else max")
	kv("baseline = { \"traffic.pattern\" = \"tornado\" }", "speedup: the baseline's values on some axes (each point keeps")
	more("its own values on the others)")
	kv("over = []", "geomean, best: axes to take the geometric mean over first")
	kv("by = []", "best: axes that group the points")
	p("")
	p("## A published value the study reproduces: drawn beside ours on its metric's figures and listed with the")
	p("## relative difference in reference.csv and summary.txt; repeat for more.")
	p("# [[reference]]")
	kv("source = \"Author et al., Table 2\"", "the paper, then its table, figure or section (required)")
	kv("metric = \"collective_duration_cycles\"", "a result metric (below; required)")
	kv("value = 1700.0", "the published value, in the metric's unit (required, finite)")
	kv("at = { \"traffic.pattern\" = \"tornado\", \"traffic.packets_per_node\" = 10 }", "axis values selecting one point")
	kv("note = \"\"", "how the paper's setting maps onto the point: conversions, caveats")
	kv("reduce = \"\"", "the name of a [[reduce]] of kind saturation when the value is a line's")
	more("saturation throughput (at then gives every axis but the offered load)")
	p("")
}

// writeMetricsTOML prints the result metrics, wrapped at 100 columns.
func writeMetricsTOML(p tomlPrinter) {
	p("## Result metrics (plot.metrics, plot.heatmap_metric, reduce.metric, reference.metric), in results.csv:")
	line := "##  "
	for i, m := range report.MetricNames() {
		sep := ","
		if i == len(report.MetricNames())-1 {
			sep = ""
		}
		if len(line)+1+len(m)+len(sep) > 100 {
			p("%s", line)
			line = "##  "
		}
		line += " " + m + sep
	}
	p("%s", line)
}
