// Package graph owns topologies read from a file (network.topology =
// "file"): the reader with its limits and keyed errors, the graph's
// reachability and diameter, and the shortest-path tables its routings
// read. It may import topology, routing and link (DESIGN.md section 10).
//
// It owns its configuration table ([network.file], Config, with the file read once per study (Preload)): keys, ranges, size, name and
// documentation, which the study layer composes.
package graph
