// Package study owns configurations: the TOML schema and its defaults,
// strict loading and validation (errors name the file, line, key path, bad
// value and what is allowed), building a network from a configuration, and
// running it (Run).
package study

import (
	"bytes"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/policies"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/router"
	"github.com/icnsim/icnsim/traffic"
)

// Config is one simulation: network, router, traffic and measurement.
type Config struct {
	Name    string  `toml:"name"`
	Seed    uint64  `toml:"seed"`
	Network Network `toml:"network"`
	Router  Router  `toml:"router"`
	Traffic Traffic `toml:"traffic"`
	Policy  Policy  `toml:"policy"`
	Measure Measure `toml:"measure"`
}

// Policy is the congestion control: entropy throttling's injection model
// and measurement circuit.
type Policy struct {
	// Injection is the model of every node: noth (or none), base, hyst,
	// gt.a, gt.x, bare (parameters from the keys below) or with the papers'
	// arguments, e.g. "hyst(70,90,30)".
	Injection   string  `toml:"injection"`
	RthPercent  float64 `toml:"r_th_percent"`
	ROnPercent  float64 `toml:"r_on_percent"`
	ROffPercent float64 `toml:"r_off_percent"`
	RnPercent   float64 `toml:"r_n_percent"`
	GuardCycles int     `toml:"guard_cycles"`
	// Circuit is the measurement circuit's shape: auto (grid on a torus or
	// mesh, tree on a fat-tree), grid or tree.
	Circuit              string `toml:"circuit"`
	CircuitLanes         string `toml:"circuit_lanes"` // dedicated or steal
	CircuitLatencyCycles int    `toml:"circuit_latency_cycles"`
	// CountInjectionBuffers counts the injection ports' buffers in N_v, N_a.
	CountInjectionBuffers bool `toml:"count_injection_buffers"`
	// MeasureCircuit runs the circuit even under noth, so that its readings
	// appear in the time series.
	MeasureCircuit bool `toml:"measure_circuit"`
	// SATHopLatencyCycles is the SAT signal's latency over one link, and
	// SATNodeLatencyCycles the least time a node holds it (injection =
	// "sat(l,k,ring|tree)").
	SATHopLatencyCycles  int `toml:"sat_hop_latency_cycles"`
	SATNodeLatencyCycles int `toml:"sat_node_latency_cycles"`
	// SATL, SATK and SATStructure are bare "sat"'s l, k and ring or tree.
	SATL         int    `toml:"sat_l"`
	SATK         int    `toml:"sat_k"`
	SATStructure string `toml:"sat_structure"`
}

// SATConfig is the policies package's view of the SAT keys.
func (c *Config) SATConfig() policies.SATConfig {
	return policies.SATConfig{HopLatencyCycles: c.Policy.SATHopLatencyCycles, NodeLatencyCycles: c.Policy.SATNodeLatencyCycles}
}

// Gate is the injection model with its parameters.
func (p *Policy) Gate() (policies.GateParams, bool, error) {
	return policies.ParseGate(p.Injection, policies.GateParams{RthPercent: p.RthPercent, ROnPercent: p.ROnPercent,
		ROffPercent: p.ROffPercent, RnPercent: p.RnPercent, GuardCycles: p.GuardCycles,
		SAT: policies.SATParams{L: p.SATL, K: p.SATK, Tree: p.SATStructure == "tree"}})
}

// CircuitConfig is the policies package's view of the circuit keys.
func (c *Config) CircuitConfig() policies.CircuitConfig {
	p := c.Policy
	shape := policies.ShapeGrid
	if p.Circuit == "tree" || (p.Circuit == "auto" && c.Network.Topology == "fattree") {
		shape = policies.ShapeTree
	}
	mode, _ := link.ParseMode(p.CircuitLanes)
	return policies.CircuitConfig{Shape: shape, Mode: mode, LatencyCycles: p.CircuitLatencyCycles, CountInjection: p.CountInjectionBuffers}
}

// Network is the topology.
type Network struct {
	Topology      string `toml:"topology"`
	K             int    `toml:"k"`
	Levels        int    `toml:"levels"`
	Concentration int    `toml:"concentration"`
	// NodeChannels is the number of channels between a node and its
	// router: 1 (0 means 1), or 2 for a source queue, injection channel and sink
	// channel per message class (short and long), as Hybrid-HAR's nodes.
	NodeChannels int `toml:"node_channels"`
}

// Router is the router microarchitecture and links.
type Router struct {
	// Kind is the microarchitecture: vc (the input-queued VC router) or
	// ioq (the RECN paper's input/output-buffered switch, package ioq).
	Kind string `toml:"kind"`
	// Queues is the ioq switch's queue organisation: 1q, voq-sw, voq-net,
	// recn.
	Queues string `toml:"queues"`
	// PortMemoryBytes is the ioq switch's memory at every ingress and
	// egress port and at every adapter's injection side (128 KB, the
	// paper's), a whole number of flits.
	PortMemoryBytes int `toml:"port_memory_bytes"`
	// FlitBytes and LinkGbps relate cycles to time on the ioq switch: a
	// cycle is the time a link takes to carry one flit,
	// flit_bytes * 8 / link_gbps ns (8 ns for 8-byte flits on 8 Gbps links).
	FlitBytes           int     `toml:"flit_bytes"`
	LinkGbps            float64 `toml:"link_gbps"`
	Routing             string  `toml:"routing"`
	VCs                 int     `toml:"vcs"`
	BufferFlits         int     `toml:"buffer_flits"`
	Switching           string  `toml:"switching"`
	RoutingDelayCycles  int     `toml:"routing_delay_cycles"`
	LinkLatencyCycles   int     `toml:"link_latency_cycles"`
	CreditLatencyCycles int     `toml:"credit_latency_cycles"`
	AllowDeadlock       bool    `toml:"allow_deadlock"`
	// Selection is the VC router's selection function: free-most-credits
	// (a free VC with room, most credits) or least-occupied (FSIN's: the
	// least occupied VC offered, waited for; router.Selection).
	Selection string `toml:"selection"`
	// SelectionTies is how least-occupied breaks a tie: rotation (the
	// default), random, or fsin (FSIN's draw; router.SelectionTies).
	SelectionTies string `toml:"selection_ties"`
	// RECN configures router.queues = "recn".
	RECN RECN `toml:"recn"`
	// HAR configures router.routing = "hybrid-har" and "har-dor".
	HAR HAR `toml:"har"`
}

// RECN is the [router.recn] table: RECN's set-aside queues and thresholds
// (package router/recn), as fractions of the port memory.
type RECN struct {
	// SAQs is the number of set-aside queues per port memory (the paper's 8).
	SAQs int `toml:"saqs"`
	// DetectFraction is the occupancy, as a share of the port memory, at
	// which a detection, standard or set-aside queue is congested; Xoff
	// and Xon the occupancies of a SAQ at which it stops and restarts its
	// upstream SAQs (the paper fixes 1% of the memory for its threshold).
	DetectFraction float64 `toml:"detect_fraction"`
	XoffFraction   float64 `toml:"xoff_fraction"`
	XonFraction    float64 `toml:"xon_fraction"`
	// IdleCycles frees an empty leaf SAQ that has received no packet for
	// this long (one that was allocated for a flow that stopped); 0 never
	// does (the paper frees a SAQ only when it empties).
	IdleCycles int64 `toml:"idle_cycles"`
	// ControlLanes is "shared" (control packets take link cycles between
	// data packets, as the paper's) or "dedicated" (lanes of their own).
	ControlLanes string `toml:"control_lanes"`
	// XoffScope is what a SAQ's Xoff stops: "children" (the upstream SAQs
	// for its point, the paper's text, which bounds no SAQ) or "feeders"
	// (every queue of every port feeding it, for the packets that would
	// enter it: no SAQ holds more than its Xoff threshold plus what is in
	// flight; see package router/recn).
	XoffScope string `toml:"xoff_scope"`
}

// Traffic is what the nodes send.
type Traffic struct {
	Pattern         string  `toml:"pattern"`
	Process         string  `toml:"process"`
	Load            float64 `toml:"load_flits_per_node_cycle"`
	PacketsPerNode  int     `toml:"packets_per_node"`
	PacketFlits     int     `toml:"packet_flits"`
	HotspotFraction float64 `toml:"hotspot_fraction"`
	// HotspotSourceFraction is the share of sources of the hotspot-sources
	// pattern that send every packet to the hot-spot node.
	HotspotSourceFraction float64 `toml:"hotspot_source_fraction"`
	HotspotNode           int     `toml:"hotspot_node"`
	HotRegionFraction     float64 `toml:"hot_region_fraction"`
	PhaseCycle            int64   `toml:"phase_cycle"`
	PhasePattern          string  `toml:"phase_pattern"`
	// RampCycles is the ramp process's length: the offered load rises
	// linearly from 0 at cycle 0 to load_flits_per_node_cycle here.
	RampCycles int64 `toml:"ramp_cycles"`
	// LongPacketFlits and LongVolumePercent make sizes bimodal: that share
	// of the traffic volume (flits, not packets) in long packets (class
	// 1), the rest in packet_flits-flit short ones (class 0).
	LongPacketFlits   int     `toml:"long_packet_flits"`
	LongVolumePercent float64 `toml:"long_volume_percent"`
	// LoadOfWireCapacity, when > 0, gives the offered load as a share of
	// the network's wire capacity (every router-to-router channel sending
	// a flit every cycle), as the Hybrid-HAR paper does, instead of
	// load_flits_per_node_cycle (WireCapacity).
	LoadOfWireCapacity float64 `toml:"load_of_wire_capacity"`
	// LoadOfBisection, when > 0, gives the offered load as a share of twice
	// the bisection bandwidth (Bisection), the RECN paper's unit, instead
	// of load_flits_per_node_cycle; the result then reports the relative
	// throughput in the same unit.
	LoadOfBisection float64 `toml:"load_of_bisection"`
	// Self is what a node does with a packet to itself: loopback (through
	// its own router, the default), skip (never: a permutation's fixed
	// points send nothing and are left out of per-node statistics; random
	// patterns draw again) or redraw (a uniformly random other node).
	Self string `toml:"self"`
	// SourceQueuePackets > 0 bounds each node's source queue (bernoulli,
	// poisson, ramp): arrivals wait outside a full queue and the process
	// pauses, as FSIN's NIC injection buffer; latency then counts from a
	// packet's entry into the queue. 0: unbounded.
	SourceQueuePackets int `toml:"source_queue_packets"`
}

// Measure is how a run is measured.
type Measure struct {
	// WarmupCycles is the warm-up; -1 takes the method's default
	// (Warmup).
	WarmupCycles  int64   `toml:"warmup_cycles"`
	MeasureCycles int64   `toml:"measure_cycles"`
	Method        string  `toml:"method"`
	BatchCycles   int64   `toml:"batch_cycles"`
	MinBatches    int     `toml:"min_batches"`
	MaxBatches    int     `toml:"max_batches"`
	Tolerance     float64 `toml:"tolerance"`
	DrainCycles   int64   `toml:"drain_cycles"`
	MaxCycles     int64   `toml:"max_cycles"`
	SampleCycles  int64   `toml:"sample_cycles"`
	// WatchdogCycles stops the run when flits are in flight and none has
	// moved for this many cycles (0: off).
	WatchdogCycles int64 `toml:"watchdog_cycles"`
	// StallCycles ends a collective run, as not completed, when no flit has
	// been injected or delivered for this many cycles while packets remain
	// (every node throttled for good, e.g. hyst with R_OFF = 100 and
	// R_n = 0 on an empty network); 0: off.
	StallCycles int64 `toml:"stall_cycles"`
	// SmoothSamples is the moving-average length, in samples, of the ramp
	// process's critical-load detection.
	SmoothSamples int `toml:"smooth_samples"`
	// BatchPackets is the size of a batch of the packet-batches method, in
	// delivered packets (0: 10 N^2, the fat-tree fairness paper's), and
	// PacketBatches the number of batches.
	BatchPackets  int64 `toml:"batch_packets"`
	PacketBatches int   `toml:"packet_batches"`
}

// Method defaults of the warm-up.
const (
	defaultWarmupCycles            = 10_000
	defaultPacketBatchWarmupCycles = 50_000 // the fat-tree fairness paper's
)

// Warmup is the warm-up in cycles: warmup_cycles, or with -1 the method's
// default: 50,000 for packet-batches (the fat-tree fairness paper's),
// 10,000 otherwise.
func (m *Measure) Warmup() int64 {
	switch {
	case m.WarmupCycles >= 0:
		return m.WarmupCycles
	case m.Method == "packet-batches":
		return defaultPacketBatchWarmupCycles
	}
	return defaultWarmupCycles
}

// PacketsPerBatch is the packet-batches method's batch size for a network
// of the given number of nodes.
func (m *Measure) PacketsPerBatch(nodes int) int64 {
	if m.BatchPackets > 0 {
		return m.BatchPackets
	}
	return 10 * int64(nodes) * int64(nodes)
}

// Default is the built-in configuration: a 32x32 torus with dimension-order
// routing and datelines, a collective burst of 10 eight-flit packets per node
// under tornado traffic, as in the extended entropy paper (whose routers have
// 15-flit buffers; 16 here, a power of two like BookSim2's defaults).
func Default() Config {
	return Config{
		Name:    "torus32-tornado-collective",
		Seed:    1,
		Network: Network{Topology: "torus", K: 32, Levels: 3, Concentration: 1, NodeChannels: 1},
		Router: Router{Kind: "vc", Queues: "1q", PortMemoryBytes: 128 << 10, FlitBytes: 8, LinkGbps: 8,
			RECN: RECN{SAQs: 8, DetectFraction: 0.01, XoffFraction: 0.01, XonFraction: 0.005, IdleCycles: 1024, ControlLanes: "shared", XoffScope: "children"},
			HAR:  HAR{Free: "tail-sent"}, Routing: "dor-dateline", VCs: 3, BufferFlits: 16, Switching: "vct",
			RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1, Selection: "free-most-credits", SelectionTies: "rotation"},
		Traffic: Traffic{Pattern: "tornado", Process: "collective", Load: 0.1, PacketsPerNode: 10, PacketFlits: 8, Self: "loopback",
			HotspotFraction: 0.02, HotspotSourceFraction: 0.25, HotspotNode: -1, HotRegionFraction: 0.25, RampCycles: 1_000_000},
		Policy: Policy{Injection: "none", RthPercent: 70, ROnPercent: 70, ROffPercent: 90, RnPercent: 25, GuardCycles: 8,
			Circuit: "auto", CircuitLanes: "dedicated", CircuitLatencyCycles: 1, SATHopLatencyCycles: 1, SATNodeLatencyCycles: 1,
			SATL: 16, SATK: 16, SATStructure: "ring"},
		Measure: Measure{WarmupCycles: -1, MeasureCycles: 10000, Method: "window", BatchCycles: 2000,
			MinBatches: 5, MaxBatches: 50, Tolerance: 0.02, DrainCycles: 100000, MaxCycles: 10000000, SampleCycles: 100, WatchdogCycles: 100000,
			StallCycles: 20000, SmoothSamples: 400, PacketBatches: 5},
	}
}

// FieldError is one problem with a configuration value.
type FieldError struct {
	File    string // may be empty
	Line    int    // 0 when unknown
	Key     string // TOML key path, e.g. "router.vcs"
	Value   any
	Allowed string
}

func (e *FieldError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s = %s: %s", e.Key, formatValue(e.Value), e.Allowed)
	return b.String()
}

func formatValue(v any) string {
	if r, ok := v.(rawValue); ok {
		return string(r)
	}
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

func readFile(path string) ([]byte, error) { return os.ReadFile(path) }

// Load reads a configuration file strictly: unknown keys, wrong types and
// invalid values are all reported, joined, before anything runs.
func Load(path string) (Config, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	return Parse(path, src)
}

// Parse reads a configuration from src; name is used in error messages.
func Parse(name string, src []byte) (Config, error) {
	cfg := Default()
	md, errs, err := decodeAll(name, src, &cfg)
	if err != nil {
		return Config{}, err
	}
	for _, k := range md.Undecoded() {
		errs = append(errs, &FieldError{File: name, Line: lineOf(src, k), Key: k.String(), Value: "(unknown key)",
			Allowed: "not a configuration key; allowed here: " + allowedKeys(k)})
	}
	for _, e := range cfg.Validate() {
		if fe, ok := e.(*FieldError); ok {
			fe.File = name
			fe.Line = lineOf(src, strings.Split(fe.Key, "."))
		}
		errs = append(errs, e)
	}
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return cfg, nil
}

// typeErrRE matches BurntSushi/toml's type-mismatch error.
var typeErrRE = regexp.MustCompile(`line (\d+) \(last key "([^"]*)"\): incompatible types: TOML value has type ([^;]+); destination has type (\w+)`)

// decodeAll decodes src into v, collecting every type mismatch: the decoder
// stops at the first, so each offending line is blanked (keeping the line
// numbers) and the decode repeated. A syntax error ends it with one error.
func decodeAll(name string, src []byte, v any) (toml.MetaData, []error, error) {
	var errs []error
	src = bytes.Clone(src)
	for range 100 {
		md, err := toml.NewDecoder(bytes.NewReader(src)).Decode(v)
		if err == nil {
			// The decoder visits a table's keys in map order: report by line.
			slices.SortStableFunc(errs, func(a, b error) int { return a.(*FieldError).Line - b.(*FieldError).Line })
			return md, errs, nil
		}
		var pe toml.ParseError
		if errors.As(err, &pe) && !strings.Contains(pe.Message, "incompatible types") {
			if len(errs) > 0 {
				// A syntax error only after lines of wrong-typed values
				// were blanked (the rest of a value over several lines):
				// the type errors are what is wrong with the file.
				return toml.MetaData{}, errs, errors.Join(errs...)
			}
			if key, val, ok := valueOfLine(src, pe); ok {
				return md, nil, fmt.Errorf("%s:%d: %s = %s: %s", name, pe.Position.Line, key, val, pe.Message)
			}
			return md, nil, fmt.Errorf("%s:%d: %s", name, pe.Position.Line, pe.Message)
		}
		m := typeErrRE.FindStringSubmatch(err.Error())
		if m == nil {
			return md, nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "toml: "))
		}
		line, _ := strconv.Atoi(m[1])
		lines := bytes.Split(src, []byte("\n"))
		if line < 1 || line > len(lines) || len(bytes.TrimSpace(lines[line-1])) == 0 {
			return md, nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "toml: "))
		}
		val := string(bytes.TrimSpace(lines[line-1]))
		if i := strings.Index(val, "="); i >= 0 {
			val = strings.TrimSpace(val[i+1:])
		}
		errs = append(errs, &FieldError{File: name, Line: line, Key: m[2], Value: rawValue(val),
			Allowed: fmt.Sprintf("wrong type: %s where %s is needed", tomlWord(m[3]), typeWord(m[4]))})
		lines[line-1] = nil
		src = bytes.Join(lines, []byte("\n"))
	}
	return toml.MetaData{}, errs, errors.Join(errs...)
}

// changedKey names the first field of the table at path (a struct of
// TOML-tagged fields) whose value differs from the default's, and that value.
func changedKey[T any](path string, v, def T) (string, any) {
	rv, rd := reflect.ValueOf(v), reflect.ValueOf(def)
	for i := range rv.NumField() {
		if rv.Field(i).Interface() != rd.Field(i).Interface() {
			tag, _, _ := strings.Cut(rv.Type().Field(i).Tag.Get("toml"), ",")
			return path + "." + tag, rv.Field(i).Interface()
		}
	}
	return path, nil
}

// valueOfLine finds the key and value of a parse error's line when the
// error is in a value (an integer too large, a float out of range), so that
// the message names the key path like every other.
func valueOfLine(src []byte, pe toml.ParseError) (key, val string, ok bool) {
	lines := bytes.Split(src, []byte("\n"))
	ln := pe.Position.Line
	if pe.LastKey == "" || ln < 1 || ln > len(lines) {
		return "", "", false
	}
	leaf := pe.LastKey[strings.LastIndex(pe.LastKey, ".")+1:]
	k, v, found := strings.Cut(string(bytes.TrimSpace(lines[ln-1])), "=")
	k = strings.Trim(strings.TrimSpace(k), `"'`)
	if !found || (k != leaf && !strings.HasSuffix(pe.LastKey, "."+k) && k != pe.LastKey) {
		return "", "", false
	}
	return pe.LastKey, strings.TrimSpace(v), true
}

// rawValue is a value as written in the file, printed unquoted.
type rawValue string

func (r rawValue) String() string { return string(r) }

// tomlWord names the TOML type of a decoded value's Go type.
func tomlWord(goType string) string {
	switch {
	case goType == "int64":
		return "an integer"
	case goType == "float64":
		return "a float"
	case goType == "string":
		return "a string"
	case goType == "bool":
		return "a boolean"
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case strings.HasPrefix(goType, "map"):
		return "a table"
	}
	return "a " + goType
}

func typeWord(goType string) string {
	switch goType {
	case "integer", "int", "int64", "uint64":
		return "an integer"
	case "float", "float64":
		return "a number"
	case "string":
		return "a string"
	case "bool", "boolean":
		return "true or false"
	case "slice", "array":
		return "an array [...]"
	case "struct", "map":
		return "a table"
	}
	return goType
}

// allowedKeys lists the keys of the table holding key k.
func allowedKeys(k toml.Key) string {
	var keys []string
	b, _ := tomlKeys(Default())
	prefix := strings.Join(k[:len(k)-1], ".")
	if t, ok := studyTables()[prefix]; ok {
		return strings.Join(tagsOf(t), ", ")
	}
	if prefix == "" {
		keys = append(keys, "study", "axis", "plot", "reduce")
	}
	for _, full := range b {
		parent, leaf := "", full
		if i := strings.LastIndex(full, "."); i >= 0 {
			parent, leaf = full[:i], full[i+1:]
		}
		if parent == prefix {
			keys = append(keys, leaf)
		}
	}
	if len(keys) == 0 {
		return "(no such table)"
	}
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}

// tomlKeys lists the key paths of a configuration by encoding it.
func tomlKeys(c Config) ([]string, error) {
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(c); err != nil {
		return nil, err
	}
	var m map[string]any
	if _, err := toml.Decode(buf.String(), &m); err != nil {
		return nil, err
	}
	var out []string
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			if sub, ok := v.(map[string]any); ok {
				walk(prefix+k+".", sub)
				continue
			}
			out = append(out, prefix+k)
		}
	}
	walk("", m)
	return out, nil
}

// lineOf finds the line (1-based) at which key path k is set, or 0.
func lineOf(src []byte, k []string) int {
	table := ""
	want := strings.Join(k[:len(k)-1], ".")
	leaf := k[len(k)-1]
	for i, line := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			table = strings.Trim(t, "[] \t")
			if j := strings.Index(table, "#"); j >= 0 {
				table = strings.TrimSpace(table[:j])
			}
			if want != "" && table == strings.Join(k, ".") {
				return i + 1
			}
			continue
		}
		if eq := strings.Index(t, "="); eq > 0 {
			key := strings.Trim(strings.TrimSpace(t[:eq]), `"`)
			full := key
			if table != "" {
				full = table + "." + key
			}
			if full == strings.Join(k, ".") || (table == want && key == leaf) {
				return i + 1
			}
		}
	}
	return 0
}

func rangeErr(key string, v any, allowed string) error {
	return &FieldError{Key: key, Value: v, Allowed: allowed}
}

// Validate checks every value and returns all problems.
func (c *Config) Validate() []error {
	var errs []error
	add := func(key string, v any, allowed string) { errs = append(errs, rangeErr(key, v, allowed)) }
	n := &c.Network
	switch n.Topology {
	case "torus", "mesh":
		if n.K < 2 || n.K > 1024 {
			add("network.k", n.K, "allowed: 2..1024 routers per dimension")
		}
	case "fattree":
		if n.K < 2 || n.K > 32 {
			add("network.k", n.K, "allowed on a fattree: arity 2..32 (switch radix 2k)")
		}
		if n.Levels < 1 || n.Levels > 10 {
			add("network.levels", n.Levels, "allowed: 1..10 levels of a k-ary n-tree")
		} else if nodes := c.Nodes(); nodes > 1<<20 {
			add("network.levels", n.Levels, fmt.Sprintf("a %d-ary %d-tree has %d nodes; at most 2^20 supported", n.K, n.Levels, nodes))
		}
	default:
		add("network.topology", n.Topology, "allowed: torus, mesh, fattree")
	}
	if n.Concentration < 1 || n.Concentration > 60 {
		add("network.concentration", n.Concentration, "allowed: 1..60 nodes per router")
	} else if n.Topology != "mesh" && n.Concentration != 1 {
		add("network.concentration", n.Concentration, "allowed on a torus: 1 (concentration is for meshes)")
	}
	switch {
	case n.NodeChannels < 0 || n.NodeChannels > 2:
		add("network.node_channels", n.NodeChannels, "allowed: 1 (or 0: one channel per node), 2 (an injection and a sink channel per message class: short and long)")
	case n.NodeChannels == 2 && n.Topology == "fattree":
		add("network.node_channels", n.NodeChannels, "a channel per message class exists on meshes and tori only; use 1 on a fat-tree")
	case n.NodeChannels == 2 && (c.Policy.Injection != "none" && c.Policy.Injection != "noth" || c.Policy.MeasureCircuit):
		add("network.node_channels", n.NodeChannels, "injection policies and the entropy circuit see one channel per node; use 1 with policy.injection or measure_circuit")
	}
	r := &c.Router
	ioqKind := r.Kind == "ioq"
	switch r.Kind {
	case "vc", "": // the zero value of a Config built in Go is the VC router
		d := Default().Router
		if r.Queues != d.Queues && r.Queues != "" {
			add("router.queues", r.Queues, `applies to router.kind = "ioq" only (the VC router has one queue per VC)`)
		}
		if r.PortMemoryBytes != d.PortMemoryBytes && r.PortMemoryBytes != 0 {
			add("router.port_memory_bytes", r.PortMemoryBytes, `applies to router.kind = "ioq" only; the VC router's buffers are router.buffer_flits per VC`)
		}
		if r.FlitBytes != d.FlitBytes && r.FlitBytes != 0 {
			add("router.flit_bytes", r.FlitBytes, `flit_bytes and link_gbps apply to router.kind = "ioq" only (the VC router counts in flits and cycles)`)
		} else if r.LinkGbps != d.LinkGbps && r.LinkGbps != 0 {
			add("router.link_gbps", r.LinkGbps, `flit_bytes and link_gbps apply to router.kind = "ioq" only (the VC router counts in flits and cycles)`)
		}
		if r.RECN != d.RECN && r.RECN != (RECN{}) {
			key, v := changedKey("router.recn", r.RECN, d.RECN)
			add(key, v, `applies to router.kind = "ioq" with router.queues = "recn" only`)
		}
	case "ioq":
		c.validateIOQ(add)
		if r.Selection != "" && r.Selection != Default().Router.Selection {
			add("router.selection", r.Selection, `applies to router.kind = "vc" only (the ioq switch moves one packet per input and output; its queues are chosen by the organisation)`)
		}
		if r.SelectionTies != "" && r.SelectionTies != Default().Router.SelectionTies {
			add("router.selection_ties", r.SelectionTies, `applies to router.kind = "vc" only (with router.selection = "least-occupied")`)
		}
	default:
		add("router.kind", r.Kind, "allowed: vc (input-queued virtual-channel router), ioq (the RECN paper's input/output-buffered switch)")
	}
	if !ioqKind { // validateIOQ checks the switch's routing and topology
		c.validateVC(add)
	}
	c.validateHAR(add)
	if r.RoutingDelayCycles < 0 || r.RoutingDelayCycles > 1000 {
		add("router.routing_delay_cycles", r.RoutingDelayCycles, "allowed: 0..1000")
	}
	if r.LinkLatencyCycles < 1 || r.LinkLatencyCycles > 1000 {
		add("router.link_latency_cycles", r.LinkLatencyCycles, "allowed: 1..1000")
	}
	if r.CreditLatencyCycles < 1 || r.CreditLatencyCycles > 1000 {
		add("router.credit_latency_cycles", r.CreditLatencyCycles, "allowed: 1..1000")
	}
	t := &c.Traffic
	pats := traffic.Patterns()
	checkPattern := func(key, name string) {
		spec, ok := pats[name]
		if !ok {
			add(key, name, "allowed: "+strings.Join(traffic.PatternNames(), ", "))
			return
		}
		nodes := c.Nodes()
		if spec.Bits && nodes&(nodes-1) != 0 {
			add(key, name, fmt.Sprintf("a bit pattern needs a power-of-two node count; this network has %d nodes", nodes))
		}
		grid := n.Topology != "fattree"
		if spec.Grid && !grid {
			add(key, name, "defined on torus and mesh coordinates only")
		}
		if name == "transpose" && !grid && (nodes&(nodes-1) != 0 || (bits.Len(uint(nodes))-1)%2 != 0) {
			add(key, name, fmt.Sprintf("transpose swaps the halves of the address: needs 2^(2m) nodes; this network has %d", nodes))
		}
	}
	checkPattern("traffic.pattern", t.Pattern)
	if !slices.Contains(traffic.ProcessNames(), t.Process) {
		add("traffic.process", t.Process, "allowed: "+strings.Join(traffic.ProcessNames(), ", "))
	}
	if t.RampCycles < 1 {
		add("traffic.ramp_cycles", t.RampCycles, "allowed: >= 1 cycles")
	}
	if (t.Process == "bernoulli" || t.Process == "poisson" || t.Process == "ramp") && !(t.Load > 0 && t.Load <= 1) {
		add("traffic.load_flits_per_node_cycle", t.Load, "allowed: > 0 and <= 1 flits/node/cycle")
	}
	if t.PacketsPerNode < 1 {
		add("traffic.packets_per_node", t.PacketsPerNode, "allowed: >= 1")
	}
	if t.PacketFlits < 1 || t.PacketFlits > 65535 {
		add("traffic.packet_flits", t.PacketFlits, "allowed: 1..65535")
	}
	if t.LongPacketFlits < 0 || t.LongPacketFlits > 65535 {
		add("traffic.long_packet_flits", t.LongPacketFlits, "allowed: 0 (one packet size) or 1..65535 flits")
	}
	if !(t.LongVolumePercent >= 0 && t.LongVolumePercent <= 100) {
		add("traffic.long_volume_percent", t.LongVolumePercent, "allowed: 0..100 (percent of the traffic volume, in flits, sent in long packets)")
	} else if t.LongVolumePercent > 0 && t.LongPacketFlits == 0 {
		add("traffic.long_volume_percent", t.LongVolumePercent, "needs traffic.long_packet_flits >= 1 (the long packets' size)")
	}
	if !(t.LoadOfWireCapacity >= 0 && t.LoadOfWireCapacity <= 1) {
		add("traffic.load_of_wire_capacity", t.LoadOfWireCapacity, "allowed: 0 (off: load_flits_per_node_cycle applies) or > 0 and <= 1 (share of the wire capacity)")
	} else if t.LoadOfWireCapacity > 0 {
		switch spec, ok := pats[t.Pattern]; {
		case t.Process != "bernoulli" && t.Process != "poisson":
			add("traffic.load_of_wire_capacity", t.LoadOfWireCapacity, "applies to the bernoulli and poisson processes only")
		case t.Load != Default().Traffic.Load:
			add("traffic.load_of_wire_capacity", t.LoadOfWireCapacity, "give the offered load either here or in load_flits_per_node_cycle, not both")
		case ok && t.Pattern != "uniform" && !spec.Permutes:
			add("traffic.load_of_wire_capacity", t.LoadOfWireCapacity, fmt.Sprintf("needs the mean route length of the pattern: defined for uniform and permutation patterns, not %q", t.Pattern))
		case n.Topology == "fattree":
			add("traffic.load_of_wire_capacity", t.LoadOfWireCapacity, "defined on meshes and tori")
		case c.Nodes() > 1<<14:
			add("traffic.load_of_wire_capacity", t.LoadOfWireCapacity, fmt.Sprintf("the mean route length is computed over all node pairs: at most 16384 nodes (this network has %d)", c.Nodes()))
		}
	}
	if t.LoadOfBisection != 0 {
		key, v := "traffic.load_of_bisection", t.LoadOfBisection
		switch {
		case !(v > 0):
			add(key, v, "allowed: 0 (off: load_flits_per_node_cycle applies) or > 0 (share of twice the bisection bandwidth)")
		case t.Process != "bernoulli" && t.Process != "poisson":
			add(key, v, "applies to the bernoulli and poisson processes only")
		case t.Load != Default().Traffic.Load || t.LoadOfWireCapacity > 0:
			add(key, v, "give the offered load in one key only: load_of_bisection, load_of_wire_capacity or load_flits_per_node_cycle")
		case n.Topology != "mesh" && n.Topology != "torus":
			add(key, v, "defined on meshes and tori")
		default:
			if bis, err := c.Bisection(); err == nil && v*bis.FlitsPerNodeCycle > 1 {
				add(key, v, fmt.Sprintf("allowed: at most %.4g here (a node injects at most 1 flit per cycle; 1 is %.4g flits/node/cycle on this network)", 1/bis.FlitsPerNodeCycle, bis.FlitsPerNodeCycle))
			}
		}
	}
	if !(t.HotspotFraction >= 0 && t.HotspotFraction <= 1) {
		add("traffic.hotspot_fraction", t.HotspotFraction, "allowed: 0..1")
	}
	if !(t.HotspotSourceFraction >= 0 && t.HotspotSourceFraction <= 1) {
		add("traffic.hotspot_source_fraction", t.HotspotSourceFraction, "allowed: 0..1 (a share of the sources)")
	}
	if _, err := traffic.ParseSelfMode(t.Self); err != nil {
		var docs []string
		for _, m := range traffic.SelfModeNames() {
			docs = append(docs, m+" ("+traffic.SelfModeDoc(m)+")")
		}
		add("traffic.self", t.Self, "allowed: "+strings.Join(docs, "; "))
	}
	if t.SourceQueuePackets < 0 || t.SourceQueuePackets > traffic.MaxQueuePackets {
		add("traffic.source_queue_packets", t.SourceQueuePackets, fmt.Sprintf("allowed: 0 (unbounded) or 1..%d packets", traffic.MaxQueuePackets))
	} else if t.SourceQueuePackets > 0 && t.Process != "bernoulli" && t.Process != "poisson" && t.Process != "ramp" {
		add("traffic.source_queue_packets", t.SourceQueuePackets, fmt.Sprintf("applies to the bernoulli, poisson and ramp processes (arrivals wait while the queue is full); the %s process never queues more than it needs: use 0", t.Process))
	} else if t.SourceQueuePackets > 0 && n.NodeChannels == 2 {
		add("traffic.source_queue_packets", t.SourceQueuePackets, "bounds the one source queue of a node; with network.node_channels = 2 (a queue per message class) use 0")
	}
	if !(t.HotRegionFraction >= 0 && t.HotRegionFraction <= 1) {
		add("traffic.hot_region_fraction", t.HotRegionFraction, "allowed: 0..1")
	}
	if nodes := c.Nodes(); t.HotspotNode < -1 || t.HotspotNode >= nodes {
		add("traffic.hotspot_node", t.HotspotNode, fmt.Sprintf("allowed: -1 (the centre) or 0..%d", nodes-1))
	}
	if t.PhaseCycle < 0 {
		add("traffic.phase_cycle", t.PhaseCycle, "allowed: 0 (no phase change) or a cycle > 0")
	} else if t.PhaseCycle > 0 {
		checkPattern("traffic.phase_pattern", t.PhasePattern)
	}
	pol := &c.Policy
	pctKeys := []struct {
		key string
		v   float64
	}{{"policy.r_th_percent", pol.RthPercent}, {"policy.r_on_percent", pol.ROnPercent}, {"policy.r_off_percent", pol.ROffPercent}, {"policy.r_n_percent", pol.RnPercent}}
	pctOK := true
	for _, k := range pctKeys {
		if !(k.v >= 0 && k.v <= 100) {
			add(k.key, k.v, "allowed: 0..100 (percent, as the entropy papers write thresholds)")
			pctOK = false
		}
	}
	if pol.GuardCycles < 0 || pol.GuardCycles > 1_000_000 {
		add("policy.guard_cycles", pol.GuardCycles, "allowed: 0..1000000 (t_G, cycles)")
		pctOK = false
	}
	if pctOK {
		if gp, hasArgs, err := pol.Gate(); err != nil {
			add("policy.injection", pol.Injection, err.Error())
		} else if gp.Model == policies.SAT {
			d := Default().Policy
			if hasArgs && (pol.SATL != d.SATL || pol.SATK != d.SATK || pol.SATStructure != d.SATStructure) {
				add("policy.injection", pol.Injection, "give SAT's parameters either as arguments here or in the sat_l, sat_k and sat_structure keys (with injection = \"sat\"), not both")
			} else if topo, err := c.Topology(); err == nil {
				if err := policies.CheckSATTopology(topo, gp.SAT.Tree); err != nil {
					add("policy.injection", pol.Injection, err.Error())
				}
			}
		} else if hasArgs {
			d := Default().Policy
			if pol.RthPercent != d.RthPercent || pol.ROnPercent != d.ROnPercent || pol.ROffPercent != d.ROffPercent || pol.RnPercent != d.RnPercent || pol.GuardCycles != d.GuardCycles {
				add("policy.injection", pol.Injection, "give the model's parameters either as arguments here or in the r_*_percent and guard_cycles keys, not both")
			}
		}
	}
	switch pol.Circuit {
	case "auto", "tree":
	case "grid":
		if n.Topology == "fattree" {
			add("policy.circuit", pol.Circuit, "the grid circuit needs a torus or mesh; use tree (or auto) on a fat-tree")
		}
	default:
		add("policy.circuit", pol.Circuit, "allowed: auto, grid, tree")
	}
	if _, err := link.ParseMode(pol.CircuitLanes); err != nil {
		add("policy.circuit_lanes", pol.CircuitLanes, "allowed: dedicated (a register value crosses every cycle), steal (only in cycles the link carries no flit)")
	}
	if pol.CircuitLatencyCycles < 1 || pol.CircuitLatencyCycles > 1000 {
		add("policy.circuit_latency_cycles", pol.CircuitLatencyCycles, "allowed: 1..1000")
	}
	if pol.SATStructure != "ring" && pol.SATStructure != "tree" {
		add("policy.sat_structure", pol.SATStructure, "allowed: ring (the Hamiltonian virtual ring), tree (the spanning tree, SS)")
	}
	if pol.SATHopLatencyCycles < 1 || pol.SATHopLatencyCycles > 1000 {
		add("policy.sat_hop_latency_cycles", pol.SATHopLatencyCycles, "allowed: 1..1000 cycles per link")
	}
	if pol.SATNodeLatencyCycles < 0 || pol.SATNodeLatencyCycles > 1000 {
		add("policy.sat_node_latency_cycles", pol.SATNodeLatencyCycles, "allowed: 0..1000 cycles")
	}
	m := &c.Measure
	if m.WarmupCycles < -1 {
		add("measure.warmup_cycles", m.WarmupCycles, "allowed: >= 0, or -1 for the method's default (10000; 50000 for packet-batches)")
	}
	if m.MeasureCycles < 1 {
		add("measure.measure_cycles", m.MeasureCycles, "allowed: >= 1")
	}
	if m.Method != "window" && m.Method != "batches" && m.Method != "packet-batches" {
		add("measure.method", m.Method, "allowed: window, batches, packet-batches")
	} else if m.Method == "packet-batches" && t.Process == "collective" {
		add("measure.method", m.Method, "packet-batches measures a steady process (saturation, bernoulli, poisson), not a collective")
	}
	if m.BatchPackets < 0 {
		add("measure.batch_packets", m.BatchPackets, "allowed: 0 (10 x nodes^2) or >= 1 delivered packets per batch")
	}
	if m.Method == "packet-batches" && (m.PacketBatches < 1 || m.PacketBatches > 10000) {
		add("measure.packet_batches", m.PacketBatches, "allowed: 1..10000 batches")
	}
	if m.BatchCycles < 1 {
		add("measure.batch_cycles", m.BatchCycles, "allowed: >= 1")
	}
	if m.MinBatches < 2 || m.MaxBatches < m.MinBatches {
		add("measure.min_batches", m.MinBatches, "allowed: 2 <= min_batches <= max_batches")
	}
	if !(m.Tolerance > 0 && m.Tolerance < 1) {
		add("measure.tolerance", m.Tolerance, "allowed: > 0 and < 1 (relative half-width of the batch means' 95% interval)")
	}
	if m.DrainCycles < 0 {
		add("measure.drain_cycles", m.DrainCycles, "allowed: >= 0")
	}
	if m.MaxCycles < 1 {
		add("measure.max_cycles", m.MaxCycles, "allowed: >= 1")
	} else if t.Process != "collective" && m.Method == "window" && m.WarmupCycles >= -1 && m.MeasureCycles >= 1 && m.MaxCycles < m.Warmup()+m.MeasureCycles {
		add("measure.max_cycles", m.MaxCycles, fmt.Sprintf("allowed: >= warmup_cycles + measure_cycles = %d (the run must reach the end of its measurement window)", m.Warmup()+m.MeasureCycles))
	}
	// A queue legitimately waits a routing delay, link and credit latencies
	// and a packet's serialisation; the watchdog needs a wide margin above.
	if floor := 10 * int64(r.RoutingDelayCycles+r.LinkLatencyCycles+r.CreditLatencyCycles+c.maxPacketFlits()); m.WatchdogCycles != 0 && m.WatchdogCycles < floor {
		add("measure.watchdog_cycles", m.WatchdogCycles, fmt.Sprintf("allowed: 0 (off) or >= %d (10 x (routing delay + link and credit latencies + packet length))", floor))
	}
	if m.SampleCycles < 0 {
		add("measure.sample_cycles", m.SampleCycles, "allowed: 0 (no time series) or >= 1")
	}
	if m.SmoothSamples < 1 {
		add("measure.smooth_samples", m.SmoothSamples, "allowed: >= 1 samples")
	}
	if t.Process == "ramp" && m.SampleCycles < 1 {
		add("measure.sample_cycles", m.SampleCycles, "the ramp process finds the critical load from the time series: allowed >= 1")
	}
	if m.StallCycles < 0 {
		add("measure.stall_cycles", m.StallCycles, "allowed: 0 (off) or >= 1")
	}
	return errs
}

// validateVC checks the VC router's routing and buffer keys.
func (c *Config) validateVC(add func(key string, v any, allowed string)) {
	r, n := &c.Router, &c.Network
	if spec, ok := router.Routings()[r.Routing]; !ok {
		add("router.routing", r.Routing, "allowed: "+strings.Join(routingNames(), ", "))
	} else if !slices.Contains(spec.Topologies, n.Topology) {
		add("router.routing", r.Routing, fmt.Sprintf("defined on %s only; for a %s use %s",
			strings.Join(spec.Topologies, ", "), n.Topology, strings.Join(routingsFor(n.Topology), ", ")))
	}
	if r.VCs < 1 || r.VCs > 64 {
		add("router.vcs", r.VCs, "allowed: 1..64")
	}
	if r.BufferFlits < 1 || r.BufferFlits > 32768 {
		add("router.buffer_flits", r.BufferFlits, "allowed: 1..32768 flits per VC")
	}
	if sel, err := router.ParseSelection(r.Selection); err != nil {
		add("router.selection", r.Selection, "allowed: "+strings.Join(router.SelectionNames(), ", ")+" (free-most-credits: a free VC with room, most credits; least-occupied: FSIN's, the least occupied VC offered, waited for)")
	} else if spec, ok := router.Routings()[r.Routing]; ok && sel == router.SelectLeastOccupied && spec.EscapeLevel {
		add("router.selection", r.Selection, fmt.Sprintf("least-occupied waits for the least occupied VC offered, and routing %q offers an escape level after its adaptive one that a head must be free to take: use free-most-credits, or a routing without an escape level (%s)", r.Routing, strings.Join(routingsWithoutEscape(), ", ")))
	}
	if ties, err := router.ParseSelectionTies(r.SelectionTies); err != nil {
		add("router.selection_ties", r.SelectionTies, "allowed: "+strings.Join(router.SelectionTiesNames(), ", ")+" (how least-occupied breaks a tie: a rotating pointer, a uniform draw, or FSIN's draw)")
	} else if sel, err := router.ParseSelection(r.Selection); err == nil && ties != router.TiesRotation && sel != router.SelectLeastOccupied {
		add("router.selection_ties", r.SelectionTies, fmt.Sprintf("breaks ties of router.selection = \"least-occupied\" only (router.selection is %q, which ties by rotation): set router.selection = \"least-occupied\" or leave selection_ties at \"rotation\"", sel))
	}
	sw, err := router.ParseSwitching(r.Switching)
	if err != nil {
		add("router.switching", r.Switching, "allowed: vct, wormhole")
	} else if sw == router.VirtualCutThrough && r.BufferFlits >= 1 && r.BufferFlits < c.maxPacketFlits() {
		add("router.buffer_flits", r.BufferFlits, fmt.Sprintf("virtual cut-through needs a whole packet per buffer: at least %d flits, the largest packet (or switching = \"wormhole\")", c.maxPacketFlits()))
	}
}

// routingsWithoutEscape lists the routing functions whose candidates form
// one level, sorted.
func routingsWithoutEscape() []string {
	var names []string
	for _, n := range routingNames() {
		if !router.Routings()[n].EscapeLevel {
			names = append(names, n)
		}
	}
	return names
}

func routingNames() []string {
	var names []string
	for n := range router.Routings() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func routingsFor(topo string) []string {
	var names []string
	for n, s := range router.Routings() {
		if slices.Contains(s.Topologies, topo) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// Nodes is the number of nodes of the configured network.
func (c *Config) Nodes() int {
	n := c.Network
	if n.Topology == "fattree" {
		nodes := 1
		for range min(max(n.Levels, 0), 10) {
			nodes *= max(n.K, 0)
		}
		return nodes
	}
	return n.K * n.K * max(n.Concentration, 1)
}

// Topology builds the configuration's topology, with the node channels
// and the loopback ports its routing function needs.
func (c *Config) Topology() (link.Topology, error) {
	var t link.Topology
	var err error
	switch c.Network.Topology {
	case "torus":
		t, err = link.NewTorus(c.Network.K)
	case "fattree":
		t, err = link.NewFatTree(c.Network.K, c.Network.Levels)
	default:
		t, err = link.NewMesh(c.Network.K, c.Network.Concentration)
	}
	if err != nil {
		return nil, err
	}
	return router.WithPorts(t, c.Router.Routing, max(c.Network.NodeChannels, 1))
}

// longShare is the share of the traffic volume in long packets.
func (c *Config) longShare() float64 {
	if c.Traffic.LongPacketFlits <= 0 {
		return 0
	}
	return c.Traffic.LongVolumePercent / 100
}

// maxPacketFlits is the largest packet the traffic sends.
func (c *Config) maxPacketFlits() int {
	if c.longShare() > 0 {
		return max(c.Traffic.PacketFlits, c.Traffic.LongPacketFlits)
	}
	return c.Traffic.PacketFlits
}

// minPacketFlits is the smallest packet the traffic sends.
func (c *Config) minPacketFlits() int {
	switch s := c.longShare(); {
	case s >= 1:
		return c.Traffic.LongPacketFlits
	case s > 0:
		return min(c.Traffic.PacketFlits, c.Traffic.LongPacketFlits)
	}
	return c.Traffic.PacketFlits
}

// Geometry is what traffic patterns need to know of the topology.
func Geometry(t link.Topology) traffic.Geometry {
	if g, ok := t.(*link.Grid2D); ok {
		return traffic.Geometry{Nodes: g.Nodes(), K: g.K, C: g.C}
	}
	return traffic.Geometry{Nodes: t.Nodes()}
}

// RouterConfig is the router package's view of the configuration.
func (c *Config) RouterConfig() router.Config {
	sw, _ := router.ParseSwitching(c.Router.Switching)
	sel, _ := router.ParseSelection(c.Router.Selection)
	ties, _ := router.ParseSelectionTies(c.Router.SelectionTies)
	return router.Config{Routing: c.Router.Routing, VCs: c.Router.VCs, BufferFlits: c.Router.BufferFlits, Switching: sw,
		RoutingDelayCycles: c.Router.RoutingDelayCycles, LinkLatencyCycles: c.Router.LinkLatencyCycles,
		CreditLatencyCycles: c.Router.CreditLatencyCycles, MaxPacketFlits: c.maxPacketFlits(), MinPacketFlits: c.minPacketFlits(),
		AllowDeadlock: c.Router.AllowDeadlock, Selection: sel, HARFree: c.harFree(),
		SelectionTies: ties, SelectionSeed: c.Seed ^ 0x5e1e_c7_7135}
}

// TrafficConfig is the traffic package's view of the configuration. With
// traffic.load_of_wire_capacity it computes the wire capacity (all node
// pairs' route lengths under uniform traffic); a run does so once (Build).
func (c *Config) TrafficConfig() traffic.Config {
	u, _ := c.loadUnits() // Validate has refused the configurations it fails on
	return c.trafficConfig(u)
}

// loadUnits are the units the load is given in, when not in
// flits/node/cycle: nil fields for those not used.
type loadUnits struct {
	wire      *report.WireCapacity
	bisection *report.Bisection
}

func (c *Config) loadUnits() (loadUnits, error) {
	var u loadUnits
	var err error
	if c.Traffic.LoadOfWireCapacity > 0 {
		if u.wire, err = c.WireCapacity(); err != nil {
			return u, err
		}
	}
	if c.Traffic.LoadOfBisection > 0 {
		if u.bisection, err = c.Bisection(); err != nil {
			return u, err
		}
	}
	return u, nil
}

// trafficConfig is TrafficConfig given the units of the load.
func (c *Config) trafficConfig(u loadUnits) traffic.Config {
	t := c.Traffic
	load := t.Load
	if t.LoadOfWireCapacity > 0 && u.wire != nil {
		load = t.LoadOfWireCapacity * u.wire.FlitsPerNodeCycle
	}
	if t.LoadOfBisection > 0 && u.bisection != nil {
		load = t.LoadOfBisection * u.bisection.FlitsPerNodeCycle
	}
	var long int
	if c.longShare() > 0 {
		long = t.LongPacketFlits
	}
	self, _ := traffic.ParseSelfMode(t.Self)
	return traffic.Config{Pattern: t.Pattern, Process: t.Process, LoadFlits: load, PacketsPerNode: t.PacketsPerNode,
		PacketFlits: t.PacketFlits, LongFlits: long, LongVolumeShare: c.longShare(),
		PhaseCycle: t.PhaseCycle, PhasePattern: t.PhasePattern, RampCycles: t.RampCycles, Self: self, QueuePackets: t.SourceQueuePackets,
		PatternParams: traffic.PatternParams{HotspotFraction: t.HotspotFraction, HotspotSourceFraction: t.HotspotSourceFraction, HotspotNode: t.HotspotNode, HotRegionFraction: t.HotRegionFraction}}
}
