package settings

import (
	"encoding/json"
	"reflect"
	"testing"
)

// Shapes a settings field may take, for TestKeyTreeIsWhatJSONWrites.
type (
	shapeInner struct {
		Leaf  string `json:"leaf"`
		Other int    `json:"other,omitempty"`
	}
	shapeEmbedded struct {
		Promoted bool `json:"promoted"`
	}
	shapes struct {
		shapeEmbedded
		Plain    string                           `json:"plain"`
		Untagged int                              // encoding/json names it Untagged
		OnlyOpts bool                             `json:",omitempty"`
		Skipped  string                           `json:"-"`
		hidden   string                           // an unexported field is not stored
		Nested   shapeInner                       `json:"nested"`
		Optional *shapeInner                      `json:"optional,omitempty"`
		ByName   map[string]shapeInner            `json:"byName"`
		Deep     map[string]map[string]*float64   `json:"deep"`
		List     []shapeInner                     `json:"list"`
		Numbers  []int64                          `json:"numbers"`
		Either   any                              `json:"either"` // a leaf: its shape is not the type's
		Nest2    struct{ Inner *shapeInner }      `json:"nest2"`
		Kinds    map[string]map[string]shapeInner `json:"kinds,omitempty"`
	}
)

// TestKeyTreeIsWhatJSONWrites: the key tree derived from a type names
// exactly the keys encoding/json writes for a value of it with every field
// set, for every shape a settings field may take, so a field added to
// Settings in any of them is a key Set accepts. (The CLI's
// TestSettingsSetGetEveryLeaf walks Settings itself through set and get.)
func TestKeyTreeIsWhatJSONWrites(t *testing.T) {
	x := 1.5
	in := shapeInner{Leaf: "a", Other: 2}
	full := shapes{
		shapeEmbedded: shapeEmbedded{Promoted: true}, Plain: "p", Untagged: 1, OnlyOpts: true, Skipped: "s", hidden: "h",
		Nested: in, Optional: &in, ByName: map[string]shapeInner{"*": in}, Deep: map[string]map[string]*float64{"*": {"*": &x}},
		List: []shapeInner{in}, Numbers: []int64{1}, Either: "free", Nest2: struct{ Inner *shapeInner }{&in},
		Kinds: map[string]map[string]shapeInner{"*": {"*": in}},
	}
	want := `{"Inner":{"leaf":null,"other":null}}`
	if got := jsonKeys(t, keyTree(reflect.TypeOf(full.Nest2))); got != want {
		t.Fatalf("keys of an untagged struct field: %s, want %s", got, want)
	}
	b, err := json.Marshal(full)
	if err != nil {
		t.Fatal(err)
	}
	var written map[string]any
	if err := json.Unmarshal(b, &written); err != nil {
		t.Fatal(err)
	}
	if got, want := jsonKeys(t, keyTree(reflect.TypeOf(full))), jsonKeys(t, shape(written)); got != want {
		t.Fatalf("key tree\n%s\nencoding/json writes\n%s", got, want)
	}
}

// shape turns a decoded JSON value into a key tree: objects stay objects,
// anything else is a leaf (nil).
func shape(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, sub := range m {
		out[k] = shape(sub)
	}
	return out
}

// jsonKeys prints a key tree with sorted keys, for comparison.
func jsonKeys(t *testing.T, tree any) string {
	t.Helper()
	b, err := json.Marshal(tree)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
