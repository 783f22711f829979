//go:build unix

package enginediff

import (
	"os/exec"
	"syscall"
)

// ownGroup makes the adapter the leader of a new process group, stopped
// as a whole: at the deadline (the context's cancel) or by killGroup.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// killGroup kills the adapter's process group.
func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
