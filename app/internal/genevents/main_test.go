package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/app"
	"github.com/boof-runner/boof-runner/backend/task"
)

// The constants of a named string type are found in declaration order,
// each once; untyped constants, other types and tests are left out.
func TestStringConstsReadsTheEnumsOfAPackage(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package p\n\ntype Color string\n\nconst (\n\tRed Color = \"red\"\n\tGreen Color = \"green\"\n\tplain = \"plain\"\n\tN int = 3\n)\n")
	write("b.go", "package p\n\nconst Blue, Red2 Color = \"blue\", \"red\"\n")
	write("b_test.go", "package p\n\nconst Test Color = \"test\"\n")
	got, err := stringConsts(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"red", "green", "blue"}; !reflect.DeepEqual(got["Color"], want) {
		t.Fatalf("Color = %q, want %q (all: %q)", got["Color"], want, got)
	}
	if len(got) != 1 {
		t.Fatalf("types found: %q", got)
	}
}

// The generated contract types a feed item's data by its kind, each Go
// enum as its constants, and the lists as Go orders them.
func TestGenerateTypesEnumsAndTheFeedByKind(t *testing.T) {
	src, err := generate(app.Events, app.Lists, newEnums(goListDir))
	if err != nil {
		t.Fatal(err)
	}
	out := string(src)
	var statuses []string
	for _, s := range task.Statuses {
		statuses = append(statuses, `"`+string(s)+`"`)
	}
	for _, want := range []string{
		"export type FeedItem<K extends keyof TaskEventPayloads = keyof TaskEventPayloads> = {\n",
		"} & TypedEvent<K>;\n",
		"  role: Role | '';\n",
		"export type TypedEvent<K extends keyof TaskEventPayloads",
		`export type Payload<K extends EventName> = K extends ` + "`task:output:${string}`" + ` ? EventPayloads["task:output:"]`,
		`export const STATUSES = [` + strings.Join(statuses, ", ") + `] as const satisfies readonly Status[];`,
		"  from: Status;\n  to: Status;\n",
		`export type View = "" | "new-task"`,
		`  "step_finished": StepFinished;`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the generated contract lacks %q", want)
		}
	}
	_, union, _ := strings.Cut(out, "export type Status = ")
	union, _, _ = strings.Cut(union, ";")
	if got := strings.Split(union, " | "); len(got) != len(task.Statuses) {
		t.Errorf("Status = %s, want the %d statuses", union, len(task.Statuses))
	}
	for _, s := range statuses {
		if !strings.Contains(union, s) {
			t.Errorf("status %s is not in the Status union %s", s, union)
		}
	}
}
