package task

// Role is one step of the pipeline.
type Role string

const (
	// RolePlanner writes the first plan and may ask the user questions.
	RolePlanner Role = "planner"
	// RoleRefinement turns the first plan into the final plan.
	RoleRefinement Role = "refinement"
	// RoleDeveloper implements the final plan in the worktree.
	RoleDeveloper Role = "developer"
	// RoleObserver optionally checks the diff and ends with a verdict.
	RoleObserver Role = "observer"
	// RoleReviewer gives the final review of the diff and ends with a verdict.
	RoleReviewer Role = "reviewer"
	// RolePlannerAnswer is the planner answering another role's question
	// mid-run. It is a prompt role, not a step of Roles: its executions are
	// recorded as RolePlanner, and it runs with the planner's tool.
	RolePlannerAnswer Role = "planner-answer"
	// RoleVerify is the verification gate: the project's own verify command
	// (tests, build) run in the worktree after each developer step. It is not
	// an agent role: no tool, no model, no prompt, no settings key and no
	// per-task tool override, so it is not in Roles. Its runs are recorded as
	// executions and sections of this role (see StepRoles).
	RoleVerify Role = "verify"
)

// Roles lists every role in pipeline order.
var Roles = []Role{RolePlanner, RoleRefinement, RoleDeveloper, RoleObserver, RoleReviewer}

// StepRoles lists every role an execution or a section may be recorded
// with: the agent roles of Roles, then RoleVerify.
var StepRoles = append(append([]Role(nil), Roles...), RoleVerify)

// ParseStepRole returns the role named s among StepRoles (an agent role or
// the verify gate), or an error wrapping ErrInvalid.
func ParseStepRole(s string) (Role, error) {
	for _, r := range StepRoles {
		if string(r) == s {
			return r, nil
		}
	}
	return "", invalid("unknown role %q", s)
}

// IsAgent reports whether r is run by an agent tool (one of Roles, or the
// planner answering a question); false for RoleVerify.
func (r Role) IsAgent() bool {
	if r == RolePlannerAnswer {
		return true
	}
	for _, x := range Roles {
		if x == r {
			return true
		}
	}
	return false
}

// ParseRole returns the agent role named s (one of Roles; never
// RoleVerify), or an error wrapping ErrInvalid.
func ParseRole(s string) (Role, error) {
	for _, r := range Roles {
		if string(r) == s {
			return r, nil
		}
	}
	return "", invalid("unknown role %q", s)
}

// ToolChoice names the agent tool and model a role runs with. An empty Model
// means the tool's default.
type ToolChoice struct {
	Tool  string `json:"tool"`
	Model string `json:"model"`
}

// Tools holds per-task tool overrides by role; a per-task value wins over
// settings.
type Tools map[Role]ToolChoice

// NormalizeTools checks tool overrides: known roles, a tool name for each
// entry, and no control characters or spaces. It returns a cleaned copy (never
// nil) or an error wrapping ErrInvalid.
func NormalizeTools(in Tools) (Tools, error) {
	out := Tools{}
	for r, c := range in {
		if _, err := ParseRole(string(r)); err != nil {
			return nil, err
		}
		if c.Tool == "" {
			if c.Model != "" {
				return nil, invalid("tools.%s: model %q without a tool", r, c.Model)
			}
			continue
		}
		for _, v := range []string{c.Tool, c.Model} {
			if !isToken(v, 128) {
				return nil, invalid("tools.%s: %q is not a valid tool or model name", r, v)
			}
		}
		out[r] = c
	}
	return out, nil
}

// isToken reports whether s is short and free of spaces and control characters.
func isToken(s string, max int) bool {
	if len(s) > max {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r == 0x7f {
			return false
		}
	}
	return true
}
