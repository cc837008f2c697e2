package study

import (
	"strings"
	"testing"
)

// TestParseMemoryLimit: every --max-memory value is a limit of at least one
// page, off, or an error that names --max-memory, the value and what is
// allowed. No value other than off (and the default on a machine whose
// memory is unknown) switches the guard off: 0, tiny sizes and shares,
// NaN and Inf used to.
func TestParseMemoryLimit(t *testing.T) {
	const gib = 1 << 30
	machine := func() uint64 { return 16 * gib }
	for _, c := range []struct {
		in   string
		want uint64
	}{
		{"8GiB", 8 * gib}, {"512MiB", 512 << 20}, {"1.5 GiB", 3 << 29}, {" 16GB ", 16e9}, {"100KB", 1e5},
		{"4KiB", 4096}, {"4096B", 4096}, {"1e3MB", 1e9}, {".5GiB", gib / 2},
		{"50%", 8 * gib}, {"100%", 16 * gib}, {"12.5%", 2 * gib}, {"off", 0},
	} {
		got, err := parseMemoryLimit(c.in, machine)
		if err != nil || got.Bytes != c.want {
			t.Errorf("%q: %d bytes, %v; want %d", c.in, got.Bytes, err, c.want)
		}
		if err == nil && c.in == "off" && !strings.Contains(got.Why, "no limit") {
			t.Errorf("off: Why = %q", got.Why)
		}
	}
	for _, c := range []struct{ in, why string }{
		// Values that used to switch the guard off.
		{"0", "use off for no limit"},
		{"0B", "comes to 0 bytes, less than one page (4096 bytes)"},
		{"0GiB", "comes to 0 bytes"},
		{"0.5B", "comes to 0.5 bytes, less than one page"},
		{"1e-9KiB", "less than one page (4096 bytes)"},
		{"4095B", "comes to 4095 bytes"},
		{"1e-400GiB", "comes to 0 bytes"},
		{"1e-30%", "less than one page"},
		{"NaN%", "NaN is not a finite number"},
		{"nan%", "not a finite number"},
		{"NaNGiB", "NaN is not a finite number"},
		{"Inf%", "Inf is not a finite number"},
		{"+InfGiB", "not a finite number"},
		{"infinityMB", "not a finite number"},
		// Other bad values.
		{"1e400GiB", "more than 4 EiB"},
		{"5000000TiB", "more than 4 EiB"},
		{"0x10GiB", "not a size, a share or off"},
		{"1_000MiB", "must be a plain decimal"},
		{"-1GiB", "a limit must be positive"},
		{"-5%", "above 0% and at most 100%"},
		{"0%", "above 0% and at most 100%"},
		{"150%", "above 0% and at most 100%"},
		{"8G", "not a size, a share or off"},
		{"12XB", "not a size, a share or off"},
		{"GiB", "not a size, a share or off"},
		{"%", "not a size, a share or off"},
		{"lots", "not a size, a share or off"},
		{"8192", "a size needs a unit"},
		{"OFF", "not a size, a share or off"},
	} {
		got, err := parseMemoryLimit(c.in, machine)
		if err == nil {
			t.Errorf("%q accepted: %d bytes (%s)", c.in, got.Bytes, got.Why)
			continue
		}
		msg := err.Error()
		for _, w := range []string{"--max-memory", strings.TrimSpace(c.in), c.why, "allowed: a size of at least 4KiB", "or off for no limit"} {
			if !strings.Contains(msg, w) {
				t.Errorf("%q: error lacks %q: %s", c.in, w, msg)
			}
		}
	}

	// Where the machine's memory is unknown, the default is no limit (and
	// says so), but a share asked for explicitly is refused, not dropped.
	unknown := func() uint64 { return 0 }
	if def, err := parseMemoryLimit("", unknown); err != nil || def.Bytes != 0 || !strings.Contains(def.Why, "unknown") {
		t.Errorf("default with unknown memory: %+v, %v", def, err)
	}
	if _, err := parseMemoryLimit("50%", unknown); err == nil || !strings.Contains(err.Error(), "memory is unknown") {
		t.Errorf("50%% with unknown memory: %v", err)
	}
	if l, err := parseMemoryLimit("8GiB", unknown); err != nil || l.Bytes != 8*gib {
		t.Errorf("8GiB with unknown memory: %+v, %v", l, err)
	}
	if def, err := parseMemoryLimit("", machine); err != nil || def.Bytes != 12*gib || !strings.Contains(def.Why, "default") {
		t.Errorf("default on a 16 GiB machine: %+v, %v", def, err)
	}

	// The exported function reads this machine's memory.
	if PhysicalMemory() > 0 {
		half, err := ParseMemoryLimit("50%")
		if err != nil || half.Bytes != PhysicalMemory()/2 {
			t.Errorf("50%% = %d of %d: %v", half.Bytes, PhysicalMemory(), err)
		}
	}
	if _, err := ParseMemoryLimit("0"); err == nil {
		t.Error("ParseMemoryLimit(\"0\") accepted")
	}
}
