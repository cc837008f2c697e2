package study

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/router/ioq"
	"github.com/icnsim/icnsim/router/vc"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/traffic"
	"github.com/icnsim/icnsim/workload"
)

// Estimate is what running a configuration takes, computed from its
// network's size without building it (linear in the routers, allocating
// nothing large), so that a network too large for the machine is refused
// before it is built.
type Estimate struct {
	Routers, Nodes, Ports int
	// NetworkBytes is the routers, NIs and wires with their pools and the
	// network's tables; MeasureBytes the collectors (latency histograms
	// reserved over latencyRangeCycles) and traffic sources;
	// PolicyBytes the entropy circuit and gates.
	NetworkBytes, MeasureBytes, PolicyBytes int64
	// CheckBytes is the deadlock check's memory at its largest (its graph,
	// or the abstract states of Duato's check), garbage before the network
	// is allocated.
	CheckBytes int64
	// RunBytes is the resident memory of a run below saturation: the
	// above and RuntimeBytes. Past saturation the source queues grow
	// beyond it, by 16 bytes per packet waiting.
	RunBytes int64
	// PeakBytes is the most the build may hold at once: RunBytes and the
	// check's graph.
	PeakBytes int64
	// BuildSeconds is the expected time to check and build the network.
	BuildSeconds float64
	// FullMemories says NetworkBytes is the input/output-buffered switch's
	// bound with every memory full, whatever the load.
	FullMemories bool
}

// RuntimeBytes is the memory a run takes beside its network: the program,
// the Go runtime and its garbage collector's bookkeeping (a 32x32 torus
// bench process holds about 14 MiB besides its 5 MiB of network).
const RuntimeBytes = 16 << 20

// The time to check and build a network of the VC router beside touching
// its memory (buildSecondsPerByte) is its routing's (routing.Spec's
// BuildSeconds): the deadlock check and the per-port work of Build, on a
// dragonfly or HyperX growing with the routers' radix. Measured on the
// 2-vCPU development machine over three sizes each (tori and meshes of
// 64x64 to 256x256 with 1 KB of state per port, 4-ary 5- to 7-trees;
// dragonflies of a = 12..20, radix 23..39; HyperX of 2, 3 and 4
// dimensions, radix 24..64; graphs from files), the least of three builds
// after returning the heap to the operating system
// (TestBuildSecondsEstimate).

// buildSecondsPerByte is the time to touch fresh memory: a page fault and
// zeroing per 4 KiB page, about 0.4 ms per MB on the development machine
// (a run builds in a fresh process, whose heap comes from the system).
const buildSecondsPerByte = 0.4e-9

// ioqBuildSecondsPerPortNode is the build time of the input/output-buffered
// switch per port and node of the network: its build grows as ports times
// nodes (1.8, 5.3 and 21 us per port for 32x32, 64x64 and 128x128 meshes
// of mesh16-ioq-uniform), plus ioqBuildSecondsPerPort.
const (
	ioqBuildSecondsPerPortNode = 1.26e-9
	ioqBuildSecondsPerPort     = 0.5e-6
)

// EstimateRun computes the estimate of a valid configuration.
func EstimateRun(cfg Config) (Estimate, error) {
	topo, err := cfg.Topology()
	if err != nil {
		return Estimate{}, err
	}
	e := cfg.routerKind().estimate(cfg, topo)
	for r := 0; r < topo.Routers(); r++ {
		e.Ports += topo.Ports(r)
	}
	// The load's units (wire capacity, bisection) take a pass over the
	// network to compute and change no memory: left out, so that the
	// estimate stays cheap before the memory guard.
	tc := cfg.trafficConfig(loadUnits{})
	// The latency range the collectors reserve (see build); a graph's
	// diameter takes a search from every router with nodes, so its bound.
	diameter := topo.Diameter
	if b, ok := topo.(interface{ DiameterBound() int }); ok {
		diameter = b.DiameterBound
	}
	zl := vc.ZeroLoadLatency(cfg.RouterConfig(), diameter(), tc.MaxPacketFlits())
	e.MeasureBytes = int64(e.Nodes) * (report.CollectorBytes(latencyRangeCycles(zl)) + traffic.SourceBytes(tc))
	if cfg.Traffic.Process == "job" {
		e.MeasureBytes += workload.Bytes(cfg.Workload.Motif, cfg.workloadParams())
	}
	if t := cfg.Traffic; t.Process == "request-reply" {
		// Each node's server: an ejection buffer of the VCs' depth (32-byte
		// flits), its requests in service and its replies' queue at their
		// bound (24 and 24 bytes a request).
		e.MeasureBytes += int64(e.Nodes) * (int64(cfg.Router.VC.VCs)*int64(cfg.Router.VC.BufferFlits)*32 + 48*int64(t.ServerQueuePackets))
	}
	policySeconds := 0.0
	if ps, err := cfg.policies(); err == nil {
		for _, p := range ps {
			pe := p.Estimate(topo)
			e.PolicyBytes += pe.Bytes
			policySeconds += pe.BuildSeconds
		}
	}
	if cfg.Measure.Method == "packet-batches" && cfg.Traffic.Process != "collective" {
		// The injection matrix: the NIs' counts and two snapshots, and the
		// result's copy.
		e.MeasureBytes += 4 * 4 * int64(e.Nodes) * int64(e.Nodes)
	}
	e.RunBytes = e.NetworkBytes + e.MeasureBytes + e.PolicyBytes + RuntimeBytes
	e.PeakBytes = e.RunBytes + e.CheckBytes
	if e.FullMemories {
		// NetworkBytes is a bound the switch allocates only as it fills.
		e.BuildSeconds = float64(e.Ports) * (ioqBuildSecondsPerPort + float64(e.Nodes)*ioqBuildSecondsPerPortNode)
	} else {
		check := float64(e.Ports) * routing.DefaultSecondsPerPort
		if spec := Routings()[cfg.Router.Routing]; spec.BuildSeconds != nil {
			check = spec.BuildSeconds(topo, cfg.Router.VC.VCs)
		}
		e.BuildSeconds = check + float64(e.PeakBytes-RuntimeBytes)*buildSecondsPerByte
	}
	e.BuildSeconds += policySeconds
	return e, nil
}

// String is the estimate as validate prints it.
func (e Estimate) String() string {
	var b strings.Builder
	when := "about %s to run below saturation"
	if e.FullMemories {
		when = "at most %s with every switch memory full"
	}
	fmt.Fprintf(&b, "%d routers, %d nodes: "+when+" (network %s, measurement %s",
		e.Routers, e.Nodes, FormatBytes(uint64(e.RunBytes)), FormatBytes(uint64(e.NetworkBytes)), FormatBytes(uint64(e.MeasureBytes)))
	if e.PolicyBytes > 0 {
		fmt.Fprintf(&b, ", policy %s", FormatBytes(uint64(e.PolicyBytes)))
	}
	fmt.Fprintf(&b, ", runtime %s), %s at most while building; %s to build", FormatBytes(RuntimeBytes),
		FormatBytes(uint64(e.PeakBytes)), formatSeconds(e.BuildSeconds))
	return b.String()
}

func formatSeconds(s float64) string {
	if s < 0.1 {
		return "under 0.1 s"
	}
	return fmt.Sprintf("about %.1f s", s)
}

// DefaultMemoryShare is the share of the machine's memory (PhysicalMemory)
// that a run or study may be estimated to need before run and bench refuse
// it, unless --max-memory says otherwise.
const DefaultMemoryShare = 0.75

// PhysicalMemory is the memory this process may use: the machine's
// (MemTotal in /proc/meminfo), or its control group's limit when lower
// (cgroup v2 memory.max, v1 memory.limit_in_bytes: a batch scheduler's
// allocation); 0 where neither can be read.
func PhysicalMemory() uint64 {
	var total uint64
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				if f := strings.Fields(rest); len(f) == 2 && f[1] == "kB" {
					if kb, err := strconv.ParseUint(f[0], 10, 64); err == nil {
						total = kb << 10
					}
				}
			}
		}
	}
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(p); err == nil {
			if v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 && (total == 0 || v < total) {
				total = v
			}
		}
	}
	return total
}

// MemoryLimit is the most memory a run or study may be estimated to need;
// Bytes 0 means no limit. Why says where it comes from, for errors.
type MemoryLimit struct {
	Bytes uint64
	Why   string
}

// ParseMemoryLimit reads a --max-memory value: a size with a unit (B,
// KiB, MiB, GiB, TiB, or KB, MB, GB, TB in powers of ten; a plain decimal
// number before it, such as 8GiB or 1.5 GiB), a share of the machine's
// memory ("50%", above 0 and at most 100), or "off" for no limit. The
// empty string is the default, DefaultMemoryShare of the machine's memory
// (no limit where that is unknown). A limit must come to at least one page
// (MinMemoryLimit bytes): 0, 0B or 0.5B would otherwise mean no limit
// while looking like a tiny one, so they are refused with a pointer to off;
// so are NaN, Inf and numbers that are not plain decimals.
func ParseMemoryLimit(s string) (MemoryLimit, error) {
	return parseMemoryLimit(s, PhysicalMemory)
}

// CheckMemory refuses a run of cfg, jobs of them at once, whose estimate
// exceeds the limit, naming the estimate, the limit and the keys that
// drive them.
func CheckMemory(cfg Config, jobs int, limit MemoryLimit) error {
	if limit.Bytes == 0 {
		return nil
	}
	e, err := EstimateRun(cfg)
	if err != nil {
		return err
	}
	jobs = max(jobs, 1)
	need := uint64(RuntimeBytes) + uint64(jobs)*uint64(e.PeakBytes-RuntimeBytes)
	if need <= limit.Bytes {
		return nil
	}
	var keys []string
	if t, path := cfg.Network.table(); t != nil {
		keys = append(keys, t.SizeWords(path, e.Routers))
	}
	keys = append(keys, cfg.routerKind().growsWith(cfg))
	if jobs > 1 {
		keys = append(keys, fmt.Sprintf("%d runs at once (--jobs)", jobs))
	}
	return fmt.Errorf("%q needs an estimated %s (%s per run, of which the network %s, about %.1f KiB per router with its nodes), more than the limit of %s (%s); the estimate grows with %s; lower them, or raise the limit with --max-memory",
		cfg.Name, FormatBytes(need), FormatBytes(uint64(e.PeakBytes)), FormatBytes(uint64(e.NetworkBytes)),
		float64(e.NetworkBytes+e.MeasureBytes)/float64(max(e.Routers, 1))/1024, FormatBytes(limit.Bytes), limit.Why, strings.Join(keys, ", "))
}

// estimateIOQ is the switch's network in the estimate: its state grows
// with what it buffers, so its bound, every memory full, rather than a run
// below saturation.
func estimateIOQ(cfg Config, topo topology.Topology) Estimate {
	return Estimate{Routers: topo.Routers(), Nodes: topo.Nodes(), NetworkBytes: ioq.MostStateBytes(topo, cfg.IOQConfig()), FullMemories: true}
}

// estimateVC is the VC routers' network in the estimate, and their
// deadlock check's memory.
func estimateVC(cfg Config, topo topology.Topology) Estimate {
	fp := vc.EstimateFootprint(topo, cfg.RouterConfig())
	return Estimate{Routers: topo.Routers(), Nodes: topo.Nodes(), NetworkBytes: fp.StateBytes + fp.TableBytes, CheckBytes: fp.CheckBytes}
}
