//go:build unix

package conform

import (
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// ownGroup makes the adapter the leader of a new process group, which the
// harness stops as a whole.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalable reports whether any process of the group pgid can still be
// signalled (zombies included).
func signalable(pgid int) bool {
	return !errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH)
}

// stopGroup stops what is left of the process group pgid: SIGTERM, then
// SIGKILL after killGrace. If the leader had not exited, it collects its
// exit from done into *waitErr. It reports whether it had to signal.
func stopGroup(pgid int, exited bool, done <-chan error, waitErr *error) bool {
	if !groupAlive(pgid) {
		if !exited {
			*waitErr = <-done
		}
		return false
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	if !waitGroup(pgid, killGrace) {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		waitGroup(pgid, killGrace)
	}
	if !exited {
		*waitErr = <-done
	}
	return true
}

// waitGroup polls until no process of the group is left or d passes. The
// leader, once dead, is reaped by cmd.Wait; other members by init.
func waitGroup(pgid int, d time.Duration) bool {
	end := time.Now().Add(d)
	for groupAlive(pgid) {
		if time.Now().After(end) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}
