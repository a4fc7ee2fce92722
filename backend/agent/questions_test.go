package agent

import (
	"reflect"
	"testing"
)

func TestExtractQuestions(t *testing.T) {
	cases := []struct {
		name   string
		report string
		want   []string
	}{
		{"absent", "## Plan\n- do things\n", nil},
		{"two bullets", "## Plan\nx\n\n## Questions for the user\n- Which database?\n- Keep the API?\n", []string{"Which database?", "Keep the API?"}},
		{"crlf and continuation", "## Questions for the user\r\n- Which one\r\n  of these?\r\n", []string{"Which one of these?"}},
		{"empty section", "## Questions for the user\n\n", nil},
		{"not last section", "## Questions for the user\n- q?\n## Notes\nn\n", nil},
		{"heading must be exact", "### Questions for the user\n- q?\n", nil},
		{"last heading wins", "## Questions for the user\n- old?\n\nsome text\n## Questions for the user\n- new?\n", []string{"new?"}},
		{"blank bullet skipped", "## Questions for the user\n- \n- real?\n", []string{"real?"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ExtractQuestions(c.report); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}
