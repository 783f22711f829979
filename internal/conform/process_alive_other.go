//go:build unix && !linux

package conform

// groupAlive reports whether a process of the group pgid is left
// (zombies included, where /proc cannot tell them apart).
func groupAlive(pgid int) bool { return signalable(pgid) }
