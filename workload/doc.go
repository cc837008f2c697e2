// Package workload is closed-loop traffic: a job of ranks placed on nodes,
// each rank running a program of steps (compute for some cycles, send a
// message, receive a message, wait for the receives posted so far) inside
// its node's network interface, driven only by the packets it receives.
// Motifs (allreduce, all-to-all, broadcast, barrier, halo exchange, incast,
// a random permutation) build the programs.
//
// A message is any number of flits, split into packets of at most the
// network's packet size; its receive completes when every one of its
// packets has arrived, in whatever order they arrive. A send is posted in
// one cycle (an eager protocol with unbounded send buffers, as an MPI
// implementation's small and medium messages): its packets, generated at
// that cycle, join the node's source queue a few at a time on the rank's
// own schedule, always before the interface could run out of them, so
// that it sends them back to back. A rank never waits for its own sends,
// only for its receives. Steps take no time beyond what they say: a
// receive that completes at cycle t lets the rank's next send leave at t.
//
// A rank is its node's fabric.Source and fabric.Sink (fabric.ClosedLoop):
// it numbers its packets per destination (Packet.Seq: a per-pair offset
// plus a per-pair count), so the destination rank tells which of the
// messages from that source a packet belongs to, and the NI wakes it in
// every cycle a packet arrives. Ranks share only read-only tables (the
// job's placement and its programs); everything one rank learns of another
// arrives as packets, so a job's results are the same under every executor
// and worker count.
//
// It may import fabric, topology, link, clock and traffic (DESIGN.md
// section 10).
package workload
