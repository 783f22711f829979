//go:build !unix

package conform

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where process groups do not exist; the adapter
// alone is stopped.
func ownGroup(*exec.Cmd) {}

// stopGroup kills the adapter if it has not exited.
func stopGroup(pid int, exited bool, done <-chan error, waitErr *error) bool {
	if exited {
		return false
	}
	if p, err := findProcess(pid); err == nil {
		_ = p.Kill()
	}
	*waitErr = <-done
	return true
}

func findProcess(pid int) (*os.Process, error) { return os.FindProcess(pid) }
