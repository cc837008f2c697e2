package study_test

import (
	"context"
	"fmt"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/study"
	"github.com/icnsim/icnsim/topology/grid"
)

// A collective burst on a small torus: every node queues 4 packets at cycle
// 0 and the run ends when all are delivered. The digest is the same under
// every executor.
func ExampleRun() {
	cfg := study.BuiltIn()
	cfg.Network.Torus.K = grid.Side(4)
	cfg.Traffic.PacketsPerNode = 4
	r, err := study.Run(context.Background(), cfg, study.Options{Exec: actor.Serial})
	if err != nil {
		panic(err)
	}
	r2, _ := study.Run(context.Background(), cfg, study.Options{Exec: actor.Shards, Workers: 3})
	fmt.Println("delivered:", r.PacketsDelivered, "completed:", r.Completed)
	fmt.Println("same digest on 3 workers:", r.Digest() == r2.Digest())
	// Output:
	// delivered: 64 completed: true
	// same digest on 3 workers: true
}

// Parse reports every problem of a file at once, each with its line and key.
func ExampleParse() {
	_, err := study.Parse("bad.toml", []byte("[router.vc]\nvcs = 0\nswitching = \"saf\"\n"))
	fmt.Println(err)
	// Output:
	// bad.toml:2: router.vc.vcs = 0: allowed: 1..64
	// bad.toml:3: router.vc.switching = "saf": allowed: vct, wormhole
}
