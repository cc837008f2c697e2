package graph

import (
	"context"
	"fmt"

	"github.com/icnsim/icnsim/internal/keys"

	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// Config is the configuration table of a topology read from a file
// ([network.file]).
type Config struct {
	// Path is the topology file (Graph's format), relative to the
	// working directory.
	Path string `toml:"path"`
	// loaded is the file read with the study (Preload), shared by every
	// copy of the table; nil: read when needed.
	loaded *Loaded
}

// Loaded is a topology file read once: its graph, or why not.
type Loaded struct {
	path string
	g    *Graph
	err  error
}

// Preload reads the file under ctx once for every table that names it
// (cache, by path): a study of many points on one large graph reads it
// once, and a signal stops the reading. It returns ctx's error only;
// another is kept for Check to report with its key.
func (c *Config) Preload(ctx context.Context, cache map[string]*Loaded) error {
	if c.Path == "" {
		return nil
	}
	l, ok := cache[c.Path]
	if !ok {
		g, err := LoadGraph(ctx, c.Path)
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		l = &Loaded{path: c.Path, g: g, err: err}
		cache[c.Path] = l
	}
	c.loaded = l
	return nil
}

// WithoutCache is c without the graph read with it, for comparing two
// tables by their keys alone.
func (c Config) WithoutCache() Config { return Config{Path: c.Path} }

// Graph is the graph of the file: the one read with the study, or read now.
func (c Config) Graph() (*Graph, error) {
	if c.loaded != nil && c.loaded.path == c.Path {
		return c.loaded.g, c.loaded.err
	}
	return LoadGraph(context.Background(), c.Path)
}

// Check reports a missing or unreadable file (keys relative to the
// table).
func (c Config) Check(_ topology.Env, add func(key string, v any, allowed string)) {
	if c.Path == "" {
		add("path", c.Path, `a topology file is needed with network.topology = "file" (lines: routers N, node ROUTER, link A B [LATENCY_CYCLES])`)
	} else if _, err := c.Graph(); err != nil {
		add("path", c.Path, err.Error())
	}
}

// ShortestLink is the least latency a link line of the file gives, and
// where ("net.txt:12"); 0 when every link takes the network's, or the file
// cannot be read.
func (c Config) ShortestLink() (cycles int, where string) {
	g, err := c.Graph()
	if err != nil || c.Path == "" {
		return 0, ""
	}
	return g.ShortestLink, fmt.Sprintf("%s:%d", g.Path, g.ShortestLinkLine)
}

// Nodes is the file's number of nodes; 0 when it cannot be read.
func (c Config) Nodes() int {
	if c.Path == "" {
		return 0
	}
	if g, err := c.Graph(); err == nil {
		return g.Nodes()
	}
	return 0
}

// Build is the file's graph.
func (c Config) Build() (topology.Topology, error) {
	g, err := c.Graph()
	if err != nil {
		return nil, err
	}
	return g, nil
}

// Name is the network's part of an implied study name: "file".
func (Config) Name(func(string) bool) string { return "file" }

// Words describes the network: none (the file's path is not a size).
func (Config) Words() string { return "" }

// SizeWords names what the network's memory grows with.
func (c Config) SizeWords(table string, routers int) string {
	return fmt.Sprintf("%s.path = %q (%d routers)", table, c.Path, routers)
}

// Routings are the routing functions of a graph from a file.
func (Config) Routings() []routing.Spec { return Routings() }

// DefaultRouting is the routing a configuration that names none gets:
// up*/down*, deadlock free with one VC on any connected graph.
func (Config) DefaultRouting() string { return "up-down" }

// KeyDocs documents the table's keys for the default configuration.
func (Config) KeyDocs() []keys.Doc {
	return []keys.Doc{
		{Key: "path", Value: `"net.txt"`, Doc: `lines "routers N", "node ROUTER", "link A B [LATENCY_CYCLES]" (path from the working directory)`},
	}
}
