package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
)

// LinkStats are a run's per-link statistics (measure.link_stats) over
// Cycles cycles: the window, or a collective's whole run.
type LinkStats struct {
	Cycles int64 `json:"cycles"`
	// VCs is the VCs per channel (the length of each VCFlits).
	VCs int `json:"vcs"`
	// Bound says whether BoundFlitsPerCycle holds the routing's
	// channel-load bound (a deterministic routing under a uniform or
	// permutation pattern), and BoundNote why not where it does not.
	Bound     bool   `json:"bound"`
	BoundNote string `json:"bound_note,omitempty"`
	Links     []Link `json:"links"`
}

// Link is one router output channel: to another router or to a node
// (class "ejection").
type Link struct {
	Router int    `json:"router"`
	Port   int    `json:"port"`
	Name   string `json:"name"` // the port's name, e.g. "R(3,4).E"
	To     string `json:"to"`   // the router or node at its far end
	Class  string `json:"class"`
	Flits  uint64 `json:"flits"`
	// FlitsPerCycle is Flits over the cycles: the share of them the
	// channel was busy (it carries at most one flit a cycle; with internal
	// speedup a flit is counted as it crosses into the output queue, so a
	// window may count up to a queue's depth more).
	FlitsPerCycle float64 `json:"flits_per_cycle"`
	// StallShare is the share of the cycles in which a flit that holds an
	// output VC of the channel and is ready to leave waited for a credit.
	// Under virtual cut-through a packet takes an output VC only with room
	// for all of it, so its wait is in VC allocation and this reads 0; it
	// measures wormhole's credit stalls.
	StallShare float64  `json:"stall_share"`
	VCFlits    []uint64 `json:"vc_flits"`
	// BoundFlitsPerCycle is the channel-load bound's load on the channel
	// at the run's offered load (with Bound).
	BoundFlitsPerCycle float64 `json:"bound_flits_per_cycle"`
}

// LinkClass summarises the links of one class.
type LinkClass struct {
	Class                               string
	Links                               int
	MeanFlitsPerCycle, MaxFlitsPerCycle float64
	MeanStallShare                      float64
	// BoundMaxFlitsPerCycle is the bound's largest load in the class (NaN
	// without a bound).
	BoundMaxFlitsPerCycle float64
}

// Classes summarises s per link class, in the order each class first
// appears.
func (s *LinkStats) Classes() []LinkClass {
	var out []LinkClass
	at := map[string]int{}
	for _, l := range s.Links {
		i, ok := at[l.Class]
		if !ok {
			i = len(out)
			at[l.Class] = i
			out = append(out, LinkClass{Class: l.Class, BoundMaxFlitsPerCycle: math.NaN()})
			if s.Bound {
				out[i].BoundMaxFlitsPerCycle = 0
			}
		}
		c := &out[i]
		c.Links++
		c.MeanFlitsPerCycle += l.FlitsPerCycle
		c.MaxFlitsPerCycle = max(c.MaxFlitsPerCycle, l.FlitsPerCycle)
		c.MeanStallShare += l.StallShare
		if s.Bound {
			c.BoundMaxFlitsPerCycle = max(c.BoundMaxFlitsPerCycle, l.BoundFlitsPerCycle)
		}
	}
	for i := range out {
		out[i].MeanFlitsPerCycle /= float64(out[i].Links)
		out[i].MeanStallShare /= float64(out[i].Links)
	}
	return out
}

// Busiest is the index of the link with the most flits (the first of
// equals), -1 for none.
func (s *LinkStats) Busiest() int {
	best := -1
	for i, l := range s.Links {
		if best < 0 || l.Flits > s.Links[best].Flits {
			best = i
		}
	}
	return best
}

// WriteLinksCSV writes s as CSV: a row per link, units in the column
// names, a column of flits per VC; the bound's column is empty without a
// bound.
func WriteLinksCSV(w io.Writer, s *LinkStats) error {
	cw := csv.NewWriter(w)
	head := []string{"router", "port", "name", "to", "class", "flits", "flits_per_cycle", "stall_share", "bound_flits_per_cycle"}
	for v := range s.VCs {
		head = append(head, fmt.Sprintf("vc%d_flits", v))
	}
	cw.Write(head)
	for _, l := range s.Links {
		bound := ""
		if s.Bound {
			bound = FormatFloat(l.BoundFlitsPerCycle)
		}
		row := []string{strconv.Itoa(l.Router), strconv.Itoa(l.Port), l.Name, l.To, l.Class, strconv.FormatUint(l.Flits, 10),
			FormatFloat(l.FlitsPerCycle), FormatFloat(l.StallShare), bound}
		for _, f := range l.VCFlits {
			row = append(row, strconv.FormatUint(f, 10))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}
