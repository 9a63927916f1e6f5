//go:build unix

package clientmode

import (
	"os/exec"
	"syscall"
)

// setGroup puts the adapter in its own process group so that killGroup
// ends the shell and everything it started.
func setGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
