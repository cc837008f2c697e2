package study

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/internal/keys"
	"github.com/icnsim/icnsim/policies"
	"github.com/icnsim/icnsim/policies/sat"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/router/ioq"
	"github.com/icnsim/icnsim/router/vc"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/dragonflyplus"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/graph"
	"github.com/icnsim/icnsim/topology/grid"
	"github.com/icnsim/icnsim/topology/hyperx"
	"github.com/icnsim/icnsim/topology/slimfly"
)

// The catalog: the one file that names every topology family, router kind,
// policy and routing registry the study layer composes.

// families are the topology families' configuration tables, one per
// value of network.topology (its TOML key), in the order documentation
// and errors list them.
type families struct {
	Torus         grid.TorusConfig     `toml:"torus,omitempty"`
	Mesh          grid.MeshConfig      `toml:"mesh,omitempty"`
	FatTree       fattree.Config       `toml:"fattree,omitempty"`
	Dragonfly     dragonfly.Config     `toml:"dragonfly,omitempty"`
	DragonflyPlus dragonflyplus.Config `toml:"dragonflyplus,omitempty"`
	HyperX        hyperx.Config        `toml:"hyperx,omitempty"`
	SlimFly       slimfly.Config       `toml:"slimfly,omitempty"`
	File          graph.Config         `toml:"file,omitempty"`
}

// kinds are the router kinds' configuration tables, one per value of
// router.kind (its TOML key), in the order documentation and errors list
// them.
type kinds struct {
	VC  vc.Table  `toml:"vc,omitempty"`
	IOQ ioq.Table `toml:"ioq,omitempty"`
}

// defaultNetwork is the built-in scenario's 32x32 torus, and each
// family's table as the keys it leaves out are filled in (k = 32 where a
// family has k, three fat-tree levels, one node and one channel per
// router of a grid).
func defaultNetwork() Network {
	return Network{Topology: "torus", families: families{
		Torus:   grid.TorusConfig{K: grid.Side(32), NodeChannels: 1},
		Mesh:    grid.MeshConfig{K: grid.Side(32), Concentration: 1, NodeChannels: 1},
		FatTree: fattree.Config{K: 32, Levels: 3},
		HyperX:  hyperx.Config{K: 32},
	}}
}

// withoutCaches is f without what a table read with its study (a file's
// graph), for comparing tables by their keys.
func (f families) withoutCaches() families {
	f.File = f.File.WithoutCache()
	return f
}

// RoutingList is every routing function of every family of the catalog,
// in the families' order: each family's own (Routings; a function two
// families share, as the grid's on tori and meshes, once), and the shared
// non-minimal ones (routing.NonMinimalSpecs) of every family that offers
// them, where the first of those stands.
func RoutingList() []routing.Spec {
	var l []routing.Spec
	var nonMinimal []routing.NonMinimalFamily
	at := -1
	tables := reflect.ValueOf(&families{}).Elem()
	for i := range tables.NumField() {
		t := tables.Field(i).Addr().Interface()
		if r, ok := t.(interface{ Routings() []routing.Spec }); ok {
			for _, s := range r.Routings() {
				if !slices.ContainsFunc(l, func(o routing.Spec) bool { return o.Name == s.Name }) {
					l = append(l, s)
				}
			}
		}
		if nm, ok := t.(interface {
			NonMinimalFamily() routing.NonMinimalFamily
		}); ok {
			if at < 0 {
				at = len(l)
			}
			nonMinimal = append(nonMinimal, nm.NonMinimalFamily())
		}
	}
	if at >= 0 {
		l = slices.Insert(l, at, routing.NonMinimalSpecs(nonMinimal...)...)
	}
	return l
}

// Routings is RoutingList by name.
func Routings() map[string]routing.Spec { return routing.ByName(RoutingList()) }

// routingSpec is the registry entry of the configuration's routing (the
// zero Spec, which builds nothing, for an unknown name: validation names
// it first).
func (c *Config) routingSpec() routing.Spec { return Routings()[c.Router.Routing] }

// routerKind is one router.kind: how a configuration's network of that
// kind is checked, estimated and built.
type routerKind struct {
	check func(ctx context.Context, cfg Config, topo topology.Topology) error
	build func(ctx context.Context, b *Built, topo topology.Topology, srcs []fabric.Source, sinks []fabric.Sink, deadlockChecked bool) error
	// estimate is the network's part of the memory estimate.
	estimate func(cfg Config, topo topology.Topology) Estimate
	// growsWith is the router key the network's memory grows with, in
	// words, for the estimate's refusal.
	growsWith func(cfg Config) string
	// switchInfo, where set, describes the switch in the result.
	switchInfo func(cfg Config) *report.SwitchInfo
	// observers, where set, are the kind's own parts in a run.
	observers func(b *Built) []observer
}

// routerKinds are the router kinds by router.kind.
func routerKinds() map[string]routerKind {
	return map[string]routerKind{
		"vc": {check: checkVC, build: buildVC, estimate: estimateVC,
			growsWith: func(cfg Config) string { return fmt.Sprintf("router.vc.vcs = %d", cfg.Router.VC.VCs) }},
		"ioq": {check: checkIOQ, build: buildIOQ, estimate: estimateIOQ, observers: ioqObservers,
			growsWith: func(cfg Config) string {
				return fmt.Sprintf("router.ioq.port_memory_bytes = %d (the switch's state is bounded by every memory full)", cfg.Router.IOQ.PortMemoryBytes)
			},
			switchInfo: func(cfg Config) *report.SwitchInfo {
				return &report.SwitchInfo{Queues: cfg.Router.IOQ.Queues, PortMemoryFlits: cfg.IOQConfig().PortMemoryFlits,
					FlitBytes: cfg.Router.IOQ.FlitBytes, CycleNs: report.Ratio(cfg.CycleNs(), 1)}
			}},
	}
}

// routerKind is the configuration's router kind (router.kind; "" is vc,
// the zero value of a Config built in Go).
func (c *Config) routerKind() routerKind {
	if k, ok := routerKinds()[c.Router.Kind]; ok {
		return k
	}
	return routerKinds()["vc"]
}

// routerKindNames are the values of router.kind: the tables of the
// catalog's router kinds, in its order.
func routerKindNames() []string { return selectors()[1].names() }

// kindTable is a router kind's table: what the study layer asks of it
// beyond its keys.
type kindTable interface {
	// KeyDocs documents its keys for the commented default configuration.
	KeyDocs() []keys.Doc
}

// kindTable is the table of router kind name (nil for a name that is
// none).
func (r *Router) kindTable(name string) kindTable {
	v := reflect.ValueOf(&r.kinds).Elem()
	for i := range v.NumField() {
		if tomlName(v.Type().Field(i)) == name {
			return v.Field(i).Interface().(kindTable)
		}
	}
	return nil
}

// injectionPolicy is one policy of the catalog that gates injection: the
// values of policy.injection it reads (models) and how it reads one with
// the defaults of the [policy] keys (parse); optionally how its keys are
// checked against the parsed value (validate), what it installs beside
// another policy's gate (beside), the key behind a refusal of its Check
// (refused), and its part in a run's results (observe).
type injectionPolicy struct {
	models   func() []policies.Model
	parse    func(c *Config) (policies.Policy, bool, error)
	validate func(c *Config, add addFunc, p policies.Policy, hasArgs bool)
	beside   func(c *Config) policies.Policy
	refused  func(c *Config, p policies.Policy, err error) error
	observe  func(r policies.Running, b *Built) observer
}

// injectionPolicies are the catalog's injection policies, one line each.
func injectionPolicies() []injectionPolicy {
	return []injectionPolicy{
		{models: entropyModels, parse: parseEntropyGate, validate: validateEntropyGate, beside: entropyBeside, refused: entropyRefused, observe: observeEntropy},
		{models: func() []policies.Model { return []policies.Model{sat.Model()} }, parse: parseSATGate, validate: validateSATGate, observe: observeSAT},
	}
}
