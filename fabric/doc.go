// Package fabric is the contract every router kind meets and every
// endpoint uses: the packets a node's source queue holds, the source that
// fills it, the sink that observes deliveries, the injection gate and the
// control plane a policy installs, what a router observes of its buffers,
// the network-wide totals, the checks a sink makes (whole packets, flows in
// order, exactly once) and the Fabric a run drives, whatever its router
// kind; and temporal blocking of a fabric (Tiling: its actors' layout and
// lane graph, over the plan its topology family offers, Tiler).
//
// It owns no router and no topology: router kinds (router/vc, router/ioq)
// implement it, traffic, report and policies use it, and none of them
// need import another's package for it. It may import clock, actor, link
// and topology only (DESIGN.md section 10).
package fabric
