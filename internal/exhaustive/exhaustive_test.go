package exhaustive

import "testing"

func TestOn(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "yes": false, "1": true, "true": true, "TRUE": true} {
		t.Setenv(Env, v)
		if got := On(); got != want {
			t.Errorf("%s=%q: On() = %v, want %v", Env, v, got, want)
		}
	}
}

func TestSampled(t *testing.T) {
	t.Setenv(Env, "")
	var kept []int
	for i := range 10 {
		if Sampled(i, 4) {
			kept = append(kept, i)
		}
	}
	if len(kept) != 3 || kept[0] != 0 || kept[1] != 4 || kept[2] != 8 {
		t.Errorf("default mode, one in 4 of 10: kept %v, want [0 4 8]", kept)
	}
	for i := range 10 {
		if !Sampled(i, 1) || !Sampled(i, 0) {
			t.Errorf("every < 2 must keep item %d", i)
		}
	}
	t.Setenv(Env, "1")
	for i := range 10 {
		if !Sampled(i, 4) {
			t.Errorf("exhaustive mode: item %d not kept", i)
		}
	}
}
