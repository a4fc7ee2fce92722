package pipeline

// readOnlyState is what the read-only guard knows of the worktree between
// steps. atBase: the running read-only step left the worktree clean at its
// base commit (nothing changed on the branch: no git call lists it).
// verified is the worktree as the last read-only step's guard found it
// unchanged; the next step's guard takes it unless anything else that may
// change the worktree ran first (guardBefore, dropHunks, the gate) or the
// run waited (a retry's backoff).
type readOnlyState struct {
	atBase   bool
	verified *verified
}
