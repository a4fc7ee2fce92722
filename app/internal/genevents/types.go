package main

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// gen collects the TypeScript declarations of the types it meets.
type gen struct {
	decls map[string]string       // declared name → declaration
	names map[reflect.Type]string // Go type → declared name
	enums *enums
}

var (
	timeType      = reflect.TypeOf(time.Time{})
	eventDataType = reflect.TypeOf((*task.EventData)(nil)).Elem()
	eventKindType = reflect.TypeOf(task.EventKind(""))
)

// ts returns the TypeScript type of t, declaring interfaces for structs
// and unions for named string types with constants.
func (g *gen) ts(t reflect.Type) (string, error) {
	if t == timeType {
		return "string", nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return "boolean", nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number", nil
	case reflect.String:
		return g.stringType(t)
	case reflect.Pointer:
		inner, err := g.ts(t.Elem())
		return inner + " | null", err
	case reflect.Slice, reflect.Array:
		inner, err := g.ts(t.Elem())
		if strings.Contains(inner, " ") {
			inner = "(" + inner + ")"
		}
		return inner + "[]", err
	case reflect.Map:
		inner, err := g.ts(t.Elem())
		return "{ [key: string]: " + inner + " }", err
	case reflect.Struct:
		return g.structType(t)
	case reflect.Interface:
		if t == eventDataType {
			return g.eventPayloads()
		}
	}
	return "", fmt.Errorf("no TypeScript for Go type %s", t)
}

// declName reserves the TypeScript name of a named Go type: its own name,
// or its package's name and its own when that is taken.
func (g *gen) declName(t reflect.Type) string {
	name := t.Name()
	if _, taken := g.decls[name]; taken || name == "" {
		name = pkgTitle(t) + t.Name()
	}
	g.names[t] = name
	g.decls[name] = "" // reserve against recursion
	return name
}

func pkgName(t reflect.Type) string { return t.PkgPath()[strings.LastIndex(t.PkgPath(), "/")+1:] }

func pkgTitle(t reflect.Type) string {
	p := pkgName(t)
	return strings.ToUpper(p[:1]) + p[1:]
}

// stringType is string, or for a named string type declared with string
// constants (a Go enum such as task.Status) the union of their values.
func (g *gen) stringType(t reflect.Type) (string, error) {
	if t.Name() == "" || t.PkgPath() == "" {
		return "string", nil
	}
	if n, ok := g.names[t]; ok {
		return n, nil
	}
	vals, err := g.enums.values(t)
	if err != nil || len(vals) == 0 {
		return "string", err
	}
	name := g.declName(t)
	quoted := make([]string, len(vals))
	for i, v := range vals {
		quoted[i] = fmt.Sprintf("%q", v)
	}
	g.decls[name] = fmt.Sprintf("/** Go %s.%s: its constants. */\nexport type %s = %s;\n", pkgName(t), t.Name(), name, strings.Join(quoted, " | "))
	return name, nil
}

// eventPayloads declares TaskEventPayloads, the payload of every task event
// kind by kind (backend/task), and TypedEvent, a kind with its payload; it
// returns the union of the payloads: what a field of type task.EventData
// holds.
func (g *gen) eventPayloads() (string, error) {
	const name = "TaskEventPayloads"
	union := name + "[keyof " + name + "]"
	if _, done := g.decls[name]; done {
		return union, nil
	}
	g.decls[name] = "" // reserve against recursion
	kinds := task.EventKinds()
	sort.Slice(kinds, func(i, j int) bool { return kinds[i] < kinds[j] })
	var b strings.Builder
	b.WriteString("/** Go task.EventData: the payload of each task event kind (backend/task). */\nexport interface " + name + " {\n")
	for _, k := range kinds {
		ts, err := g.ts(reflect.TypeOf(task.DecodeEvent(k, nil)))
		if err != nil {
			return "", fmt.Errorf("event kind %s: %w", k, err)
		}
		fmt.Fprintf(&b, "  %q: %s;\n", k, ts)
	}
	b.WriteString("}\n")
	g.decls[name] = b.String()
	g.decls["TypedEvent"] = "/** A task event of a known kind: its kind and its payload, a union by kind. */\n" +
		"export type TypedEvent<K extends keyof " + name + " = keyof " + name + "> = { [P in K]: { kind: P; data: " + name + "[P] } }[K];\n"
	return union, nil
}

// field is one JSON member of a struct.
type field struct {
	key, opt, ts string
	goType       reflect.Type
}

func (g *gen) structType(t reflect.Type) (string, error) {
	if n, ok := g.names[t]; ok {
		return n, nil
	}
	name := g.declName(t)
	var fields []field
	var extends []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		key, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && key == "" && f.Type.Kind() == reflect.Struct {
			// encoding/json flattens an untagged embedded struct.
			base, err := g.structType(f.Type)
			if err != nil {
				return "", fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
			}
			extends = append(extends, base)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if key == "" {
			key = f.Name
		}
		ft := f.Tag.Get("tstype") // the Go side's own word on a type the constants cannot say
		if ft == "" {
			var err error
			if ft, err = g.ts(f.Type); err != nil {
				return "", fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
			}
		}
		opt := ""
		if strings.Contains(","+opts+",", ",omitempty,") {
			opt = "?"
		}
		fields = append(fields, field{key, opt, ft, f.Type})
	}
	head := fmt.Sprintf("/** Go %s.%s */\n", pkgName(t), t.Name())
	if typedEvent(fields) {
		g.decls[name] = head + typedEventDecl(name, fields, extends)
		return name, nil
	}
	var b strings.Builder
	b.WriteString(head + "export interface " + name + " ")
	if len(extends) > 0 {
		b.WriteString("extends " + strings.Join(extends, ", ") + " ")
	}
	b.WriteString("{\n")
	for _, f := range fields {
		fmt.Fprintf(&b, "  %s%s: %s;\n", f.key, f.opt, f.ts)
	}
	b.WriteString("}\n")
	g.decls[name] = b.String()
	return name, nil
}

// typedEvent reports whether fields carry a task event as a kind and its
// data (app.FeedItem): such a struct is a union by kind, as TypedEvent is.
func typedEvent(fields []field) bool {
	var kind, data bool
	for _, f := range fields {
		kind = kind || (f.key == "kind" && f.goType == eventKindType)
		data = data || (f.key == "data" && f.goType == eventDataType)
	}
	return kind && data
}

// typedEventDecl declares a struct carrying a task event as its other
// fields joined with TypedEvent<K>: its data is typed by its kind.
func typedEventDecl(name string, fields []field, extends []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "export type %s<K extends keyof TaskEventPayloads = keyof TaskEventPayloads> = {\n", name)
	for _, f := range fields {
		if f.key != "kind" && f.key != "data" {
			fmt.Fprintf(&b, "  %s%s: %s;\n", f.key, f.opt, f.ts)
		}
	}
	b.WriteString("}")
	for _, e := range extends {
		b.WriteString(" & " + e)
	}
	b.WriteString(" & TypedEvent<K>;\n")
	return b.String()
}
