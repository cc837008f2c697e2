// Package graph owns topologies read from a file (network.topology =
// "file"): the reader with its limits and keyed errors, the graph's
// reachability and diameter, and the shortest-path tables its routings
// read. It may import topology, routing and link (DESIGN.md section 10).
package graph
