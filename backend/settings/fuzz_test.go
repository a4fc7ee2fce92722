package settings

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// FuzzLoad feeds the settings loader arbitrary file contents: it never
// panics; it either refuses the file with a *MalformedError or a
// *ValidationError naming keys, or gives settings that validate and that
// survive being written and read again unchanged.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"workingDirectory":"/src","runner":{"enabled":true,"concurrency":2},"roles":{"planner":{"tool":"codex","model":"m"},"observer":{"tool":"mock"}}}`))
	f.Add([]byte(`{"retries":{"backoffMs":[1,2,3],"transient":0},"tools":{"codex":{"path":"/x","env":{"A":"1"}},"vim":{"x":1}}}`))
	f.Add([]byte(`{"review":{"gate":"yes","maxFixRounds":1e400},"worktree":{"onDone":"trash"}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"runner":{"concurency":2}} x`))
	f.Add([]byte("{\"workingDirectory\":\"\xff\"}"))
	file := NewFile("/nonexistent/settings.json", testCatalog(toolCodex))
	f.Fuzz(func(t *testing.T, data []byte) {
		raw, err := file.parse(data)
		if err != nil {
			var me *MalformedError
			if !errors.As(err, &me) || !errors.Is(err, ErrMalformed) {
				t.Fatalf("parse error is not a *MalformedError: %v", err)
			}
			return
		}
		s, err := file.effective(raw)
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) || len(ve.Keys) == 0 || !errors.Is(err, ErrInvalid) {
				t.Fatalf("load error is not a *ValidationError with keys: %v", err)
			}
			for _, k := range ve.Keys {
				if k.Key == "" || k.Reason == "" {
					t.Fatalf("a key error without key or reason: %+v", k)
				}
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("loaded settings do not validate: %v", err)
		}
		b, err := json.MarshalIndent(raw, "", "  ")
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		raw2, err := file.parse(b)
		if err != nil {
			t.Fatalf("own output does not parse: %v\n%s", err, b)
		}
		s2, err := file.effective(raw2)
		s.catalog, s2.catalog = Catalog{}, Catalog{} // holds a func: never DeepEqual
		if err != nil || !reflect.DeepEqual(s, s2) {
			t.Fatalf("write/read not stable: %v\n%+v\n%+v", err, s, s2)
		}
	})
}
