// Package version says which build of icnsim is running: the module
// version and, for a build from a git checkout, the commit (with "+dirty"
// when the work tree had changes), from the build information Go records.
//
// It imports the standard library only.
package version

import "runtime/debug"

// String is the running build, e.g. "(devel) 7873d16a9c01+dirty", or
// "unknown" when the binary carries no build information.
func String() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v += " " + rev
		if dirty {
			v += "+dirty"
		}
	}
	return v
}
