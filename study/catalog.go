package study

import (
	"github.com/icnsim/icnsim/router"
	"github.com/icnsim/icnsim/routing"
)

// The catalog: the one file that names every topology family, router kind,
// policy and routing registry the study layer composes.

// routingSpec is the registry entry of the configuration's routing (the
// zero Spec, which builds nothing, for an unknown name: validation names
// it first).
func (c *Config) routingSpec() routing.Spec { return router.Routings()[c.Router.Routing] }
