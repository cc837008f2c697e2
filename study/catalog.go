package study

import (
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/graph"
	"github.com/icnsim/icnsim/topology/grid"
	"github.com/icnsim/icnsim/topology/hyperx"
)

// The catalog: the one file that names every topology family, router kind,
// policy and routing registry the study layer composes.

// RoutingList is every routing function of every family, in the order
// documentation and errors list them.
func RoutingList() []routing.Spec {
	var l []routing.Spec
	l = append(l, grid.Routings()...)
	l = append(l, routing.NonMinimalSpecs(dragonfly.NonMinimalFamily(), hyperx.NonMinimalFamily())...)
	l = append(l, fattree.Routings()...)
	l = append(l, graph.Routings()...)
	return l
}

// Routings is RoutingList by name.
func Routings() map[string]routing.Spec { return routing.ByName(RoutingList()) }

// routingSpec is the registry entry of the configuration's routing (the
// zero Spec, which builds nothing, for an unknown name: validation names
// it first).
func (c *Config) routingSpec() routing.Spec { return Routings()[c.Router.Routing] }
