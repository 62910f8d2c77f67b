package variants_test

import (
	"slices"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

func TestRegistry(t *testing.T) {
	r := variants.Registry()
	for _, key := range []string{"gothic", "keltic", "gochess"} {
		v, err := r.Lookup(key)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		p := v.Start(1)
		if p.Variant().Key() != key || v.Dims() != p.Board().Dims {
			t.Errorf("%s: start position reports %s, dims %v vs %v", key, p.Variant().Key(), v.Dims(), p.Board().Dims)
		}
		back, err := v.ParsePosition(p.String())
		if err != nil || back.String() != p.String() {
			t.Errorf("%s: start position %q does not read back: %v", key, p, err)
		}
	}
	if !slices.Contains(r.Keys(), "gothic") {
		t.Error("gothic missing from Keys")
	}
	var _ rules.Variant = r.Variants()[0]
}
