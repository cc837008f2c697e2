// Package badinput holds the tables of malformed configurations, studies
// and command lines that icnsim must reject with one clear error (the
// command's tests) and that seed the fuzzers of the loaders (study).
// Test data only: nothing outside tests imports it.
package badinput

import "strings"

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
mesh.k = 4
[router]
routing = "dor"
vc.vcs = 2
[traffic]
process = "bernoulli"
[measure]
warmup_cycles = 100
measure_cycles = 100
`

// Configs are the malformed configuration files.
func Configs() []Config {
	return []Config{
		{"unknown top-level key", "colour = \"red\"\n", []string{":1:", "colour", "unknown key", "allowed here"}},
		{"unknown nested key", "[router.vc]\nvcz = 3\n", []string{":2:", "router.vc.vcz", "allowed here", "vcs"}},
		{"unknown table", "[routr]\nvcs = 3\n", []string{":1:", "routr", "unknown key", `did you mean "router"`}},
		{"wrong type", "[router]\nvc.vcs = \"three\"\n", []string{":2:", `router.vc.vcs = "three"`, "wrong type: a string where an integer is needed"}},
		{"syntax error", "[router\nvc.vcs = 3\n", []string{":2:", "to end table name"}},
		{"negative k", "[network]\ntorus.k = -4\n", []string{":2:", "network.torus.k = -4", "2..1024"}},
		{"unknown topology", "[network]\ntopology = \"ring\"\n", []string{"network.topology = \"ring\"", "torus, mesh"}},
		{"concentration on a torus", "[network]\nconcentration = 4\n", []string{"network.concentration", "moved", "network.mesh.concentration", `network.topology = "torus" has no concentration`}},
		{"unknown routing", "[router]\nrouting = \"xy\"\n", []string{"router.routing = \"xy\"", "dor, dor-2class, dor-dateline"}},
		{"routing on wrong topology", "[network]\ntopology = \"mesh\"\n", []string{"router.routing = \"dor-dateline\"", "for a mesh use dor"}},
		{"too few VCs", "[router]\nvc.vcs = 2\n", []string{":2:", "router.vc.vcs = 2", "at least 3", "channel dependency cycle", " -> "}},
		{"dor on a torus", "[router]\nrouting = \"dor\"\nvc.vcs = 1\n", []string{"router.vc.vcs = 1", "can deadlock", "R(0,0).E vc0 -> R(1,0).E vc0", "allow_deadlock"}},
		{"too many VCs", "[router]\nvc.vcs = 65\n", []string{"router.vc.vcs = 65", "1..64"}},
		{"vct buffer smaller than packet", "[router]\nvc.buffer_flits = 4\n", []string{"router.vc.buffer_flits = 4", "at least 8 flits, the largest packet"}},
		{"unknown switching", "[router]\nvc.switching = \"saf\"\n", []string{"router.vc.switching = \"saf\"", "vct, wormhole"}},
		{"zero link latency", "[router]\nlink_latency_cycles = 0\n", []string{"router.link_latency_cycles = 0", "1..1000"}},
		{"load above one", "[traffic]\nprocess = \"bernoulli\"\nload_flits_per_node_cycle = 1.5\n", []string{":3:", "traffic.load_flits_per_node_cycle = 1.5", "<= 1"}},
		{"unknown pattern", "[traffic]\npattern = \"tornadoes\"\n", []string{"traffic.pattern = \"tornadoes\"", "uniform"}},
		{"bit pattern on non-power-of-two", "[network]\ntorus.k = 6\n[traffic]\npattern = \"bit-reverse\"\n", []string{"traffic.pattern = \"bit-reverse\"", "36 nodes"}},
		{"unknown process", "[traffic]\nprocess = \"burst\"\n", []string{"traffic.process = \"burst\"", "collective"}},
		{"hotspot fraction", "[traffic]\nhotspot_fraction = 2.0\n", []string{"traffic.hotspot_fraction = 2", "0..1"}},
		{"load of bisection negative", "[traffic]\nprocess = \"bernoulli\"\nload_of_bisection = -1\n", []string{"traffic.load_of_bisection = -1", "> 0"}},
		{"load of bisection too high", "[traffic]\nprocess = \"bernoulli\"\nload_of_bisection = 5\n", []string{"traffic.load_of_bisection = 5", "at most 4"}},
		{"load of bisection and wire capacity", "[traffic]\nprocess = \"bernoulli\"\nload_of_bisection = 0.5\nload_of_wire_capacity = 0.5\n", []string{"traffic.load_of_bisection = 0.5", "one key only"}},
		{"mix ranks above the nodes", "[network]\ntorus.k = 4\n[traffic]\nprocess = \"job\"\n[workload]\nranks = 10\n[[workload.also]]\nranks = 8\n", []string{"workload.also[0].ranks = 8", "add up to 18, more than the network's 16 nodes"}},
		{"mix job with a bad motif", "[network]\ntorus.k = 4\n[traffic]\nprocess = \"job\"\n[workload]\nranks = 8\n[[workload.also]]\nmotif = \"broadcast-binomal\"\n", []string{`workload.also[0].motif = "broadcast-binomal"`, `did you mean "broadcast-binomial"`}},
		{"background load above one", "[traffic]\nprocess = \"job\"\n[workload]\nranks = 8\nbackground_load = 1.5\n", []string{":5:", "workload.background_load = 1.5", "up to 1 flit/node/cycle"}},
		{"on-off peak above one", "[traffic]\nprocess = \"on-off\"\nload_flits_per_node_cycle = 0.5\non_cycles = 100\noff_cycles = 300\n", []string{":3:", "traffic.load_flits_per_node_cycle = 0.5", "peak load", "= 2", "at most 0.25"}},
		{"on-off period infinite", "[traffic]\nprocess = \"on-off\"\non_cycles = inf\n", []string{":3:", "traffic.on_cycles = +Inf", "allowed: 1.."}},
		{"on-off period below a cycle", "[traffic]\nprocess = \"on-off\"\non_cycles = 0.5\n", []string{":3:", "traffic.on_cycles = 0.5", "allowed: 1.."}},
		{"request-reply with no outstanding request", "[traffic]\nprocess = \"request-reply\"\nmax_outstanding = 0\n", []string{":3:", "traffic.max_outstanding = 0", "allowed: 1..", "0 would never send"}},
		{"request-reply request of no flits", "[traffic]\nprocess = \"request-reply\"\nrequest_flits = 0\n", []string{":3:", "traffic.request_flits = 0", "allowed: 1..65535"}},
		{"request-reply negative reply", "[traffic]\nprocess = \"request-reply\"\nreply_flits = -4\n", []string{":3:", "traffic.reply_flits = -4", "allowed: 1..65535"}},
		{"request-reply negative service", "[traffic]\nprocess = \"request-reply\"\nservice_cycles = -1\n", []string{":3:", "traffic.service_cycles = -1", "allowed: 0.."}},
		{"request-reply server holding nothing", "[traffic]\nprocess = \"request-reply\"\nserver_queue_packets = 0\n", []string{":3:", "traffic.server_queue_packets = 0", "allowed: 1.."}},
		{"request-reply three virtual networks", "[traffic]\nprocess = \"request-reply\"\nvirtual_networks = 3\n", []string{":3:", "traffic.virtual_networks = 3", "allowed: 2", "or 1"}},
		{"request-reply odd VCs", "[router.vc]\nvcs = 3\n[traffic]\nprocess = \"request-reply\"\n", []string{":2:", "router.vc.vcs = 3", "virtual_networks = 2 splits the VCs evenly"}},
		{"request-reply sharing VCs", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nrouting = \"dor\"\n[traffic]\nprocess = \"request-reply\"\nvirtual_networks = 1\n", []string{":8:", "traffic.virtual_networks = 1", "message-dependent deadlock", "use 2 virtual networks"}},
		{"request-reply on the ioq switch", "[router]\nkind = \"ioq\"\n[traffic]\nprocess = \"request-reply\"\n", []string{"traffic.process = \"request-reply\"", "runs on the VC router"}},
		{"unknown motif", "[traffic]\nprocess = \"job\"\n[workload]\nmotif = \"allreduce-rings\"\n", []string{":4:", `workload.motif = "allreduce-rings"`, "allreduce-ring", `did you mean "allreduce-ring"`}},
		{"more ranks than nodes", "[network]\ntorus.k = 4\n[traffic]\nprocess = \"job\"\n[workload]\nranks = 17\n", []string{":6:", "workload.ranks = 17", "1..16", "one rank per node"}},
		{"negative ranks", "[traffic]\nprocess = \"job\"\n[workload]\nranks = -2\n", []string{"workload.ranks = -2", "0 (every node)"}},
		{"zero message size", "[traffic]\nprocess = \"job\"\n[workload]\nmessage_flits = 0\n", []string{":4:", "workload.message_flits = 0", ">= 1 flits"}},
		{"negative message bytes", "[traffic]\nprocess = \"job\"\n[workload]\nmessage_bytes = -64\n", []string{"workload.message_bytes = -64", ">= 1 bytes"}},
		{"zero iterations", "[traffic]\nprocess = \"job\"\n[workload]\niterations = 0\n", []string{"workload.iterations = 0", ">= 1"}},
		{"contiguous placement past the last node", "[network]\ntorus.k = 4\n[traffic]\nprocess = \"job\"\n[workload]\nranks = 8\nfirst_node = 12\n", []string{"workload.first_node = 12", "0..8", "8 ranks from it on 16 nodes"}},
		{"placement list outside the network", "[network]\ntorus.k = 4\n[traffic]\nprocess = \"job\"\n[workload]\nranks = 2\nplacement = \"list\"\nnodes = [3, 16]\n", []string{"workload.nodes[1] = 16", "0..15"}},
		{"placement list with a node twice", "[network]\ntorus.k = 4\n[traffic]\nprocess = \"job\"\n[workload]\nranks = 2\nplacement = \"list\"\nnodes = [3, 3]\n", []string{"workload.nodes[1] = 3", "already holds rank 0"}},
		{"unknown placement", "[traffic]\nprocess = \"job\"\n[workload]\nplacement = \"packed\"\n", []string{`workload.placement = "packed"`, "contiguous, random, spread, list"}},
		{"recursive doubling on 12 ranks", "[traffic]\nprocess = \"job\"\n[workload]\nmotif = \"allreduce-recursive-doubling\"\nranks = 12\n", []string{"workload.ranks = 12", "power of two"}},
		{"halo grid of the wrong size", "[traffic]\nprocess = \"job\"\n[workload]\nmotif = \"halo-2d\"\nranks = 16\ngrid = [4, 5]\n", []string{"workload.grid = [4, 5]", "holds 20 ranks, the job has 16"}},
		{"broadcast root outside the job", "[traffic]\nprocess = \"job\"\n[workload]\nmotif = \"broadcast-binomial\"\nranks = 8\nroot = 8\n", []string{"workload.root = 8", "0..7"}},
		{"unknown router kind", "[router]\nkind = \"crossbar\"\n", []string{":2:", "router.kind = \"crossbar\"", "vc", "ioq"}},
		{"unknown queue organisation", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"voq\"\n", []string{"router.ioq.queues = \"voq\"", "1q, recn, voq-net, voq-sw"}},
		{"ioq memory not whole flits", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.port_memory_bytes = 1001\n", []string{"router.ioq.port_memory_bytes = 1001", "whole number of flits"}},
		{"voq-net share below a packet", "[network]\ntopology = \"mesh\"\nmesh.k = 16\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"voq-net\"\nioq.port_memory_bytes = 8192\n", []string{"router.ioq.port_memory_bytes = 8192", "256 queues of 4 flits", "whole packet"}},
		{"ioq on a fat-tree", "[network]\ntopology = \"fattree\"\nfattree.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\n", []string{"network.topology = \"fattree\"", "meshes"}},
		{"ioq on a torus", "[network]\ntopology = \"torus\"\ntorus.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\n", []string{"router.kind = \"ioq\"", "can deadlock", "allow_deadlock"}},
		{"ioq with adaptive routing", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"min-adaptive\"\n", []string{"router.routing = \"min-adaptive\"", "allowed: dor"}},
		{"ioq with VCs", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nvc.vcs = 4\n", []string{"router.vc", `the table of router.kind = "vc", which nothing here selects (router.kind: ioq)`}},
		{"ioq with entropy throttling", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\n[policy]\ninjection = \"base\"\n", []string{"policy.injection = \"base\"", "router.kind = \"vc\" only"}},
		{"queues on the VC router", "[router]\nioq.queues = \"voq-sw\"\n", []string{":2:", "router.ioq", `the table of router.kind = "ioq", which nothing here selects (router.kind: vc)`}},
		{"recn xon above xoff", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"recn\"\n[router.ioq.recn]\nxon_fraction = 0.02\n", []string{"router.ioq.recn.xon_fraction = 0.02", "below the Xoff threshold"}},
		{"recn xoff below detection", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"recn\"\n[router.ioq.recn]\ndetect_fraction = 0.05\n", []string{"router.ioq.recn.xoff_fraction = 0.01", "below the detection threshold"}},
		{"recn threshold under a flit", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"recn\"\n[router.ioq.recn]\ndetect_fraction = 0.00001\n", []string{"router.ioq.recn.detect_fraction = 1e-05", "0 flits", "whole flits"}},
		{"recn no SAQs", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"recn\"\n[router.ioq.recn]\nsaqs = 0\n", []string{"router.ioq.recn.saqs = 0", "allowed: 1..59", "4 + network.mesh.concentration"}},
		{"recn too many queues", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"recn\"\n[router.ioq.recn]\nsaqs = 64\n", []string{"router.ioq.recn.saqs = 64", "allowed: 1..59", "at most 64 queues"}},
		{"recn control lanes", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"recn\"\n[router.ioq.recn]\ncontrol_lanes = \"steal\"\n", []string{"router.ioq.recn.control_lanes = \"steal\"", "shared", "dedicated"}},
		{"recn xoff scope", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"recn\"\n[router.ioq.recn]\nxoff_scope = \"all\"\n", []string{"router.ioq.recn.xoff_scope = \"all\"", "children", "feeders"}},
		{"recn negative idle time", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"recn\"\n[router.ioq.recn]\nidle_cycles = -5\n", []string{"router.ioq.recn.idle_cycles = -5", "0 (never"}},
		{"recn keys without recn", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"voq-sw\"\n[router.ioq.recn]\nsaqs = 4\n", []string{"router.ioq.recn.saqs = 4", "router.ioq.queues = \"recn\" only"}},
		{"recn on a torus", "[network]\ntopology = \"torus\"\ntorus.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"recn\"\nallow_deadlock = true\n", []string{"router.ioq.queues = \"recn\"", "mesh"}},
		{"recn on a 128x128 mesh", "[network]\ntopology = \"mesh\"\nmesh.k = 128\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"recn\"\n", []string{"network.mesh.k = 128", "<= 127"}},
		{"zero link rate", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.link_gbps = 0.0\n", []string{"router.ioq.link_gbps = 0", "0.001..1e6"}},
		{"unknown har free rule", "[network]\ntopology = \"mesh\"\nmesh.k = 4\nmesh.node_channels = 2\n[router]\nrouting = \"hybrid-har\"\nvc.vcs = 4\nvc.switching = \"wormhole\"\n[router.har]\nfree = \"empty\"\n", []string{":10:", "router.har.free = \"empty\"", "tail-sent, upper-empty, all-empty"}},
		{"har free rule without har", "[router.har]\nfree = \"upper-empty\"\n", []string{":2:", "router.har.free = \"upper-empty\"", "hybrid-har", "har-dor"}},
		{"hotspot source fraction", "[traffic]\nhotspot_source_fraction = 1.5\n", []string{"traffic.hotspot_source_fraction = 1.5", "0..1"}},
		{"bad phase pattern", "[traffic]\nphase_cycle = 100\nphase_pattern = \"nope\"\n", []string{"traffic.phase_pattern = \"nope\""}},
		{"unknown injection gate", "[policy]\ninjection = \"entropy\"\n", []string{":2:", "policy.injection = \"entropy\"", "none"}},
		{"unknown method", "[measure]\nmethod = \"auto\"\n", []string{"measure.method = \"auto\"", "window, batches"}},
		{"watchdog below the pipeline", "[measure]\nwatchdog_cycles = 50\n", []string{":2:", "measure.watchdog_cycles = 50", ">= 110"}},
		{"zero measure cycles", "[measure]\nmeasure_cycles = 0\n", []string{"measure.measure_cycles = 0", ">= 1"}},
	}
}

// The new mechanisms' keys at their extremes (0, negative, NaN, 1e-300,
// 1e308) and in combination: SAT, Hybrid-HAR and har-dor, RECN and the
// VOQ organisations, and the keys they interact with.
const (
	satBase  = "[network]\ntorus.k = 4\n"
	harBase  = "[network]\ntopology = \"mesh\"\nmesh.k = 4\nmesh.node_channels = 2\n[router]\nrouting = \"hybrid-har\"\nvc.switching = \"wormhole\"\n"
	ioqBase  = "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\n"
	recnBase = ioqBase + "ioq.queues = \"recn\"\n"
	bernBase = "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nrouting = \"dor\"\nvc.vcs = 2\n[traffic]\nprocess = \"bernoulli\"\n"
)

// MechanismConfigs are the malformed configurations of the new mechanisms.
func MechanismConfigs() []Config {
	return []Config{
		{"sat l zero", satBase + "[policy]\ninjection = \"sat(0,8,ring)\"\n", []string{"policy.injection = \"sat(0,8,ring)\"", "l = 0"}},
		{"sat k negative", satBase + "[policy]\ninjection = \"sat(4,-1,ring)\"\n", []string{"policy.injection = \"sat(4,-1,ring)\"", "k = -1"}},
		{"sat k 1e308", satBase + "[policy]\ninjection = \"sat(4,1e308,ring)\"\n", []string{"policy.injection", "not a whole number"}},
		{"sat l NaN", satBase + "[policy]\ninjection = \"sat(nan,8,ring)\"\n", []string{"policy.injection", "not a whole number"}},
		{"sat structure twice", satBase + "[policy]\ninjection = \"sat(4,8,ring,tree)\"\n", []string{"policy.injection", "structure is given twice"}},
		{"sat l twice", satBase + "[policy]\ninjection = \"sat(l=4,l=5)\"\n", []string{"policy.injection", "l is given twice"}},
		{"sat structure typo", satBase + "[policy]\ninjection = \"sat(4,8,rign)\"\n", []string{"policy.injection", "unknown structure \"rign\"", "did you mean \"ring\""}},
		{"sat k above the quota", satBase + "[policy]\ninjection = \"sat(1,1000001,ring)\"\n", []string{"policy.injection", "k = 1000001", "1000000"}},
		{"sat l above k", satBase + "[policy]\ninjection = \"sat(9,8,ring)\"\n", []string{"policy.injection", "l = 9 > k = 8"}},
		{"sat arguments and keys", satBase + "[policy]\ninjection = \"sat(4,8,ring)\"\nsat_l = 5\n", []string{"policy.injection", "not both"}},
		{"sat key l zero", satBase + "[policy]\ninjection = \"sat\"\nsat_l = 0\n", []string{"policy.injection = \"sat\"", "l = 0"}},
		{"sat key k negative", satBase + "[policy]\ninjection = \"sat\"\nsat_k = -3\n", []string{"policy.injection = \"sat\"", "k = -3"}},
		{"sat structure key", satBase + "[policy]\ninjection = \"sat\"\nsat_structure = \"star\"\n", []string{"policy.sat_structure = \"star\"", "ring", "tree"}},
		{"sat hop latency zero", satBase + "[policy]\ninjection = \"sat(4,8,ring)\"\nsat_hop_latency_cycles = 0\n", []string{"policy.sat_hop_latency_cycles = 0", "1..1000"}},
		{"sat hop latency huge", satBase + "[policy]\ninjection = \"sat(4,8,ring)\"\nsat_hop_latency_cycles = 1001\n", []string{"policy.sat_hop_latency_cycles = 1001", "1..1000"}},
		{"sat node latency negative", satBase + "[policy]\ninjection = \"sat(4,8,ring)\"\nsat_node_latency_cycles = -1\n", []string{"policy.sat_node_latency_cycles = -1", "0..1000"}},
		{"sat with two node channels", "[network]\ntopology = \"mesh\"\nmesh.k = 4\nmesh.node_channels = 2\n[router]\nrouting = \"dor\"\nvc.vcs = 2\n[policy]\ninjection = \"sat(4,8,ring)\"\n", []string{"network.mesh.node_channels = 2", "policy.injection"}},
		{"sat on the ioq switch", ioqBase + "[policy]\ninjection = \"sat(4,8,ring)\"\n", []string{"policy.injection = \"sat(4,8,ring)\"", "router.kind = \"vc\" only"}},
		{"hybrid-har two VCs", harBase + "vc.vcs = 2\n", []string{"router.vc.vcs = 2", "hybrid-har", "at least 3"}},
		{"hybrid-har torus three VCs", "[network]\ntorus.k = 4\ntorus.node_channels = 2\n[router]\nrouting = \"hybrid-har\"\nvc.switching = \"wormhole\"\nvc.vcs = 3\n", []string{"router.vc.vcs = 3", "torus needs at least 4"}},
		{"har-dor odd VCs", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nrouting = \"har-dor\"\nvc.switching = \"wormhole\"\nvc.vcs = 3\n", []string{":7:", "router.vc.vcs = 3", "even VC count"}},
		{"har-dor on a torus", "[network]\ntorus.k = 4\n[router]\nrouting = \"har-dor\"\nvc.vcs = 4\n", []string{"router.routing = \"har-dor\"", "mesh only"}},
		{"tapering of the wrong length", "[network]\ntopology = \"fattree\"\nfattree.k = 4\nfattree.levels = 3\nfattree.oversubscription = [2]\n[router]\nrouting = \"fattree-static\"\n", []string{":5:", "network.fattree.oversubscription = [2]", "one ratio for each of the levels-1 = 2 levels below the roots"}},
		{"tapering to a fraction of a port", "[network]\ntopology = \"fattree\"\nfattree.k = 4\nfattree.levels = 3\nfattree.oversubscription = [3, 1]\n[router]\nrouting = \"fattree-static\"\n", []string{":5:", "network.fattree.oversubscription = [3, 1]", "level 0's ratio 3 gives k/ratio = 4/3 = 1.333 up ports", "with k = 4: 1, 2, 4"}},
		{"tapering not a list", "[network]\ntopology = \"fattree\"\nfattree.k = 4\nfattree.oversubscription = 2\n", []string{"network.fattree.oversubscription", "must be an array of numbers"}},
		{"traffic classes summing wrong", "[network]\ntopology = \"mesh\"\n[router]\nrouting = \"dor\"\n[traffic]\nclass_volume_percent = [30, 30]\n", []string{":6:", "traffic.class_volume_percent = [30, 30]", "the percents sum to 60"}},
		{"traffic classes not a list", "[network]\ntopology = \"mesh\"\n[router]\nrouting = \"dor\"\n[traffic]\nclass_volume_percent = 50\n", []string{"traffic.class_volume_percent", "must be an array of numbers"}},
		{"class VCs not summing to vcs", "[network]\ntopology = \"mesh\"\n[router]\nrouting = \"dor\"\nvc.vcs = 4\nvc.class_vcs = [2, 1]\n[traffic]\nclass_volume_percent = [50, 50]\n", []string{":6:", "router.vc.class_vcs = [2, 1]", "a partition of vcs = 4"}},
		{"class share typo", "[network]\ntopology = \"mesh\"\n[router]\nrouting = \"dor\"\nvc.class_share = \"weigthed\"\n[traffic]\nclass_volume_percent = [50, 50]\n", []string{"router.vc.class_share = \"weigthed\"", "did you mean \"weighted\""}},
		{"pod-shift off a fat-tree", "[network]\ntopology = \"mesh\"\n[router]\nrouting = \"dor\"\n[traffic]\npattern = \"pod-shift\"\n", []string{`traffic.pattern = "pod-shift"`, "defined on a fattree only"}},
		{"hybrid-har on a fat-tree", "[network]\ntopology = \"fattree\"\nfattree.k = 2\nfattree.levels = 2\n[router]\nrouting = \"hybrid-har\"\nvc.vcs = 4\n[traffic]\npattern = \"uniform\"\n", []string{"router.routing = \"hybrid-har\"", "fattree"}},
		{"har free typo", harBase + "vc.vcs = 4\n[router.har]\nfree = \"all_empty\"\n", []string{"router.har.free = \"all_empty\"", "did you mean \"all-empty\""}},
		{"har free on the ioq switch", ioqBase + "[router.har]\nfree = \"all-empty\"\n", []string{"router.har.free = \"all-empty\"", "router.kind = \"vc\""}},
		{"node channels three", "[network]\ntopology = \"mesh\"\nmesh.k = 4\nmesh.node_channels = 3\n[router]\nrouting = \"dor\"\nvc.vcs = 2\n", []string{"network.mesh.node_channels = 3", "2 (an injection and a sink channel per message class"}},
		{"node channels negative", "[network]\ntopology = \"mesh\"\nmesh.k = 4\nmesh.node_channels = -1\n[router]\nrouting = \"dor\"\nvc.vcs = 2\n", []string{"network.mesh.node_channels = -1", "allowed: 1"}},
		{"node channels on a fat-tree", "[network]\ntopology = \"fattree\"\nfattree.k = 2\nfattree.levels = 2\nnode_channels = 2\n[router]\nrouting = \"fattree-adaptive\"\n[traffic]\npattern = \"uniform\"\n", []string{"network.node_channels", "moved", "network.mesh.node_channels", `network.topology = "fattree" has no node_channels`}},
		{"node channels with throttling", harBase + "vc.vcs = 4\n[policy]\ninjection = \"hyst(70,90,30)\"\n", []string{"network.mesh.node_channels = 2", "injection policies"}},
		{"long share NaN", bernBase + "long_packet_flits = 16\nlong_volume_percent = nan\n", []string{"traffic.long_volume_percent = NaN", "0..100"}},
		{"long share above all", bernBase + "long_packet_flits = 16\nlong_volume_percent = 101.0\n", []string{"traffic.long_volume_percent = 101", "0..100"}},
		{"long share negative tiny", bernBase + "long_packet_flits = 16\nlong_volume_percent = -1e-300\n", []string{"traffic.long_volume_percent = -1e-300", "0..100"}},
		{"long share without long packets", bernBase + "long_volume_percent = 50.0\n", []string{"traffic.long_volume_percent = 50", "long_packet_flits >= 1"}},
		{"long packets negative", bernBase + "long_packet_flits = -1\n", []string{"traffic.long_packet_flits = -1", "1..65535"}},
		{"long packets huge", bernBase + "long_packet_flits = 70000\nlong_volume_percent = 50.0\n", []string{"traffic.long_packet_flits = 70000", "1..65535"}},
		{"wire capacity NaN", bernBase + "load_of_wire_capacity = nan\n", []string{"traffic.load_of_wire_capacity = NaN", "share of the wire capacity"}},
		{"wire capacity 1e308", bernBase + "load_of_wire_capacity = 1e308\n", []string{"traffic.load_of_wire_capacity = 1e+308", "<= 1"}},
		{"wire capacity negative tiny", bernBase + "load_of_wire_capacity = -1e-300\n", []string{"traffic.load_of_wire_capacity = -1e-300", "<= 1"}},
		{"wire capacity of a collective", "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nrouting = \"dor\"\nvc.vcs = 2\n[traffic]\nprocess = \"collective\"\nload_of_wire_capacity = 0.5\n", []string{"traffic.load_of_wire_capacity = 0.5", "bernoulli, poisson and on-off"}},
		{"bisection NaN", bernBase + "load_of_bisection = nan\n", []string{"traffic.load_of_bisection = NaN", "allowed: 0 (off"}},
		{"bisection 1e308", bernBase + "load_of_bisection = 1e308\n", []string{"traffic.load_of_bisection = 1e+308", "at most"}},
		{"load NaN", bernBase + "load_flits_per_node_cycle = nan\n", []string{"traffic.load_flits_per_node_cycle = NaN", "> 0 and <= 1"}},
		{"load 1e308", bernBase + "load_flits_per_node_cycle = 1e308\n", []string{"traffic.load_flits_per_node_cycle = 1e+308", "<= 1"}},
		{"load negative tiny", bernBase + "load_flits_per_node_cycle = -1e-300\n", []string{"traffic.load_flits_per_node_cycle = -1e-300", "> 0"}},
		{"load zero", bernBase + "load_flits_per_node_cycle = 0.0\n", []string{"traffic.load_flits_per_node_cycle = 0", "> 0"}},
		{"recn detect NaN", recnBase + "[router.ioq.recn]\ndetect_fraction = nan\n", []string{"router.ioq.recn.detect_fraction = NaN", "share of the port memory"}},
		{"recn detect negative", recnBase + "[router.ioq.recn]\ndetect_fraction = -0.5\n", []string{"router.ioq.recn.detect_fraction = -0.5", "0..1"}},
		{"recn detect 1e308", recnBase + "[router.ioq.recn]\ndetect_fraction = 1e308\n", []string{"router.ioq.recn.detect_fraction = 1e+308", "0..1"}},
		{"recn xoff 1e-300", recnBase + "[router.ioq.recn]\nxoff_fraction = 1e-300\n", []string{"router.ioq.recn.xoff_fraction = 1e-300", "whole flits"}},
		{"recn xon negative tiny", recnBase + "[router.ioq.recn]\nxon_fraction = -1e-300\n", []string{"router.ioq.recn.xon_fraction = -1e-300", "0..1"}},
		{"recn SAQs negative", recnBase + "[router.ioq.recn]\nsaqs = -1\n", []string{"router.ioq.recn.saqs = -1", "allowed: 1..59"}},
		{"recn SAQs huge", recnBase + "[router.ioq.recn]\nsaqs = 1000000000\n", []string{"router.ioq.recn.saqs = 1000000000", "allowed: 1..59"}},
		{"recn concentration leaves no SAQ", "[network]\ntopology = \"mesh\"\nmesh.k = 4\nmesh.concentration = 60\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"recn\"\n", []string{"network.mesh.concentration = 60", "1..59 nodes per router"}},
		{"recn SAQs with concentration", "[network]\ntopology = \"mesh\"\nmesh.k = 4\nmesh.concentration = 8\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"recn\"\n[router.ioq.recn]\nsaqs = 60\n", []string{"router.ioq.recn.saqs = 60", "allowed: 1..52", "network.mesh.concentration = 8"}},
		{"recn idle 2e18", recnBase + "[router.ioq.recn]\nidle_cycles = 2000000000000000000\n", []string{"router.ioq.recn.idle_cycles = 2000000000000000000", "at most 2^60"}},
		{"recn control lanes empty", recnBase + "[router.ioq.recn]\ncontrol_lanes = \"\"\n", []string{"router.ioq.recn.control_lanes = \"\"", "shared", "dedicated"}},
		{"recn keys on the VC router", "[router.ioq.recn]\nsaqs = 4\n", []string{"router.ioq", `the table of router.kind = "ioq", which nothing here selects`}},
		{"port memory zero", ioqBase + "ioq.port_memory_bytes = 0\n", []string{"router.ioq.port_memory_bytes = 0", ">= 1 byte"}},
		{"port memory negative", ioqBase + "ioq.port_memory_bytes = -8\n", []string{"router.ioq.port_memory_bytes = -8", ">= 1 byte"}},
		{"port memory huge", ioqBase + "ioq.port_memory_bytes = 9223372036854775800\n", []string{"router.ioq.port_memory_bytes = 9223372036854775800", "2^24 flits"}},
		{"flit bytes zero", ioqBase + "ioq.flit_bytes = 0\n", []string{"router.ioq.flit_bytes = 0", "1..4096"}},
		{"flit bytes huge", ioqBase + "ioq.flit_bytes = 8192\n", []string{"router.ioq.flit_bytes = 8192", "1..4096"}},
		{"link rate NaN", ioqBase + "ioq.link_gbps = nan\n", []string{"router.ioq.link_gbps = NaN", "0.001..1e6"}},
		{"link rate 1e-300", ioqBase + "ioq.link_gbps = 1e-300\n", []string{"router.ioq.link_gbps = 1e-300", "0.001..1e6"}},
		{"link rate 1e308", ioqBase + "ioq.link_gbps = 1e308\n", []string{"router.ioq.link_gbps = 1e+308", "0.001..1e6"}},
		{"link rate negative", ioqBase + "ioq.link_gbps = -8.0\n", []string{"router.ioq.link_gbps = -8", "0.001..1e6"}},
		{"voq-net over 65535 queues", "[network]\ntopology = \"mesh\"\nmesh.k = 256\n[router]\nkind = \"ioq\"\nrouting = \"dor\"\nioq.queues = \"voq-net\"\nioq.port_memory_bytes = 134217728\n", []string{"router.ioq.queues = \"voq-net\"", "65536 queues", "voq-sw"}},
		{"measure circuit on the ioq switch", ioqBase + "[policy]\nmeasure_circuit = true\n", []string{"policy.measure_circuit = true", "router.kind = \"vc\" only"}},
		{"arbitration typo", "[router]\nvc.arbitration = \"oldest_first\"\n", []string{"router.vc.arbitration = \"oldest_first\"", "did you mean \"oldest-first\""}},
		{"switch allocator unknown", "[router]\nvc.switch_allocator = \"pim\"\n", []string{"router.vc.switch_allocator = \"pim\"", "separable-input-first, separable-output-first, islip, wavefront"}},
		{"islip rounds zero", "[router]\nvc.switch_allocator = \"islip\"\nvc.islip_iterations = 0\n", []string{"router.vc.islip_iterations = 0", "allowed: 1..64"}},
		{"islip rounds without islip", "[router]\nvc.islip_iterations = 4\n", []string{"router.vc.islip_iterations = 4", "switch_allocator = \"islip\" only"}},
		{"VC allocation stage negative", "[router]\nvc.vc_allocation_cycles = -1\n", []string{"router.vc.vc_allocation_cycles = -1", "allowed: 0..64"}},
		{"switch allocation stage zero", "[router]\nvc.switch_allocation_cycles = 0\n", []string{"router.vc.switch_allocation_cycles = 0", "allowed: 1..64"}},
		{"crossbar stage huge", "[router]\nvc.crossbar_cycles = 1000000\n", []string{"router.vc.crossbar_cycles = 1000000", "allowed: 0..64"}},
		{"iSLIP with speedup", "[router]\nvc.internal_speedup = 2\nvc.switch_allocator = \"islip\"\n", []string{"router.vc.switch_allocator = \"islip\"", "internal_speedup = 2"}},
		{"oldest-first with speedup", "[router]\nvc.internal_speedup = 2\nvc.arbitration = \"oldest-first\"\n", []string{"router.vc.arbitration = \"oldest-first\"", "internal_speedup = 2"}},
		{"watchdog below the pipeline", "[router]\nvc.vc_allocation_cycles = 64\nvc.crossbar_cycles = 64\n[measure]\nwatchdog_cycles = 300\n", []string{"measure.watchdog_cycles = 300", "pipeline stages"}},
		{"ties without least-occupied", "[router]\nvc.selection_ties = \"fsin\"\n", []string{"router.vc.selection_ties = \"fsin\"", "least-occupied"}},
		{"least-occupied with an escape level", "[router]\nrouting = \"duato\"\nvc.vcs = 4\nvc.selection = \"least-occupied\"\n", []string{"router.vc.selection = \"least-occupied\"", "escape level"}},
		{"selection typo", "[router]\nvc.selection = \"least_occupied\"\n", []string{"router.vc.selection = \"least_occupied\"", "did you mean \"least-occupied\""}},
		{"duato three VCs", "[router]\nrouting = \"duato\"\nvc.vcs = 3\n", []string{"router.vc.vcs = 3", "at least 4 VCs"}},
		{"batches beyond max cycles", bernBase + "[measure]\nmethod = \"batches\"\nwarmup_cycles = 0\nbatch_cycles = 1000\nmax_cycles = 2000\n", []string{"measure.max_cycles = 2000", "min_batches x batch_cycles = 5000"}},
		{"warm-up beyond 2^60", bernBase + "[measure]\nwarmup_cycles = 2000000000000000000\n", []string{"measure.warmup_cycles = 2000000000000000000", "at most 2^60"}},
		{"smooth samples zero", "[measure]\nsmooth_samples = 0\n", []string{"measure.smooth_samples = 0", ">= 1"}},
		{"ramp cycles zero", "[traffic]\nramp_cycles = 0\n", []string{"traffic.ramp_cycles = 0", ">= 1"}},
		{"phase cycle negative", "[traffic]\nphase_cycle = -1\n", []string{"traffic.phase_cycle = -1", "0 (no phase change)"}},
		{"pattern typo", "[traffic]\npattern = \"unifrom\"\n", []string{"traffic.pattern = \"unifrom\"", "did you mean \"uniform\""}},
		{"key under the wrong table", "[measure]\nvcs = 3\n", []string{":2:", "measure.vcs", "a key of [router.vc]", "router.vc.vcs"}},
		{"ioq link latency zero", ioqBase + "link_latency_cycles = 0\n", []string{"router.link_latency_cycles = 0", "1..1000"}},
		{"ioq long packets huge", ioqBase + "[traffic]\nlong_packet_flits = 70000\nlong_volume_percent = 50.0\n", []string{"traffic.long_packet_flits = 70000", "1..65535"}},
		{"swept VC count invalid for its routing", "[network]\ntorus.k = 4\n[router]\nrouting = \"dor-2class\"\nvc.vcs = 3\n[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [3]\n", []string{"router.vc.vcs = 3", "even number of VCs"}},
	}
}

// Studies are the malformed studies.
func Studies() []Study {
	return []Study{
		{"unknown axis key", "[[axis]]\nkey = \"router.vc\"\nvalues = [2]\n", nil, nil, []string{":14:", "axis[0].key = \"router.vc\"", "not a configuration key", "router.vc.vcs"}},
		{"empty axis", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = []\n", nil, nil, []string{"axis[0].values", "at least one value"}},
		{"axis without values", "[[axis]]\nkey = \"router.vc.vcs\"\n", nil, nil, []string{"axis[0].values", "at least one value"}},
		{"wrong value type", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, \"three\"]\n", nil, nil, []string{":14:", "axis[0].values = \"three\"", "router.vc.vcs", "wrong type", "integer"}},
		{"values not a list", "[[axis]]\nkey = \"traffic.pattern\"\nvalues = \"uniform\"\n", nil, nil, []string{":15:", "axis.values = \"uniform\": wrong type: a string where an array"}},
		{"negative load", "[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nvalues = [0.1, -0.2]\n", nil, nil, []string{":14:", "traffic.load_flits_per_node_cycle = -0.2", "> 0 and <= 1"}},
		{"load range beyond one", "[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nrange = {from = 0.5, to = 1.5, step = 0.5}\n", nil, nil, []string{"traffic.load_flits_per_node_cycle = 1.5", "<= 1"}},
		{"zip of unequal lengths", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 4]\nzip = \"a\"\n[[axis]]\nkey = \"router.vc.buffer_flits\"\nvalues = [8, 16, 32]\nzip = \"a\"\n", nil, nil, []string{":18:", "axis[1].zip = \"a\"", "equal lengths", "router.vc.vcs has 2", "router.vc.buffer_flits has 3"}},
		{"zero step", "[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nrange = {from = 0.1, to = 0.5, step = 0}\n", nil, nil, []string{"axis[0].range", "step > 0"}},
		{"range backwards", "[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nrange = {from = 0.5, to = 0.1, step = 0.1}\n", nil, nil, []string{"axis[0].range", "from <= to"}},
		{"fractional range on an integer key", "[[axis]]\nkey = \"router.vc.vcs\"\nrange = {from = 2, to = 3, step = 0.5}\n", nil, nil, []string{"axis[0].range", "integers; 2.5"}},
		{"values and range", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2]\nrange = {from = 2, to = 4, step = 1}\n", nil, nil, []string{"axis[0]", "values or range, not both"}},
		{"duplicate axis", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2]\n[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [4]\n", nil, nil, []string{":17:", "axis[1].key = \"router.vc.vcs\"", "already swept by axis[0]"}},
		{"seed as an axis", "[[axis]]\nkey = \"seed\"\nvalues = [1, 2]\n", nil, nil, []string{"axis[0].key = \"seed\"", "study.replicates"}},
		{"unknown study key", "[study]\nreplicate = 3\n", nil, nil, []string{":14:", "study.replicate", "unknown key", "replicates, seeds"}},
		{"zero replicates", "[study]\nreplicates = 0\n", nil, nil, []string{":14:", "study.replicates = 0", "1..1000"}},
		{"unknown seeds mode", "[study]\nseeds = \"random\"\n", nil, nil, []string{"study.seeds = \"random\"", "per-point"}},
		{"plot x not an axis", "[plot]\nx = \"router.vc.vcs\"\n", nil, nil, []string{":14:", "plot.x = \"router.vc.vcs\"", "swept axis", "no axes"}},
		{"unknown plot format", "[plot]\nformats = [\"eps\"]\n", nil, nil, []string{"plot.formats = \"eps\"", "png", "svg", "pdf"}},
		{"unknown reduction", "[[reduce]]\nkind = \"median\"\nmetric = \"latency_mean_cycles\"\n", nil, nil, []string{":14:", "reduce[0].kind = \"median\"", "speedup, geomean, best"}},
		{"unknown metric", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 4]\n[[reduce]]\nkind = \"best\"\nmetric = \"latency\"\n", nil, nil, []string{"reduce[0].metric = \"latency\"", "latency_mean_cycles"}},
		{"baseline not on the axis", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 4]\n[[reduce]]\nkind = \"speedup\"\nmetric = \"latency_mean_cycles\"\nbaseline = { \"router.vc.vcs\" = 3 }\n", nil, nil, []string{`reduce[0].baseline = "router.vc.vcs = 3"`, "one of the axis's values"}},
		{"bad combination at one point", "[[axis]]\nkey = \"network.mesh.k\"\nvalues = [4, 6]\n[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"bit-reverse\"]\n", nil, nil, []string{":17:", "traffic.pattern = \"bit-reverse\"", "power-of-two node count; this network has 36 nodes"}},
		{"deadlock at one point", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 1]\n[[axis]]\nkey = \"network.topology\"\nvalues = [\"mesh\", \"torus\"]\n[network.torus]\nk = 4\n", nil, nil, []string{":14:", "axis[0] router.vc.vcs = 1", `routing "dor" with 1 VCs on the 4x4 torus can deadlock`, "R(0,0).E vc0 -> R(1,0).E vc0"}},
		{"shard 4/3", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 4]\n", []string{"--shard", "4/3"}, nil, []string{"--shard = \"4/3\"", "1 <= i <= n"}},
		{"slurm task beyond count", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 4]\n", []string{"--shard", "slurm"}, []string{"SLURM_ARRAY_TASK_ID=5", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=1"}, []string{"SLURM_ARRAY_TASK_ID = \"5\"", "MIN <= ID < MIN+COUNT"}},
		{"slurm shard outside an array", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 4]\n", []string{"--shard", "slurm"}, nil, []string{"--shard slurm", "not set"}},
		{"not-a-number load", "[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nvalues = [0.1, nan]\n", nil, nil, []string{":14:", "axis[0].values = NaN", "finite"}},
		{"repeated value", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 4, 2]\n", nil, nil, []string{"axis[0].values = 2", "value 2 repeats value 0"}},
		{"repeated zipped combination", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 4, 2]\nzip = \"z\"\n[[axis]]\nkey = \"router.vc.buffer_flits\"\nvalues = [8, 16, 8]\nzip = \"z\"\n", nil, nil, []string{"axis[0].values = \"2 8\"", "value 2 repeats value 0 in every zipped axis"}},
		{"best by and over the same axis", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 4]\n[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"transpose\"]\n[[reduce]]\nkind = \"best\"\nmetric = \"latency_mean_cycles\"\nover = [\"traffic.pattern\"]\nby = [\"traffic.pattern\"]\n", nil, nil, []string{"reduce[0].by = \"traffic.pattern\"", "both grouped by"}},
		{"baseline unreachable through a zip", "[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 4]\nzip = \"z\"\n[[axis]]\nkey = \"router.vc.buffer_flits\"\nvalues = [8, 16]\nzip = \"z\"\n[[reduce]]\nkind = \"speedup\"\nmetric = \"latency_mean_cycles\"\nbaseline = { \"router.vc.vcs\" = 2 }\n", nil, nil, []string{"reduce[0].baseline", "has no baseline point"}},
		{"curves over a categorical axis", "[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"transpose\"]\n[plot]\nx = \"traffic.pattern\"\n", nil, nil, []string{"plot.x = \"traffic.pattern\"", "numeric axis"}},
		{"max cycles below the window", "max_cycles = 150\n", nil, nil, []string{"measure.max_cycles = 150", ">= warmup_cycles + measure_cycles = 200"}},
		{"type errors all at once", "[study]\nreplicates = \"three\"\nseeds = 5\n", nil, nil, []string{":14:", "study.replicates = \"three\": wrong type: a string where an integer is needed", ":15:", "study.seeds = 5: wrong type: an integer where a string is needed"}},
		{"one base problem reported once", "tolerance = 2.0\n[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 3, 4]\n", nil, nil, []string{":13:", "measure.tolerance = 2"}},
		{"two problems at once", "[study]\nreplicates = -1\n[[axis]]\nkey = \"router.vc.vcs\"\nvalues = []\n", nil, nil, []string{"study.replicates = -1", "axis[0].values"}},
	}
}

// ManyPortsGraph is a topology file whose router 0 has 64 ports, the most
// a router may have.
func ManyPortsGraph() string { return "routers 2\nnode 0\nnode 1\n" + strings.Repeat("link 0 1\n", 63) }

// GraphFile is a topology file (network.topology = "file") with one
// defect: the error the reader gives, read as bad.txt, is Want, naming
// the file and line.
type GraphFile struct {
	Name, File, Want string
}

// GraphFiles are the topology file defects (link's table test, its fuzz
// seeds, and the command's exit status for each).
func GraphFiles() []GraphFile {
	return []GraphFile{
		{"no routers line", "# nothing\n\n", `bad.txt: no "routers N" line (a topology file starts with it)`},
		{"node first", "node 0\n", `bad.txt:1: "node" before "routers N": the routers line comes first`},
		{"routers twice", "routers 2\nrouters 3\n", `bad.txt:2: "routers N" comes once (it came at line 1)`},
		{"routers 0", "routers 0\n", `bad.txt:1: routers "0": allowed: 1..1048576 (2^20) routers`},
		{"routers 2^20+1", "routers 1048577\n", `bad.txt:1: routers "1048577": allowed: 1..1048576 (2^20) routers`},
		{"routers 2^30", "routers 1073741824\n", `bad.txt:1: routers "1073741824": allowed: 1..1048576 (2^20) routers`},
		{"routers beyond int64", "routers 99999999999999999999999\n", `bad.txt:1: routers "99999999999999999999999": allowed: 1..1048576 (2^20) routers`},
		{"routers negative", "routers -4\n", `bad.txt:1: routers "-4": allowed: 1..1048576 (2^20) routers`},
		{"routers two values", "routers 4 5\n", `bad.txt:1: want "routers N" with 1 <= N <= 1048576`},
		{"unknown item", "routers 2\nnode 0\nnode 1\nwire 0 1\n", `bad.txt:4: unknown item "wire" (allowed: routers, node, link, root)`},
		{"root twice", "routers 2\nnode 0\nnode 1\nlink 0 1\nroot 0\nroot 1\n", `bad.txt:6: "root R" comes once (it came at line 5)`},
		{"root outside", "routers 2\nnode 0\nnode 1\nlink 0 1\nroot 2\n", `bad.txt:5: root: router 2 does not exist (routers 0..1, from "routers 2" at line 1)`},
		{"root first", "root 0\nrouters 2\n", `bad.txt:1: "root" before "routers N": the routers line comes first`},
		{"root without router", "routers 2\nnode 0\nnode 1\nlink 0 1\nroot\n", `bad.txt:5: want "root ROUTER" (up*/down* routing's root)`},
		{"dangling link", "routers 2\nnode 0\nnode 1\nlink 0 2\n", `bad.txt:4: link: router 2 does not exist (routers 0..1, from "routers 2" at line 1)`},
		{"dangling node", "routers 2\nnode 0\nnode 7\n", `bad.txt:3: node: router 7 does not exist (routers 0..1, from "routers 2" at line 1)`},
		{"huge router number", "routers 2\nnode 0\nnode 1\nlink 0 99999999999999999999\n", `bad.txt:4: link: router 99999999999999999999 does not exist (routers 0..1, from "routers 2" at line 1)`},
		{"not a number", "routers 2\nnode 0\nnode 1\nlink 0 x\n", `bad.txt:4: link: "x" is not a router number (allowed: 0..1)`},
		{"negative router", "routers 2\nnode 0\nnode 1\nlink -1 0\n", `bad.txt:4: link: "-1" is not a router number (allowed: 0..1)`},
		{"self-loop", "routers 2\nnode 0\nnode 1\nlink 0 0\n", `bad.txt:4: link from router 0 to itself (allowed: links between two routers; several between the same two are parallel links)`},
		{"latency too long", "routers 2\nnode 0\nnode 1\nlink 0 1 1001\n", `bad.txt:4: link 0 1: latency "1001": allowed: 0 (the network's link latency) or 1..1000 cycles`},
		{"latency not a number", "routers 2\nnode 0\nnode 1\nlink 0 1 2.5\n", `bad.txt:4: link 0 1: latency "2.5": allowed: 0 (the network's link latency) or 1..1000 cycles`},
		{"link one router", "routers 2\nnode 0\nnode 1\nlink 0\n", `bad.txt:4: want "link A B [LATENCY_CYCLES]"`},
		{"link too many fields", "routers 2\nnode 0\nnode 1\nlink 0 1 2 3 4 5 6\n", `bad.txt:4: want "link A B [LATENCY_CYCLES]"`},
		{"node on two routers", "routers 2\nnode 0 1\n", `bad.txt:2: want "node ROUTER" (a node's number is its place among the node lines, from 0)`},
		{"node after a link", "routers 2\nnode 0\nlink 0 1\nnode 1\n", `bad.txt:4: a node after links (allowed: every node line before the first link line: a router's node ports are its first)`},
		{"one node", "routers 2\nnode 0\nlink 0 1\n", `bad.txt: 1 node lines (allowed: at least 2 nodes, each a line "node ROUTER")`},
		{"router with no node and no link", "routers 3\nnode 0\nnode 1\nlink 0 1\n", `bad.txt:1: router 2 has no node and no link ("routers 3" declares routers 0..2; every router needs a node or a link)`},
		{"header of 2^20 routers, two nodes", "routers 1048576\nnode 0\nnode 1\n", `bad.txt:1: router 2 has no node and no link ("routers 1048576" declares routers 0..1048575; every router needs a node or a link)`},
		{"router of a node unreachable", "routers 3\nnode 0\nnode 2\nlink 0 1\n", `bad.txt:3: router 2, node 1's, is unreachable from router 0 (node 0's): no path of links joins them (allowed: every router joined to every other)`},
		{"part without nodes unreachable", "routers 4\nnode 0\nnode 1\nlink 0 1\nlink 2 3\n", `bad.txt:5: router 2, a router without nodes, is unreachable from router 0 (node 0's): no path of links joins them (allowed: every router joined to every other)`},
		{"65 ports", ManyPortsGraph() + "link 0 1\n", `bad.txt:67: router 0 would have 65 ports, its nodes' and links' (allowed: at most 64 ports per router)`},
		{"over-long line", "routers 2\n# " + strings.Repeat("x", 5000) + "\nnode 0\n", `bad.txt:2: line longer than 4096 bytes (allowed: lines of at most 4096 bytes, comments included)`},
	}
}
