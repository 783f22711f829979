//go:build !unix

package enginediff

import "os/exec"

// ownGroup does nothing where process groups do not exist: the adapter
// alone is stopped, at the deadline (the context's cancel) or by
// killGroup.
func ownGroup(*exec.Cmd) {}

// killGroup kills the adapter.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
