package settings

import (
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Only the developer writes unless roles.<role>.write says otherwise; the
// key is read from the file, kept on save, and a read-only developer is
// refused by name.
func TestRoleWriteAccess(t *testing.T) {
	f := newFile(t, `{"roles":{"reviewer":{"tool":"mock","write":true},"observer":{"tool":"mock"},"planner":{"tool":"mock","write":false}}}`)
	s, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	want := map[task.Role]bool{task.RoleDeveloper: true, task.RoleReviewer: true, task.RoleObserver: false,
		task.RolePlanner: false, task.RolePlannerAnswer: false, task.RoleRefinement: false}
	for r, w := range want {
		if s.Writes(r) != w {
			t.Errorf("Writes(%s) = %v, want %v", r, !w, w)
		}
	}
	if err := f.Save(s); err != nil {
		t.Fatal(err)
	}
	again, err := f.Load()
	if err != nil || !again.Writes(task.RoleReviewer) || again.Writes(task.RolePlanner) {
		t.Fatalf("after save: reviewer %v planner %v (%v)", again.Writes(task.RoleReviewer), again.Writes(task.RolePlanner), err)
	}

	bad := newFile(t, `{"roles":{"developer":{"tool":"mock","write":false},"reviewer":{"tool":"mock","write":"yes"}}}`)
	_, err = bad.Load()
	got := strings.Join(keyErrors(t, err), "\n")
	for _, w := range []string{`roles.reviewer.write must be true or false (got "yes")`,
		"roles.developer.write must be true or left out: the developer is the role that edits"} {
		if !strings.Contains(got, w) {
			t.Errorf("errors lack %q:\n%s", w, got)
		}
	}
}
