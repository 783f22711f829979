// Package enum holds the String of every enum type in the module.
package enum

import "strconv"

// Name is the name at index i of names, or "typ(i)" for an index outside
// names or one whose name is empty.
func Name(names []string, i int, typ string) string {
	if i >= 0 && i < len(names) && names[i] != "" {
		return names[i]
	}
	return typ + "(" + strconv.Itoa(i) + ")"
}
