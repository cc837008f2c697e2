package topology

import (
	"container/heap"
)

// ShortestPathTree is the spanning tree of t's routers from root along
// the quickest paths, hop(r, p) being the cycles a control value takes
// out of port p of router r: Dijkstra's search over the router links, a
// router joining the tree through the first router (in the order routers
// are settled, then port order) that reaches it soonest. With links all
// alike it is the breadth-first tree in port order. order lists the
// routers reached, parents before children; parent[r] and parentPort[r]
// are r's parent and the parent's port towards r (-1 for the root and for
// routers not reached); dist[r] the cycles from the root.
func ShortestPathTree(t Topology, root int, hop func(r, p int) int) (parent, parentPort, dist, order []int) {
	R := t.Routers()
	parent, parentPort, dist = make([]int, R), make([]int, R), make([]int, R)
	for r := range parent {
		parent[r], parentPort[r], dist[r] = -1, -1, -1
	}
	dist[root] = 0
	settled := make([]bool, R)
	q := &settleQueue{{dist: 0, seq: 0, r: root}}
	seq := 1
	for q.Len() > 0 {
		it := heap.Pop(q).(settleItem)
		if settled[it.r] || it.dist != dist[it.r] {
			continue
		}
		settled[it.r] = true
		order = append(order, it.r)
		for p := 0; p < t.Ports(it.r); p++ {
			peer := t.Peer(it.r, p)
			if peer.Router < 0 || settled[peer.Router] {
				continue
			}
			if d := it.dist + hop(it.r, p); dist[peer.Router] < 0 || d < dist[peer.Router] {
				dist[peer.Router], parent[peer.Router], parentPort[peer.Router] = d, it.r, p
				heap.Push(q, settleItem{dist: d, seq: seq, r: peer.Router})
				seq++
			}
		}
	}
	return parent, parentPort, dist, order
}

// settleItem is a router waiting to be settled, at its tentative distance;
// seq (the order of the update) breaks ties first come, first settled.
type settleItem struct{ dist, seq, r int }

type settleQueue []settleItem

func (q settleQueue) Len() int { return len(q) }
func (q settleQueue) Less(i, j int) bool {
	if q[i].dist != q[j].dist {
		return q[i].dist < q[j].dist
	}
	return q[i].seq < q[j].seq
}
func (q settleQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *settleQueue) Push(x any)   { *q = append(*q, x.(settleItem)) }
func (q *settleQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}
