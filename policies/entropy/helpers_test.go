package entropy

import "github.com/icnsim/icnsim/clock"

func clockOf(c int64) clock.Cycle { return clock.Cycle(c) }
