package reconnect

import (
	"slices"
	"testing"
)

// AppendHostOrder into memory it reads from: every overlap of dst with
// h.Fallbacks gives the order a fresh dst gives.
func TestAppendHostOrderWhenDstOverlapsFallbacks(t *testing.T) {
	fallbacks := []string{"a", "b", "c", "d", "e"}
	draws := []float64{0.7, 0.1, 0.6, 0.3, 0.8}
	want := AppendHostOrder(nil, Hosts{Primary: "p", Fallbacks: fallbacks}, 5, &pinnedSource{draws: draws})
	for _, c := range []struct {
		name  string
		setup func() (dst []string, h Hosts)
	}{
		{"dst = Fallbacks[:0]", func() ([]string, Hosts) {
			f := slices.Clone(fallbacks)
			return f[:0], Hosts{Primary: "p", Fallbacks: f}
		}},
		{"dst ends just before Fallbacks", func() ([]string, Hosts) {
			buf := append([]string{"x"}, fallbacks...)
			return buf[:1], Hosts{Primary: "p", Fallbacks: buf[1:]}
		}},
		{"Fallbacks inside dst's spare capacity", func() ([]string, Hosts) {
			buf := make([]string, 12)
			copy(buf[3:], fallbacks)
			return buf[:0], Hosts{Primary: "p", Fallbacks: buf[3:8]}
		}},
		{"dst's spare capacity inside Fallbacks", func() ([]string, Hosts) {
			f := slices.Clone(fallbacks)
			return f[2:2], Hosts{Primary: "p", Fallbacks: f}
		}},
	} {
		dst, h := c.setup()
		prefix := slices.Clone(dst)
		got := AppendHostOrder(dst, h, 5, &pinnedSource{draws: draws})
		if !slices.Equal(got[len(prefix):], want) {
			t.Errorf("%s: order %v, want %v", c.name, got[len(prefix):], want)
		}
	}
	// No overlap: still no allocation.
	buf := make([]string, 0, 8)
	src := &pinnedSource{draws: draws}
	if n := testing.AllocsPerRun(100, func() {
		src.i = 0
		_ = AppendHostOrder(buf[:0], Hosts{Primary: "p", Fallbacks: fallbacks}, 3, src)
	}); n != 0 {
		t.Errorf("%v allocations without overlap", n)
	}
}

// pinnedSource returns its draws in order, then 0.
type pinnedSource struct {
	draws []float64
	i     int
}

func (p *pinnedSource) Float64() float64 {
	if p.i >= len(p.draws) {
		return 0
	}
	p.i++
	return p.draws[p.i-1]
}
