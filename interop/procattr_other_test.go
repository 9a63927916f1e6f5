//go:build !linux

package interop

import "os/exec"

// dieWithParent is a no-op where the kernel has no parent-death signal;
// t.Cleanup still kills the relay.
func dieWithParent(*exec.Cmd) {}
