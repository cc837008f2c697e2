package study

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// MinMemoryLimit is the smallest --max-memory: one page.
const MinMemoryLimit = 4096

// memoryLimitNumber is the number of a --max-memory size or share: plain
// decimal digits, a fraction, an exponent (no sign, NaN, Inf, hex or
// underscores).
var memoryLimitNumber = regexp.MustCompile(`^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$`)

// parseMemoryLimit is ParseMemoryLimit with the machine's memory asked of
// mem (only when a share needs it).
func parseMemoryLimit(s string, mem func() uint64) (MemoryLimit, error) {
	s = strings.TrimSpace(s)
	const allowed = "allowed: a size of at least 4KiB such as 8GiB, 512MiB or 16GB, a share of this machine's memory above 0% and at most 100% such as 50%, or off for no limit"
	bad := func(why string) (MemoryLimit, error) {
		return MemoryLimit{}, fmt.Errorf("--max-memory %q: %s; %s", s, why, allowed)
	}
	tooSmall := func(bytes float64) (MemoryLimit, error) {
		return bad(fmt.Sprintf("comes to %.4g bytes, less than one page (%d bytes); use off for no limit", bytes, MinMemoryLimit))
	}
	// number reads a size's or share's number: a plain decimal (one too
	// large or too small for a float64 reads as Inf or 0, and is refused as
	// such below).
	number := func(num string) (float64, bool) {
		if !memoryLimitNumber.MatchString(num) {
			return 0, false
		}
		v, err := strconv.ParseFloat(num, 64)
		return v, err == nil || errors.Is(err, strconv.ErrRange)
	}
	notPlain := func(num string) (MemoryLimit, error) {
		v, err := strconv.ParseFloat(num, 64)
		switch {
		case err != nil && !errors.Is(err, strconv.ErrRange):
			return bad("not a size, a share or off")
		case math.IsNaN(v) || math.IsInf(v, 0):
			return bad(fmt.Sprintf("%s is not a finite number", num))
		case v < 0 || strings.HasPrefix(num, "-"):
			return bad("a limit must be positive")
		}
		return bad(fmt.Sprintf("%q: the number must be a plain decimal such as 8 or 1.5", num))
	}
	switch {
	case s == "":
		m := mem()
		if m == 0 {
			return MemoryLimit{Why: "no limit: the machine's memory is unknown"}, nil
		}
		return MemoryLimit{Bytes: uint64(DefaultMemoryShare * float64(m)), Why: fmt.Sprintf("the default limit, %.0f%% of this machine's %s", 100*DefaultMemoryShare, FormatBytes(m))}, nil
	case s == "off":
		return MemoryLimit{Why: "no limit (--max-memory off)"}, nil
	case strings.HasSuffix(s, "%"):
		num := strings.TrimSpace(strings.TrimSuffix(s, "%"))
		p, ok := number(num)
		if ok && (p <= 0 || p > 100) || !ok && strings.HasPrefix(num, "-") {
			return bad("a share must be above 0% and at most 100%")
		}
		if !ok {
			return notPlain(num)
		}
		m := mem()
		if m == 0 {
			return bad("this machine's memory is unknown (neither /proc/meminfo nor a cgroup limit can be read), so a share of it is no limit; give a size")
		}
		b := p / 100 * float64(m)
		if b < MinMemoryLimit {
			return tooSmall(b)
		}
		return MemoryLimit{Bytes: uint64(b), Why: fmt.Sprintf("--max-memory %s, %.4g%% of this machine's %s", s, p, FormatBytes(m))}, nil
	}
	units := []struct {
		suffix string
		bytes  float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}
	for _, u := range units {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok {
			continue
		}
		num = strings.TrimSpace(num)
		v, ok := number(num)
		if !ok {
			return notPlain(num)
		}
		b := v * u.bytes
		if b < MinMemoryLimit {
			return tooSmall(b)
		}
		if b > 1<<62 {
			return bad("more than 4 EiB")
		}
		return MemoryLimit{Bytes: uint64(b), Why: "--max-memory " + s}, nil
	}
	if v, ok := number(s); ok {
		if v == 0 {
			return tooSmall(0)
		}
		return bad("a size needs a unit")
	}
	return bad("not a size, a share or off")
}
