package study

import (
	"strings"

	"github.com/icnsim/icnsim/router"
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
	// routing algorithm). See router.HARFree and the router package's
	// har.go.
	Free string `toml:"free"`
}

// harFree is the router package's view of router.har.free ("" is the
// default of a Config built in Go).
func (c *Config) harFree() router.HARFree {
	f, _ := router.ParseHARFree(c.Router.HAR.Free)
	return f
}

// validateHAR checks [router.har]: a known rule, and one other than the
// default only under the Hybrid-HAR routings.
func (c *Config) validateHAR(add addFunc) {
	free := c.Router.HAR.Free
	if free == "" {
		return
	}
	f, err := router.ParseHARFree(free)
	switch {
	case err != nil:
		add("router.har.free", free, "allowed: "+strings.Join(router.HARFreeNames(), ", ")+
			" (tail-sent: a channel takes a new message once the previous tail has been sent on; upper-empty: the upper network's VCs only when empty downstream; all-empty: every VC and both connection channels only when empty downstream)"+didYouMean(free, router.HARFreeNames()))
	case f != router.HARTailSent && c.Router.Kind == "ioq":
		add("router.har.free", free, `applies to router.kind = "vc" with router.routing = "hybrid-har" or "har-dor" only`)
	case f != router.HARTailSent && c.Router.Routing != "hybrid-har" && c.Router.Routing != "har-dor":
		add("router.har.free", free, `applies to router.routing = "hybrid-har" or "har-dor" only (their upper and lower virtual networks and connection channels)`)
	}
}
