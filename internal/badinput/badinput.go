// Package badinput holds the tables of malformed configurations, studies
// and command lines that icnsim must reject with one clear error (the
// command's tests) and that seed the fuzzers of the loaders (study).
// Test data only: nothing outside tests imports it.
package badinput

// Config is a malformed configuration file: TOML is the whole file, and
// every string of Want must appear in the error.
type Config struct {
	Name, TOML string
	Want       []string
}

// Study is a malformed study: TOML is appended to StudyBase, Args are extra
// flags of icnsim run, Env its extra environment, and every string of Want
// must appear in the error.
type Study struct {
	Name, TOML string
	Args       []string
	Env        []string
	Want       []string
}

// StudyBase is a small valid study; the cases of Studies append to it.
const StudyBase = `name = "bad"
[network]
topology = "mesh"
k = 4
[router]
routing = "dor"
vcs = 2
[traffic]
process = "bernoulli"
[measure]
warmup_cycles = 100
measure_cycles = 100
`

// Configs are the malformed configuration files.
var Configs = []Config{
	{"unknown top-level key", "colour = \"red\"\n", []string{":1:", "colour", "unknown key", "allowed here"}},
	{"unknown nested key", "[router]\nvc = 3\n", []string{":2:", "router.vc", "allowed here", "vcs"}},
	{"unknown table", "[routr]\nvcs = 3\n", []string{":1:", "routr", "unknown key", `did you mean "router"`}},
	{"wrong type", "[router]\nvcs = \"three\"\n", []string{":2:", `router.vcs = "three"`, "wrong type: a string where an integer is needed"}},
	{"syntax error", "[router\nvcs = 3\n", []string{":2:", "to end table name"}},
	{"negative k", "[network]\nk = -4\n", []string{":2:", "network.k = -4", "2..1024"}},
	{"unknown topology", "[network]\ntopology = \"ring\"\n", []string{"network.topology = \"ring\"", "torus, mesh"}},
	{"concentration on a torus", "[network]\nconcentration = 4\n", []string{"network.concentration = 4", "meshes"}},
	{"unknown routing", "[router]\nrouting = \"xy\"\n", []string{"router.routing = \"xy\"", "dor, dor-2class, dor-dateline"}},
	{"routing on wrong topology", "[network]\ntopology = \"mesh\"\n", []string{"router.routing = \"dor-dateline\"", "for a mesh use dor"}},
	{"too few VCs", "[router]\nvcs = 2\n", []string{":2:", "router.vcs = 2", "at least 3", "channel dependency cycle", " -> "}},
	{"dor on a torus", "[router]\nrouting = \"dor\"\nvcs = 1\n", []string{"router.vcs = 1", "can deadlock", "R(0,0).E vc0 -> R(1,0).E vc0", "allow_deadlock"}},
	{"too many VCs", "[router]\nvcs = 65\n", []string{"router.vcs = 65", "1..64"}},
	{"vct buffer smaller than packet", "[router]\nbuffer_flits = 4\n", []string{"router.buffer_flits = 4", "at least 8 flits, the largest packet"}},
	{"unknown switching", "[router]\nswitching = \"saf\"\n", []string{"router.switching = \"saf\"", "vct, wormhole"}},
	{"zero link latency", "[router]\nlink_latency_cycles = 0\n", []string{"router.link_latency_cycles = 0", "1..1000"}},
	{"load above one", "[traffic]\nprocess = \"bernoulli\"\nload_flits_per_node_cycle = 1.5\n", []string{":3:", "traffic.load_flits_per_node_cycle = 1.5", "<= 1"}},
	{"unknown pattern", "[traffic]\npattern = \"tornadoes\"\n", []string{"traffic.pattern = \"tornadoes\"", "uniform"}},
	{"bit pattern on non-power-of-two", "[network]\nk = 6\n[traffic]\npattern = \"bit-reverse\"\n", []string{"traffic.pattern = \"bit-reverse\"", "36 nodes"}},
	{"unknown process", "[traffic]\nprocess = \"burst\"\n", []string{"traffic.process = \"burst\"", "collective"}},
	{"hotspot fraction", "[traffic]\nhotspot_fraction = 2.0\n", []string{"traffic.hotspot_fraction = 2", "0..1"}},
	{"load of bisection negative", "[traffic]\nprocess = \"bernoulli\"\nload_of_bisection = -1\n", []string{"traffic.load_of_bisection = -1", "> 0"}},
	{"load of bisection too high", "[traffic]\nprocess = \"bernoulli\"\nload_of_bisection = 5\n", []string{"traffic.load_of_bisection = 5", "at most 4"}},
	{"load of bisection and wire capacity", "[traffic]\nprocess = \"bernoulli\"\nload_of_bisection = 0.5\nload_of_wire_capacity = 0.5\n", []string{"traffic.load_of_bisection = 0.5", "one key only"}},
	{"unknown router kind", "[router]\nkind = \"crossbar\"\n", []string{":2:", "router.kind = \"crossbar\"", "vc", "ioq"}},
	{"unknown queue organisation", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"voq\"\n", []string{"router.queues = \"voq\"", "1q, recn, voq-net, voq-sw"}},
	{"ioq memory not whole flits", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nport_memory_bytes = 1001\n", []string{"router.port_memory_bytes = 1001", "whole number of flits"}},
	{"voq-net share below a packet", "[network]\ntopology = \"mesh\"\nk = 16\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"voq-net\"\nport_memory_bytes = 8192\n", []string{"router.port_memory_bytes = 8192", "256 queues of 4 flits", "whole packet"}},
	{"ioq on a fat-tree", "[network]\ntopology = \"fattree\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\n", []string{"network.topology = \"fattree\"", "meshes"}},
	{"ioq on a torus", "[network]\ntopology = \"torus\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\n", []string{"router.kind = \"ioq\"", "can deadlock", "allow_deadlock"}},
	{"ioq with adaptive routing", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"min-adaptive\"\n", []string{"router.routing = \"min-adaptive\"", "allowed: dor"}},
	{"ioq with VCs", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nvcs = 4\n", []string{"router.vcs = 4", "router.kind = \"vc\" only"}},
	{"ioq with entropy throttling", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\n[policy]\ninjection = \"base\"\n", []string{"policy.injection = \"base\"", "router.kind = \"vc\" only"}},
	{"queues on the VC router", "[router]\nqueues = \"voq-sw\"\n", []string{"router.queues = \"voq-sw\"", "ioq"}},
	{"recn xon above xoff", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n[router.recn]\nxon_fraction = 0.02\n", []string{"router.recn.xon_fraction = 0.02", "below the Xoff threshold"}},
	{"recn xoff below detection", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n[router.recn]\ndetect_fraction = 0.05\n", []string{"router.recn.xoff_fraction = 0.01", "below the detection threshold"}},
	{"recn threshold under a flit", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n[router.recn]\ndetect_fraction = 0.00001\n", []string{"router.recn.detect_fraction = 1e-05", "0 flits", "whole flits"}},
	{"recn no SAQs", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n[router.recn]\nsaqs = 0\n", []string{"router.recn.saqs = 0", "allowed: 1..59", "4 + network.concentration"}},
	{"recn too many queues", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n[router.recn]\nsaqs = 64\n", []string{"router.recn.saqs = 64", "allowed: 1..59", "at most 64 queues"}},
	{"recn control lanes", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n[router.recn]\ncontrol_lanes = \"steal\"\n", []string{"router.recn.control_lanes = \"steal\"", "shared", "dedicated"}},
	{"recn xoff scope", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n[router.recn]\nxoff_scope = \"all\"\n", []string{"router.recn.xoff_scope = \"all\"", "children", "feeders"}},
	{"recn negative idle time", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n[router.recn]\nidle_cycles = -5\n", []string{"router.recn.idle_cycles = -5", "0 (never"}},
	{"recn keys without recn", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"voq-sw\"\n[router.recn]\nsaqs = 4\n", []string{"router.recn.saqs = 4", "router.queues = \"recn\" only"}},
	{"recn on a torus", "[network]\ntopology = \"torus\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\nallow_deadlock = true\n", []string{"router.queues = \"recn\"", "mesh"}},
	{"recn on a 128x128 mesh", "[network]\ntopology = \"mesh\"\nk = 128\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nqueues = \"recn\"\n", []string{"network.k = 128", "<= 127"}},
	{"zero link rate", "[network]\ntopology = \"mesh\"\nk = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nlink_gbps = 0.0\n", []string{"router.link_gbps = 0", "0.001..1e6"}},
	{"unknown har free rule", "[network]\ntopology = \"mesh\"\nk = 4\nnode_channels = 2\n[router]\nrouting = \"hybrid-har\"\nvcs = 4\nswitching = \"wormhole\"\n[router.har]\nfree = \"empty\"\n", []string{":10:", "router.har.free = \"empty\"", "tail-sent, upper-empty, all-empty"}},
	{"har free rule without har", "[router.har]\nfree = \"upper-empty\"\n", []string{":2:", "router.har.free = \"upper-empty\"", "hybrid-har", "har-dor"}},
	{"hotspot source fraction", "[traffic]\nhotspot_source_fraction = 1.5\n", []string{"traffic.hotspot_source_fraction = 1.5", "0..1"}},
	{"bad phase pattern", "[traffic]\nphase_cycle = 100\nphase_pattern = \"nope\"\n", []string{"traffic.phase_pattern = \"nope\""}},
	{"unknown injection gate", "[policy]\ninjection = \"entropy\"\n", []string{":2:", "policy.injection = \"entropy\"", "none"}},
	{"unknown method", "[measure]\nmethod = \"auto\"\n", []string{"measure.method = \"auto\"", "window, batches"}},
	{"watchdog below the pipeline", "[measure]\nwatchdog_cycles = 50\n", []string{":2:", "measure.watchdog_cycles = 50", ">= 110"}},
	{"zero measure cycles", "[measure]\nmeasure_cycles = 0\n", []string{"measure.measure_cycles = 0", ">= 1"}},
}

// Studies are the malformed studies.
var Studies = []Study{
	{"unknown axis key", "[[axis]]\nkey = \"router.vc\"\nvalues = [2]\n", nil, nil, []string{":14:", "axis[0].key = \"router.vc\"", "not a configuration key", "router.vcs"}},
	{"empty axis", "[[axis]]\nkey = \"router.vcs\"\nvalues = []\n", nil, nil, []string{"axis[0].values", "at least one value"}},
	{"axis without values", "[[axis]]\nkey = \"router.vcs\"\n", nil, nil, []string{"axis[0].values", "at least one value"}},
	{"wrong value type", "[[axis]]\nkey = \"router.vcs\"\nvalues = [2, \"three\"]\n", nil, nil, []string{":14:", "axis[0].values = \"three\"", "router.vcs", "wrong type", "integer"}},
	{"values not a list", "[[axis]]\nkey = \"traffic.pattern\"\nvalues = \"uniform\"\n", nil, nil, []string{":15:", "axis.values = \"uniform\": wrong type: a string where an array"}},
	{"negative load", "[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nvalues = [0.1, -0.2]\n", nil, nil, []string{":14:", "traffic.load_flits_per_node_cycle = -0.2", "> 0 and <= 1"}},
	{"load range beyond one", "[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nrange = {from = 0.5, to = 1.5, step = 0.5}\n", nil, nil, []string{"traffic.load_flits_per_node_cycle = 1.5", "<= 1"}},
	{"zip of unequal lengths", "[[axis]]\nkey = \"router.vcs\"\nvalues = [2, 4]\nzip = \"a\"\n[[axis]]\nkey = \"router.buffer_flits\"\nvalues = [8, 16, 32]\nzip = \"a\"\n", nil, nil, []string{":18:", "axis[1].zip = \"a\"", "equal lengths", "router.vcs has 2", "router.buffer_flits has 3"}},
	{"zero step", "[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nrange = {from = 0.1, to = 0.5, step = 0}\n", nil, nil, []string{"axis[0].range", "step > 0"}},
	{"range backwards", "[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nrange = {from = 0.5, to = 0.1, step = 0.1}\n", nil, nil, []string{"axis[0].range", "from <= to"}},
	{"fractional range on an integer key", "[[axis]]\nkey = \"router.vcs\"\nrange = {from = 2, to = 3, step = 0.5}\n", nil, nil, []string{"axis[0].range", "integers; 2.5"}},
	{"values and range", "[[axis]]\nkey = \"router.vcs\"\nvalues = [2]\nrange = {from = 2, to = 4, step = 1}\n", nil, nil, []string{"axis[0]", "values or range, not both"}},
	{"duplicate axis", "[[axis]]\nkey = \"router.vcs\"\nvalues = [2]\n[[axis]]\nkey = \"router.vcs\"\nvalues = [4]\n", nil, nil, []string{":17:", "axis[1].key = \"router.vcs\"", "already swept by axis[0]"}},
	{"seed as an axis", "[[axis]]\nkey = \"seed\"\nvalues = [1, 2]\n", nil, nil, []string{"axis[0].key = \"seed\"", "study.replicates"}},
	{"unknown study key", "[study]\nreplicate = 3\n", nil, nil, []string{":14:", "study.replicate", "unknown key", "replicates, seeds"}},
	{"zero replicates", "[study]\nreplicates = 0\n", nil, nil, []string{":14:", "study.replicates = 0", "1..1000"}},
	{"unknown seeds mode", "[study]\nseeds = \"random\"\n", nil, nil, []string{"study.seeds = \"random\"", "per-point"}},
	{"plot x not an axis", "[plot]\nx = \"router.vcs\"\n", nil, nil, []string{":14:", "plot.x = \"router.vcs\"", "swept axis", "no axes"}},
	{"unknown plot format", "[plot]\nformats = [\"pdf\"]\n", nil, nil, []string{"plot.formats = \"pdf\"", "png", "svg"}},
	{"unknown reduction", "[[reduce]]\nkind = \"median\"\nmetric = \"latency_mean_cycles\"\n", nil, nil, []string{":14:", "reduce[0].kind = \"median\"", "speedup, geomean, best"}},
	{"unknown metric", "[[axis]]\nkey = \"router.vcs\"\nvalues = [2, 4]\n[[reduce]]\nkind = \"best\"\nmetric = \"latency\"\n", nil, nil, []string{"reduce[0].metric = \"latency\"", "latency_mean_cycles"}},
	{"baseline not on the axis", "[[axis]]\nkey = \"router.vcs\"\nvalues = [2, 4]\n[[reduce]]\nkind = \"speedup\"\nmetric = \"latency_mean_cycles\"\nbaseline = { \"router.vcs\" = 3 }\n", nil, nil, []string{`reduce[0].baseline = "router.vcs = 3"`, "one of the axis's values"}},
	{"bad combination at one point", "[[axis]]\nkey = \"network.k\"\nvalues = [4, 6]\n[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"bit-reverse\"]\n", nil, nil, []string{":17:", "traffic.pattern = \"bit-reverse\"", "power-of-two node count; this network has 36 nodes"}},
	{"deadlock at one point", "[[axis]]\nkey = \"router.vcs\"\nvalues = [2, 1]\n[[axis]]\nkey = \"network.topology\"\nvalues = [\"mesh\", \"torus\"]\n", nil, nil, []string{":14:", "axis[0] router.vcs = 1", `routing "dor" with 1 VCs on the 4x4 torus can deadlock`, "R(0,0).E vc0 -> R(1,0).E vc0"}},
	{"shard 4/3", "[[axis]]\nkey = \"router.vcs\"\nvalues = [2, 4]\n", []string{"--shard", "4/3"}, nil, []string{"--shard = \"4/3\"", "1 <= i <= n"}},
	{"slurm task beyond count", "[[axis]]\nkey = \"router.vcs\"\nvalues = [2, 4]\n", []string{"--shard", "slurm"}, []string{"SLURM_ARRAY_TASK_ID=5", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=1"}, []string{"SLURM_ARRAY_TASK_ID = \"5\"", "MIN <= ID < MIN+COUNT"}},
	{"slurm shard outside an array", "[[axis]]\nkey = \"router.vcs\"\nvalues = [2, 4]\n", []string{"--shard", "slurm"}, nil, []string{"--shard slurm", "not set"}},
	{"not-a-number load", "[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nvalues = [0.1, nan]\n", nil, nil, []string{":14:", "axis[0].values = NaN", "finite"}},
	{"repeated value", "[[axis]]\nkey = \"router.vcs\"\nvalues = [2, 4, 2]\n", nil, nil, []string{"axis[0].values = 2", "value 2 repeats value 0"}},
	{"repeated zipped combination", "[[axis]]\nkey = \"router.vcs\"\nvalues = [2, 4, 2]\nzip = \"z\"\n[[axis]]\nkey = \"router.buffer_flits\"\nvalues = [8, 16, 8]\nzip = \"z\"\n", nil, nil, []string{"axis[0].values = \"2 8\"", "value 2 repeats value 0 in every zipped axis"}},
	{"best by and over the same axis", "[[axis]]\nkey = \"router.vcs\"\nvalues = [2, 4]\n[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"transpose\"]\n[[reduce]]\nkind = \"best\"\nmetric = \"latency_mean_cycles\"\nover = [\"traffic.pattern\"]\nby = [\"traffic.pattern\"]\n", nil, nil, []string{"reduce[0].by = \"traffic.pattern\"", "both grouped by"}},
	{"baseline unreachable through a zip", "[[axis]]\nkey = \"router.vcs\"\nvalues = [2, 4]\nzip = \"z\"\n[[axis]]\nkey = \"router.buffer_flits\"\nvalues = [8, 16]\nzip = \"z\"\n[[reduce]]\nkind = \"speedup\"\nmetric = \"latency_mean_cycles\"\nbaseline = { \"router.vcs\" = 2 }\n", nil, nil, []string{"reduce[0].baseline", "has no baseline point"}},
	{"curves over a categorical axis", "[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"transpose\"]\n[plot]\nx = \"traffic.pattern\"\n", nil, nil, []string{"plot.x = \"traffic.pattern\"", "numeric axis"}},
	{"max cycles below the window", "max_cycles = 150\n", nil, nil, []string{"measure.max_cycles = 150", ">= warmup_cycles + measure_cycles = 200"}},
	{"type errors all at once", "[study]\nreplicates = \"three\"\nseeds = 5\n", nil, nil, []string{":14:", "study.replicates = \"three\": wrong type: a string where an integer is needed", ":15:", "study.seeds = 5: wrong type: an integer where a string is needed"}},
	{"one base problem reported once", "tolerance = 2.0\n[[axis]]\nkey = \"router.vcs\"\nvalues = [2, 3, 4]\n", nil, nil, []string{":13:", "measure.tolerance = 2"}},
	{"two problems at once", "[study]\nreplicates = -1\n[[axis]]\nkey = \"router.vcs\"\nvalues = []\n", nil, nil, []string{"study.replicates = -1", "axis[0].values"}},
}
