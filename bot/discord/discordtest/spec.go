package discordtest

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// SpecEnv names the environment variable that, when set, gives the path of another
// copy of Discord's openapi.json to check requests against instead of the one kept in
// the repository (testdata/openapi.json, see testdata/README.md).
const SpecEnv = "DISCORD_OPENAPI"

// specFile is Discord's openapi.json as kept in the repository, compiled into the test
// binaries, so that no test reads anything outside the repository and none can find it
// missing.
//
//go:embed testdata/openapi.json
var specFile []byte

// specURL is the base URL the description is registered under in the schema compiler;
// every $ref in it is document-local, so nothing is ever fetched.
const specURL = "https://discord.com/api/v10/openapi.json"

// Spec is Discord's official OpenAPI 3.1 description of its HTTP API, ready to check
// requests against; it is safe for concurrent use.
type Spec struct {
	routes []*specRoute

	mu       sync.Mutex // guards compiler and schemas
	compiler *jsonschema.Compiler
	schemas  map[string]*jsonschema.Schema
}

// specRoute is one path template of the description with its operations.
type specRoute struct {
	pathTemplate
	params []specParam // path-level parameters
	ops    map[string]*specOp
}

// specOp is one operation (method) of a path template.
type specOp struct {
	method   string // upper case
	id       string // operationId
	pointer  string // JSON pointer of the operation object
	params   []specParam
	body     map[string]string // media type -> JSON pointer of its schema
	bodyReqd bool
}

// specParam is a path or query parameter and the JSON pointer of its schema.
type specParam struct {
	name, in string
	required bool
	schema   string
}

// Violation is one way a request does not fit Discord's API description.
type Violation struct {
	// Route is the method and path template, e.g. "POST /channels/{channel_id}/messages",
	// or the method and the literal path when no template matched.
	Route string
	// Where says which part of the request is wrong: "route", "path", "query" or "body".
	Where string
	// Pointer is the JSON pointer of the offending value in the body, or the name of the
	// offending path or query parameter.
	Pointer string
	// Message says what is wrong.
	Message string
}

// String formats the violation for a test failure.
func (v Violation) String() string {
	switch v.Where {
	case "body":
		return fmt.Sprintf("%s: request body at JSON pointer %q does not match Discord's OpenAPI description: %s", v.Route, v.Pointer, v.Message)
	case "path", "query":
		return fmt.Sprintf("%s: %s parameter %q: %s", v.Route, v.Where, v.Pointer, v.Message)
	default:
		return fmt.Sprintf("%s: %s", v.Route, v.Message)
	}
}

// Match is the operation of the description that a request was matched to.
type Match struct {
	// Template is the path template, e.g. "/channels/{channel_id}/messages".
	Template string
	// OperationID is Discord's name for the operation, e.g. "create_message".
	OperationID string
	// Params holds the path parameters by their names in the template.
	Params map[string]string
}

var (
	specOnce sync.Once
	specVal  *Spec
	specErr  error
)

// SpecFor returns Discord's API description (DefaultSpec), loaded once per test binary,
// failing t when it cannot be loaded: it is never skipped.
func SpecFor(t testing.TB) *Spec {
	t.Helper()
	spec, err := DefaultSpec()
	if err != nil {
		t.Fatalf("discordtest: %v", err)
	}
	return spec
}

// DefaultSpec returns Discord's API description, loaded once per process: the file named
// by $DISCORD_OPENAPI when it is set (an error when that file cannot be read), else the
// copy kept in the repository, testdata/openapi.json.
func DefaultSpec() (*Spec, error) {
	specOnce.Do(func() { specVal, specErr = loadDefaultSpec() })
	return specVal, specErr
}

// loadDefaultSpec is DefaultSpec without the cache.
func loadDefaultSpec() (*Spec, error) {
	if p := os.Getenv(SpecEnv); p != "" {
		spec, err := LoadSpec(p)
		if err != nil {
			return nil, fmt.Errorf("%s=%s: %w", SpecEnv, p, err)
		}
		return spec, nil
	}
	return parseSpec(specFile)
}

// LoadSpec reads and indexes the OpenAPI description at path; schemas are compiled
// lazily, once per operation, when a request first needs them.
func LoadSpec(path string) (*Spec, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("discord openapi.json: %w", err)
	}
	return parseSpec(raw)
}

// parseSpec indexes an OpenAPI 3.1 description given as JSON.
func parseSpec(raw []byte) (*Spec, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("discord openapi.json: %w", err)
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("discord openapi.json: not a JSON object")
	}
	if v, _ := root["openapi"].(string); !strings.HasPrefix(v, "3.1") {
		return nil, fmt.Errorf("discord openapi.json: openapi version %q, want 3.1.x", v)
	}
	paths, ok := root["paths"].(map[string]any)
	if !ok {
		return nil, errors.New("discord openapi.json: no paths")
	}
	s := &Spec{schemas: map[string]*jsonschema.Schema{}}
	for tmpl, v := range paths {
		item, ok := v.(map[string]any)
		if !ok {
			continue
		}
		itemPtr := "/paths/" + escapePointer(tmpl)
		r := &specRoute{
			pathTemplate: newTemplate(tmpl),
			params:       parseParams(item["parameters"], itemPtr+"/parameters"),
			ops:          map[string]*specOp{},
		}
		for method, ov := range item {
			op, ok := ov.(map[string]any)
			if !ok || method == "parameters" {
				continue
			}
			opPtr := itemPtr + "/" + method
			o := &specOp{
				method:  strings.ToUpper(method),
				pointer: opPtr,
				params:  parseParams(op["parameters"], opPtr+"/parameters"),
				body:    map[string]string{},
			}
			o.id, _ = op["operationId"].(string)
			if rb, ok := op["requestBody"].(map[string]any); ok {
				o.bodyReqd, _ = rb["required"].(bool)
				content, _ := rb["content"].(map[string]any)
				for mt := range content {
					o.body[mt] = opPtr + "/requestBody/content/" + escapePointer(mt) + "/schema"
				}
			}
			r.ops[o.method] = o
		}
		s.routes = append(s.routes, r)
	}
	sort.Slice(s.routes, func(i, j int) bool { return s.routes[i].template < s.routes[j].template })

	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(jsonschema.SchemeURLLoader{}) // never fetch anything
	c.AssertFormat()
	c.RegisterFormat(&jsonschema.Format{Name: "snowflake", Validate: validateSnowflake})
	if err := c.AddResource(specURL, doc); err != nil {
		return nil, fmt.Errorf("discord openapi.json: %w", err)
	}
	s.compiler = c
	return s, nil
}

func parseParams(v any, ptr string) []specParam {
	list, _ := v.([]any)
	var out []specParam
	for i, pv := range list {
		p, ok := pv.(map[string]any)
		if !ok {
			continue
		}
		sp := specParam{schema: fmt.Sprintf("%s/%d/schema", ptr, i)}
		sp.name, _ = p["name"].(string)
		sp.in, _ = p["in"].(string)
		sp.required, _ = p["required"].(bool)
		out = append(out, sp)
	}
	return out
}

// validateSnowflake checks Discord's "snowflake" format: a decimal unsigned 64-bit id.
func validateSnowflake(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	if _, err := strconv.ParseUint(s, 10, 64); err != nil {
		return fmt.Errorf("%q is not a 64-bit snowflake", s)
	}
	return nil
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// schema compiles (once) and returns the schema at the JSON pointer ptr of the description.
func (s *Spec) schema(ptr string) (*jsonschema.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sch, ok := s.schemas[ptr]; ok {
		return sch, nil
	}
	sch, err := s.compiler.Compile(specURL + "#" + fragmentEscape(ptr))
	if err != nil {
		return nil, fmt.Errorf("discordtest: compiling %s: %w", ptr, err)
	}
	s.schemas[ptr] = sch
	return sch, nil
}

// fragmentEscape percent-encodes a JSON pointer for use as a URL fragment.
func fragmentEscape(ptr string) string {
	return (&url.URL{Fragment: ptr}).EscapedFragment()
}

// Route finds the operation for method and path (without /api/vN), literal segments
// winning over parameters so that /users/@me is not /users/{user_id}.
func (s *Spec) Route(method, path string) (*Match, []Violation) {
	best, params, ok := bestMatch(s.routes, func(r *specRoute) pathTemplate { return r.pathTemplate }, path)
	if !ok {
		return nil, []Violation{{Route: method + " " + path, Where: "route", Message: "no such route in Discord's API"}}
	}
	m := &Match{Template: best.template, Params: params}
	op := best.ops[method]
	if op == nil {
		var allowed []string
		for k := range best.ops {
			allowed = append(allowed, k)
		}
		slices.Sort(allowed)
		return m, []Violation{{Route: method + " " + best.template, Where: "route",
			Message: fmt.Sprintf("method %s not allowed (Discord allows %s)", method, strings.Join(allowed, ", "))}}
	}
	m.OperationID = op.id
	return m, nil
}

// Check validates a request (path without /api/vN): route and method, path and query
// parameters, and the JSON or multipart body against the operation's requestBody schema.
func (s *Spec) Check(method, path string, query url.Values, contentType string, body []byte) (*Match, []Violation) {
	m, vs := s.Route(method, path)
	if len(vs) > 0 {
		return m, vs
	}
	r := s.findRoute(m.Template)
	op := r.ops[method]
	route := method + " " + m.Template

	// Parameters: operation-level ones override path-level ones of the same name and place.
	params := map[string]specParam{}
	for _, p := range r.params {
		params[p.in+":"+p.name] = p
	}
	for _, p := range op.params {
		params[p.in+":"+p.name] = p
	}
	for name, val := range m.Params {
		p, ok := params["path:"+name]
		if !ok {
			continue
		}
		if msg := s.checkParam(p, val); msg != "" {
			vs = append(vs, Violation{Route: route, Where: "path", Pointer: name, Message: msg})
		}
	}
	for name, vals := range query {
		p, ok := params["query:"+name]
		if !ok {
			vs = append(vs, Violation{Route: route, Where: "query", Pointer: name, Message: "Discord's API has no such query parameter here"})
			continue
		}
		for _, val := range vals {
			if msg := s.checkParam(p, val); msg != "" {
				vs = append(vs, Violation{Route: route, Where: "query", Pointer: name, Message: msg})
			}
		}
	}
	for _, p := range params {
		if p.in == "query" && p.required && !query.Has(p.name) {
			vs = append(vs, Violation{Route: route, Where: "query", Pointer: p.name, Message: "required query parameter missing"})
		}
	}
	return m, append(vs, s.checkBody(route, op, contentType, body)...)
}

func (s *Spec) findRoute(tmpl string) *specRoute {
	i := sort.Search(len(s.routes), func(i int) bool { return s.routes[i].template >= tmpl })
	return s.routes[i]
}

// checkParam validates a parameter's text against its schema; the text may stand for a
// string, or for a number or boolean when the schema wants one.
func (s *Spec) checkParam(p specParam, val string) string {
	sch, err := s.schema(p.schema)
	if err != nil {
		return err.Error()
	}
	first := sch.Validate(val)
	if first == nil {
		return ""
	}
	if v, err := jsonschema.UnmarshalJSON(strings.NewReader(val)); err == nil {
		if _, isStr := v.(string); !isStr && sch.Validate(v) == nil {
			return ""
		}
	}
	return describe(first)[0].msg
}

func (s *Spec) checkBody(route string, op *specOp, contentType string, body []byte) []Violation {
	bodyErr := func(ptr, msg string) []Violation {
		return []Violation{{Route: route, Where: "body", Pointer: ptr, Message: msg}}
	}
	if len(body) == 0 {
		if op.bodyReqd {
			return bodyErr("", "the request body is required")
		}
		return nil
	}
	if len(op.body) == 0 {
		return bodyErr("", "this operation takes no request body")
	}
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return bodyErr("", fmt.Sprintf("bad Content-Type %q: %v", contentType, err))
	}
	ptr, ok := op.body[mt]
	if !ok {
		var allowed []string
		for k := range op.body {
			allowed = append(allowed, k)
		}
		slices.Sort(allowed)
		return bodyErr("", fmt.Sprintf("Content-Type %s not accepted (Discord accepts %s)", mt, strings.Join(allowed, ", ")))
	}
	var inst any
	switch mt {
	case "application/json":
		inst, err = jsonschema.UnmarshalJSON(bytes.NewReader(body))
		if err != nil {
			return bodyErr("", "body is not valid JSON: "+err.Error())
		}
	case "multipart/form-data":
		form, err := parseMultipart(body, params["boundary"])
		if err != nil {
			return bodyErr("", err.Error())
		}
		obj := map[string]any{}
		if form.payload != nil {
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(form.payload))
			if err != nil {
				return bodyErr("", "payload_json is not valid JSON: "+err.Error())
			}
			o, ok := v.(map[string]any)
			if !ok {
				return bodyErr("", "payload_json is not a JSON object")
			}
			obj = o
		}
		for k, v := range form.fields {
			obj[k] = v
		}
		for _, f := range form.files {
			obj[f.Field] = "<binary>"
		}
		inst = obj
	default:
		return nil // form-urlencoded bodies are not sent by discordgo; nothing to check
	}
	sch, err := s.schema(ptr)
	if err != nil {
		return bodyErr("", err.Error())
	}
	if err := sch.Validate(normalize(op.id, inst)); err != nil {
		var out []Violation
		for _, p := range describe(err) {
			out = append(out, Violation{Route: route, Where: "body", Pointer: p.ptr, Message: p.msg})
		}
		return out
	}
	return nil
}

// multipartForm is a parsed multipart/form-data body.
type multipartForm struct {
	payload []byte            // the payload_json part
	fields  map[string]string // other non-file fields
	files   []File
}

func parseMultipart(body []byte, boundary string) (*multipartForm, error) {
	if boundary == "" {
		return nil, errors.New("multipart body without a boundary")
	}
	mr := multipart.NewReader(bytes.NewReader(body), boundary)
	form := &multipartForm{fields: map[string]string{}}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return form, nil
		}
		if err != nil {
			return nil, fmt.Errorf("malformed multipart body: %v", err)
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return nil, fmt.Errorf("malformed multipart body: %v", err)
		}
		name := part.FormName()
		switch {
		case part.FileName() != "":
			form.files = append(form.files, File{Field: name, Name: part.FileName(), ContentType: part.Header.Get("Content-Type"), Data: data})
		case name == "payload_json":
			form.payload = data
		default:
			form.fields[name] = string(data)
		}
	}
}

// normalize adapts a request body before validation for the places where Discord's API
// is known to accept what its description does not say. Each case names its reason.
func normalize(opID string, inst any) any {
	switch opID {
	case "bulk_set_application_commands", "bulk_set_guild_application_commands":
		if list, ok := inst.([]any); ok {
			for _, c := range list {
				permissionString(c)
			}
		}
	case "create_application_command", "update_application_command",
		"create_guild_application_command", "update_guild_application_command":
		permissionString(inst)
	}
	return inst
}

// permissionString turns default_member_permissions given as a decimal string into a
// number. Discord serialises permissions as strings (its docs say so, and discordgo sends
// them that way) and the API accepts them, while the description types the field integer.
func permissionString(cmd any) {
	obj, ok := cmd.(map[string]any)
	if !ok {
		return
	}
	if s, ok := obj["default_member_permissions"].(string); ok {
		if _, err := strconv.ParseUint(s, 10, 64); err == nil {
			obj["default_member_permissions"] = json.Number(s)
		}
	}
}

// problem is one leaf failure of a schema validation, at the instance location loc.
type problem struct {
	loc  []string
	kind jsonschema.ErrorKind
	msg  string
}

var printer = message.NewPrinter(language.English)

// described is a problem with its JSON pointer, for reporting.
type described struct{ ptr, msg string }

// describe turns a validation error tree into its most telling leaves. In a union
// (anyOf/oneOf) it follows the alternatives that got furthest, dropping those that failed
// on the value's own type or on a discriminating "type" property; when every alternative
// failed that way it says which types would have been accepted.
func describe(err error) []described {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []described{{"", err.Error()}}
	}
	var out []described
	seen := map[described]bool{}
	for _, p := range leaves(ve) {
		d := described{pointer(p.loc), p.msg}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

func pointer(loc []string) string {
	var b strings.Builder
	for _, s := range loc {
		b.WriteString("/" + escapePointer(s))
	}
	return b.String()
}

func leaves(e *jsonschema.ValidationError) []problem {
	if len(e.Causes) == 0 {
		return []problem{{e.InstanceLocation, e.ErrorKind, e.ErrorKind.LocalizedString(printer)}}
	}
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		return unionLeaves(e)
	}
	var out []problem
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

func unionLeaves(e *jsonschema.ValidationError) []problem {
	at := e.InstanceLocation
	var kept, wrong []problem
	depth := -1
	for _, c := range e.Causes {
		ls := leaves(c)
		if w, ok := wrongAlternative(at, ls); ok {
			wrong = append(wrong, w)
			continue
		}
		d := 0
		for _, l := range ls {
			d = max(d, len(l.loc))
		}
		switch {
		case d > depth:
			kept, depth = ls, d
		case d == depth:
			kept = append(kept, ls...)
		}
	}
	if kept != nil {
		return kept
	}
	// Every alternative describes another kind of value: say what was accepted.
	loc := at
	var got any
	var wants []string
	for _, w := range wrong {
		switch k := w.kind.(type) {
		case *kind.Type:
			got = k.Got
			wants = append(wants, k.Want...)
		case *kind.Const:
			loc, got = w.loc, k.Got
			wants = append(wants, fmt.Sprint(k.Want))
		case *kind.Enum:
			loc, got = w.loc, k.Got
			for _, v := range k.Want {
				wants = append(wants, fmt.Sprint(v))
			}
		}
	}
	slices.SortFunc(wants, compareNumeric)
	wants = slices.Compact(wants)
	return []problem{{loc, e.ErrorKind, fmt.Sprintf("%v matches none of the alternatives (they accept %s)", got, strings.Join(wants, ", "))}}
}

// wrongAlternative reports whether a union branch failed only because it describes a
// different kind of value: the value's own type differs, or its "type" discriminator
// does; it returns the telling leaf.
func wrongAlternative(at []string, ls []problem) (problem, bool) {
	for _, l := range ls {
		switch l.kind.(type) {
		case *kind.Type:
			if len(l.loc) == len(at) {
				return l, true
			}
		case *kind.Const, *kind.Enum:
			if len(l.loc) == len(at)+1 && l.loc[len(at)] == "type" {
				return l, true
			}
		}
	}
	return problem{}, false
}

// compareNumeric orders numbers by value and other text alphabetically after them.
func compareNumeric(a, b string) int {
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	switch {
	case errA == nil && errB == nil:
		return cmp.Compare(x, y)
	case errA == nil:
		return -1
	case errB == nil:
		return 1
	}
	return strings.Compare(a, b)
}
