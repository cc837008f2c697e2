package study

import (
	"slices"
	"strings"
)

// HAR is the [router.har] table: choices of the Hybrid-HAR routers
// (router.routing = "hybrid-har" or "har-dor").
type HAR struct {
	// Free is when a channel is free for a new message: tail-sent (once
	// the previous message's tail has been sent on, as every other
	// routing; the default), upper-empty (the upper network's VCs only
	// when empty downstream, so that no short message queues behind a
	// long one there, as the paper's routing guarantees) or all-empty
	// (every router-to-router VC and both connection channels only when
	// empty downstream: the paper's "free" read alike in every step of its
	// routing algorithm). See grid.HARFree and topology/grid/har.go.
	Free string `toml:"free"`
}

// validateHAR checks [router.har]: a known rule, and one other than the
// default only under the Hybrid-HAR routings.
func (c *Config) validateHAR(add addFunc) {
	free := c.Router.HAR.Free
	if free == "" {
		return
	}
	reads := routingsReading("har.free")
	par, _ := Routings()[reads[0]].Param("har.free")
	switch {
	case par.Check(free) != nil:
		add("router.har.free", free, "allowed: "+strings.Join(par.Choices, ", ")+" ("+par.ChoicesDoc+")"+didYouMean(free, par.Choices))
	case free != par.Choices[0] && c.Router.Kind == "ioq":
		add("router.har.free", free, `applies to router.kind = "vc" with router.routing = `+joinWords(reads, `"`, "or")+` only`)
	case free != par.Choices[0] && !slices.Contains(reads, c.Router.Routing):
		add("router.har.free", free, `applies to router.routing = `+joinWords(reads, `"`, "or")+` only (their upper and lower virtual networks and connection channels)`)
	}
}
