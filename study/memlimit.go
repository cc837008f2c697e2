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
	lp := limitParser{s: s, mem: mem}
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
		return lp.share(strings.TrimSpace(strings.TrimSuffix(s, "%")))
	}
	return lp.size()
}

// limitParser reads one --max-memory value s.
type limitParser struct {
	s   string
	mem func() uint64
}

const limitAllowed = "allowed: a size of at least 4KiB such as 8GiB, 512MiB or 16GB, a share of this machine's memory above 0% and at most 100% such as 50%, or off for no limit"

func (lp limitParser) bad(why string) (MemoryLimit, error) {
	return MemoryLimit{}, fmt.Errorf("--max-memory %q: %s; %s", lp.s, why, limitAllowed)
}

func (lp limitParser) tooSmall(bytes float64) (MemoryLimit, error) {
	return lp.bad(fmt.Sprintf("comes to %.4g bytes, less than one page (%d bytes); use off for no limit", bytes, MinMemoryLimit))
}

// number reads a size's or share's number: a plain decimal (one too large
// or too small for a float64 reads as Inf or 0, and is refused as such).
func (limitParser) number(num string) (float64, bool) {
	if !memoryLimitNumber.MatchString(num) {
		return 0, false
	}
	v, err := strconv.ParseFloat(num, 64)
	return v, err == nil || errors.Is(err, strconv.ErrRange)
}

// notPlain says what is wrong with a number that is not a plain decimal.
func (lp limitParser) notPlain(num string) (MemoryLimit, error) {
	v, err := strconv.ParseFloat(num, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return lp.bad("not a size, a share or off")
	case math.IsNaN(v) || math.IsInf(v, 0):
		return lp.bad(fmt.Sprintf("%s is not a finite number", num))
	case v < 0 || strings.HasPrefix(num, "-"):
		return lp.bad("a limit must be positive")
	}
	return lp.bad(fmt.Sprintf("%q: the number must be a plain decimal such as 8 or 1.5", num))
}

// share reads a share of the machine's memory, num percent.
func (lp limitParser) share(num string) (MemoryLimit, error) {
	p, ok := lp.number(num)
	if ok && (p <= 0 || p > 100) || !ok && strings.HasPrefix(num, "-") {
		return lp.bad("a share must be above 0% and at most 100%")
	}
	if !ok {
		return lp.notPlain(num)
	}
	m := lp.mem()
	if m == 0 {
		return lp.bad("this machine's memory is unknown (neither /proc/meminfo nor a cgroup limit can be read), so a share of it is no limit; give a size")
	}
	b := p / 100 * float64(m)
	if b < MinMemoryLimit {
		return lp.tooSmall(b)
	}
	return MemoryLimit{Bytes: uint64(b), Why: fmt.Sprintf("--max-memory %s, %.4g%% of this machine's %s", lp.s, p, FormatBytes(m))}, nil
}

// size reads a size with its unit.
func (lp limitParser) size() (MemoryLimit, error) {
	s := lp.s
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
		v, ok := lp.number(num)
		if !ok {
			return lp.notPlain(num)
		}
		b := v * u.bytes
		if b < MinMemoryLimit {
			return lp.tooSmall(b)
		}
		if b > 1<<62 {
			return lp.bad("more than 4 EiB")
		}
		return MemoryLimit{Bytes: uint64(b), Why: "--max-memory " + s}, nil
	}
	if v, ok := lp.number(s); ok {
		if v == 0 {
			return lp.tooSmall(0)
		}
		return lp.bad("a size needs a unit")
	}
	return lp.bad("not a size, a share or off")
}
