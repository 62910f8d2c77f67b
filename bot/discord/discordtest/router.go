package discordtest

import "strings"

// pathTemplate is a Discord route template such as /channels/{channel_id}/messages.
type pathTemplate struct {
	template string
	segments []string
}

func newTemplate(t string) pathTemplate {
	return pathTemplate{template: t, segments: splitPath(t)}
}

func splitPath(p string) []string { return strings.Split(strings.Trim(p, "/"), "/") }

func isParam(seg string) bool { return strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") }

// match returns the path parameters when segs fits the template.
func (p pathTemplate) match(segs []string) (map[string]string, bool) {
	if len(segs) != len(p.segments) {
		return nil, false
	}
	params := map[string]string{}
	for i, seg := range p.segments {
		switch {
		case isParam(seg) && segs[i] != "":
			params[seg[1:len(seg)-1]] = segs[i]
		case seg != segs[i]:
			return nil, false
		}
	}
	return params, true
}

// moreLiteral reports whether p is more specific than o at their first difference, so
// that /users/@me wins over /users/{user_id}.
func (p pathTemplate) moreLiteral(o pathTemplate) bool {
	for i := range p.segments {
		a, b := isParam(p.segments[i]), isParam(o.segments[i])
		if a != b {
			return !a
		}
	}
	return false
}

// bestMatch finds the most specific template among items that fits path.
func bestMatch[T any](items []T, tmpl func(T) pathTemplate, path string) (best T, params map[string]string, ok bool) {
	segs := splitPath(path)
	var bt pathTemplate
	for _, it := range items {
		t := tmpl(it)
		p, fits := t.match(segs)
		if !fits {
			continue
		}
		if !ok || t.moreLiteral(bt) {
			best, params, bt, ok = it, p, t, true
		}
	}
	return best, params, ok
}
