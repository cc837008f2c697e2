package study

import "testing"

// TestImpliedName: a file without name is named after its network, pattern
// and process (not the built-in scenario's name whatever its topology),
// leaving out swept keys; the name does not depend on the file's path, so
// a study directory's study.toml names the study as its source did.
func TestImpliedName(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"", Default().Name},
		{"", "torus32-uniform-bernoulli"},
		{"[traffic]\npattern = \"tornado\"\nprocess = \"collective\"\n", BuiltIn().Name},
		{"[network]\ntopology = \"mesh\"\n\n[network.mesh]\nk = 8\n[router]\nrouting = \"dor\"\n[traffic]\nprocess = \"bernoulli\"\npattern = \"uniform\"\n", "mesh8-uniform-bernoulli"},
		{"[network]\ntopology = \"mesh\"\n\n[network.mesh]\nk = 4\nconcentration = 4\n[router]\nrouting = \"dor\"\n", "mesh4c4-uniform-bernoulli"},
		{"[network]\ntopology = \"fattree\"\n\n[network.fattree]\nk = 4\nlevels = 3\n[router]\nrouting = \"fattree-static\"\n[traffic]\npattern = \"uniform\"\nprocess = \"saturation\"\n", "fattree64-uniform-saturation"},
		{"[network]\n\n[network.torus]\nk = 16\n[traffic]\nprocess = \"bernoulli\"\n[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"transpose\"]\n", "torus16-bernoulli"},
		{"[traffic]\nprocess = \"bernoulli\"\n[[axis]]\nkey = \"network.torus.k\"\nvalues = [8, 16]\n", "torus-uniform-bernoulli"},
		{"name = \"mine\"\n[network]\ntopology = \"mesh\"\n\n[network.mesh]\nk = 8\n[router]\nrouting = \"dor\"\n", "mine"},
	} {
		for _, path := range []string{"some/where/my-study.toml", "out/x/study.toml"} {
			f, err := ParseFile(path, []byte(c.src))
			if err != nil {
				t.Fatalf("%q: %v", c.src, err)
			}
			if f.Name != c.want {
				t.Errorf("%s holding %q: name %q, want %q", path, c.src, f.Name, c.want)
			}
			for _, p := range f.Points {
				if p.Config.Name != c.want {
					t.Errorf("%s holding %q: point %s named %q, want %q", path, c.src, p.Label(), p.Config.Name, c.want)
				}
			}
		}
	}
}
