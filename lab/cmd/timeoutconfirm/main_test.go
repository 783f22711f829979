package main

import (
	"strings"
	"testing"
)

func TestBadFlagsAreRefusedBeforeAnyRun(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-clients", "51"}, "-clients"},
		{[]string{"-clients", "1"}, "-clients"},
		{[]string{"-timeouts", "250ms,soon"}, `"soon"`},
		{[]string{"-timeouts", "0s"}, `"0s"`},
		{[]string{"-profiles", "moon", "-timeouts", "10ms", "-clients", "2", "-sim-clients", "2"}, `"moon"`},
	} {
		if err := run(c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error naming %s", c.args, err, c.want)
		}
	}
}
