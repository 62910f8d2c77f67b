package rules

import (
	"sort"
	"strings"
)

// Registry finds variants by key. It is built once and never changed, so it may be
// shared between goroutines.
type Registry struct {
	byKey map[string]Variant
	keys  []string
}

// NewRegistry returns a registry of vs; it panics on a duplicate key, a programming error.
func NewRegistry(vs ...Variant) *Registry {
	r := &Registry{byKey: make(map[string]Variant, len(vs))}
	for _, v := range vs {
		if _, dup := r.byKey[v.Key()]; dup {
			panic("rules: duplicate variant key " + v.Key())
		}
		r.byKey[v.Key()] = v
		r.keys = append(r.keys, v.Key())
	}
	sort.Strings(r.keys)
	return r
}

// Lookup returns the variant with key (letter case ignored) or an error wrapping
// ErrUnknownVariant that lists the known keys.
func (r *Registry) Lookup(key string) (Variant, error) {
	if v, ok := r.byKey[strings.ToLower(strings.TrimSpace(key))]; ok {
		return v, nil
	}
	choices := strings.Join(r.keys, ", ")
	return nil, RefuseAs(ErrUnknownVariant, "variant.unknown", Args{"Name": Echo(key), "Choices": choices},
		"There is no game called %s; choose one of %s.", Echo(key), choices)
}

// Keys returns the known keys in sorted order.
func (r *Registry) Keys() []string { return append([]string(nil), r.keys...) }

// Variants returns the known variants in key order.
func (r *Registry) Variants() []Variant {
	out := make([]Variant, 0, len(r.keys))
	for _, k := range r.keys {
		out = append(out, r.byKey[k])
	}
	return out
}
