package deadlock

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/grid"
	"github.com/icnsim/icnsim/topology/hyperx"
)

var updateScripts = flag.Bool("update", false, "rewrite the results in testdata/checks.txt from this build")

// scriptFile holds the scripted checks: each case is a command line,
//
//	check <routing> <vcs> on <topology> [vct]
//
// (topology one of "torus k", "mesh k c", "fattree k n", "dragonfly p a
// h g palmtree|consecutive", "hyperx s l t p"; vct: virtual cut-through,
// wormhole otherwise), a line "----", and what Check reports: "ok", or
// its error, or "refused: " and the error routing.New gives; cases are
// separated by blank lines, and lines starting with # are comments.
const scriptFile = "testdata/checks.txt"

// scriptTopology builds the topology words describe, with the ports the
// routing needs (a channel per message class where it has loopback
// ports).
func scriptTopology(words []string, spec routing.Spec) (topology.Topology, error) {
	n := make([]int, 0, len(words))
	for _, w := range words[1:] {
		if w == "palmtree" || w == "consecutive" {
			a, err := dragonfly.ParseArrangement(w)
			if err != nil {
				return nil, err
			}
			n = append(n, int(a))
			continue
		}
		v, err := strconv.Atoi(w)
		if err != nil {
			return nil, fmt.Errorf("topology %q: %v", strings.Join(words, " "), err)
		}
		n = append(n, v)
	}
	want := map[string]int{"torus": 1, "mesh": 2, "fattree": 2, "dragonfly": 5, "hyperx": 4}[words[0]]
	if want == 0 || len(n) != want {
		return nil, fmt.Errorf("topology %q: want torus k, mesh k c, fattree k n, dragonfly p a h g arrangement or hyperx s l t p", strings.Join(words, " "))
	}
	var t topology.Topology
	var err error
	switch words[0] {
	case "torus":
		t, err = grid.NewTorus(n[0])
	case "mesh":
		t, err = grid.NewMesh(n[0], n[1])
	case "fattree":
		t, err = fattree.NewFatTree(n[0], n[1])
	case "dragonfly":
		t, err = dragonfly.NewDragonfly(n[0], n[1], n[2], n[3], dragonfly.Arrangement(n[4]), 0)
	case "hyperx":
		t, err = hyperx.NewHyperX(n[0], n[1], n[2], n[3])
	}
	if err != nil || spec.Loops == nil {
		return t, err
	}
	return grid.WithPorts(t, spec.Loops, 2)
}

// runScript runs one command line and returns what it reports.
func runScript(line string) (string, error) {
	words := strings.Fields(line)
	if len(words) < 5 || words[0] != "check" || words[3] != "on" {
		return "", fmt.Errorf("want \"check <routing> <vcs> on <topology> [vct]\"")
	}
	spec, ok := testRoutings()[words[1]]
	if !ok {
		return "", fmt.Errorf("no routing %q", words[1])
	}
	vcs, err := strconv.Atoi(words[2])
	if err != nil {
		return "", err
	}
	topoWords, wormhole := words[4:], true
	if topoWords[len(topoWords)-1] == "vct" {
		topoWords, wormhole = topoWords[:len(topoWords)-1], false
	}
	t, err := scriptTopology(topoWords, spec)
	if err != nil {
		return "", err
	}
	rf, err := routing.New(spec, t, vcs)
	if err != nil {
		return "refused: " + err.Error(), nil
	}
	if err := Check(context.Background(), t, rf, vcs, wormhole); err != nil {
		return err.Error(), nil
	}
	return "ok", nil
}

// TestCheckScripts runs every case of testdata/checks.txt and compares
// what Check reports, the cycle it names included, with the file (-update
// rewrites the results).
func TestCheckScripts(t *testing.T) {
	f, err := os.Open(scriptFile)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	cases, lineNo := 0, 0
	next := func() (string, bool) {
		ok := sc.Scan()
		lineNo++
		return sc.Text(), ok
	}
	for {
		line, ok := next()
		if !ok {
			break
		}
		if line == "" || strings.HasPrefix(line, "#") {
			out.WriteString(line + "\n")
			continue
		}
		at := lineNo
		if sep, _ := next(); sep != "----" {
			t.Fatalf("%s:%d: %q is not followed by ----", scriptFile, at, line)
		}
		want, _ := next()
		got, err := runScript(line)
		if err != nil {
			t.Fatalf("%s:%d: %q: %v", scriptFile, at, line, err)
		}
		if got != want && !*updateScripts {
			t.Errorf("%s:%d: %s\n got: %s\nwant: %s", scriptFile, at, line, got, want)
		}
		fmt.Fprintf(&out, "%s\n----\n%s\n", line, got)
		cases++
	}
	f.Close()
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cases < 20 {
		t.Errorf("%d scripted cases; expected every family's routings, accepted and refused", cases)
	}
	if *updateScripts {
		if err := os.WriteFile(scriptFile, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
