package interop

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill cmd when the test process dies, so a
// relay or harness outlives neither a panicking test nor go test's -timeout.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
