package failpoint

import "os"

// killed says whether the process was terminated by killSelf (exit code
// 137; Windows has no signals).
func killed(ps *os.ProcessState) bool { return ps.ExitCode() == 137 }
