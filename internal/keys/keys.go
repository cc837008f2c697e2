// Package keys owns what every package with a configuration table of its
// own (a topology family, a router kind) shares: the documentation of a
// key as the commented default configuration prints it (Doc), and the
// range check of its integer keys (IntRange, CheckRanges). It imports the
// standard library only.
package keys

// Add reports one bad value of a table: its key relative to the table,
// the value, and what is allowed.
type Add func(key string, v any, allowed string)

// Doc documents one key of a table, as the commented default
// configuration prints it: the key, its value there (TOML syntax), and
// what it means.
type Doc struct {
	Key, Value, Doc string
}

// Sub is a table inside a table (RECN's inside the ioq switch's): its
// key, when it applies, and its keys.
type Sub struct {
	Key, Doc string
	Keys     []Doc
}

// IntRange is an integer key of a table, its value, and its range Lo..Hi
// (0 standing for a value left out where Lo is 0), with what is allowed,
// for CheckRanges.
type IntRange struct {
	Key     string
	Value   int
	Lo, Hi  int
	Allowed string
}

// CheckRanges adds each value out of its range; it reports whether all
// are in.
func CheckRanges(add Add, rs ...IntRange) bool {
	ok := true
	for _, r := range rs {
		if r.Value < r.Lo || r.Value > r.Hi {
			add(r.Key, r.Value, r.Allowed)
			ok = false
		}
	}
	return ok
}
