package study

import (
	"fmt"
	"reflect"
	"slices"
)

// setLeaf sets key leaf of the table of n's topology to v (a test's
// shorthand for n.Torus.K = v when the topology varies).
func setLeaf(n *Network, leaf string, v any) {
	t, path := n.table()
	if t == nil {
		panic(fmt.Sprintf("setLeaf: no table for network.topology = %q", n.Topology))
	}
	f, ok := fieldByKey(reflect.ValueOf(t).Elem(), leaf)
	if !ok {
		panic(fmt.Sprintf("setLeaf: %s has no key %q", path, leaf))
	}
	if u, ok := f.Addr().Interface().(interface{ SetUniform(int) }); ok {
		if k, isInt := v.(int); isInt { // a grid's k: one number
			u.SetUniform(k)
			return
		}
	}
	f.Set(reflect.ValueOf(v).Convert(f.Type()))
}

// netOf is the network of topology topo with the keys of its table set
// from leaf, value pairs; a pair whose key the table does not have is
// skipped when its value is what the flat [network] table of earlier
// versions defaulted it to (concentration 1, levels 3, one node channel).
func netOf(topo string, kv ...any) Network {
	n := Network{Topology: topo}
	keys := familyKeys()[topo]
	for i := 0; i < len(kv); i += 2 {
		leaf := kv[i].(string)
		if !slices.Contains(keys, leaf) {
			if v := fmt.Sprint(kv[i+1]); leaf == "concentration" && v == "1" || leaf == "levels" && v == "3" || leaf == "node_channels" && (v == "1" || v == "0") {
				continue
			}
			panic(fmt.Sprintf("netOf: network.%s has no key %q", topo, leaf))
		}
		setLeaf(&n, leaf, kv[i+1])
	}
	return n
}
