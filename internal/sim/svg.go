package sim

import (
	"fmt"
	"math"
)

// Series is one line of a chart.
type Series struct {
	Name string
	X, Y []float64
	// Lo and Hi, when as long as X, are an interval around Y drawn as a
	// light band (a confidence interval).
	Lo, Hi []float64
	// Dashed draws the line dashed (a reference, such as another policy).
	Dashed bool
}

// palette is a colour-blind-safe set (Okabe–Ito).
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"}

const (
	fontAttrs                  = `font-family="Helvetica, Arial, sans-serif"`
	tickCount                  = 6 // about this many ticks on a linear x axis
	minPositiveForLog          = 1e-9
	axisColour, gridColour     = "#333333", "#dddddd"
	titleSize, labelSize, tick = 18, 14, 12
)

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if !(v > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// xTicks returns tick positions in axis units (log10 units for a log
// axis) between lo and hi.
func xTicks(lo, hi float64, log bool) []float64 {
	var out []float64
	if log {
		for e := math.Floor(lo); e <= math.Ceil(hi); e++ {
			for _, m := range []float64{1, 2, 5} {
				if v := math.Log10(math.Pow(10, e) * m); v >= lo-1e-9 && v <= hi+1e-9 {
					out = append(out, v)
				}
			}
		}
		return out
	}
	step := niceCeil((hi - lo) / tickCount)
	for v := math.Ceil(lo/step) * step; v <= hi+1e-9; v += step {
		out = append(out, v)
	}
	return out
}

func formatTick(v float64) string {
	switch {
	case v == 0:
		return "0"
	case math.Abs(v) >= 1e6:
		return fmt.Sprintf("%gM", math.Round(v/1e4)/100)
	case math.Abs(v) >= 1e3:
		return fmt.Sprintf("%gk", math.Round(v/10)/100)
	}
	return fmt.Sprintf("%g", math.Round(v*1000)/1000)
}
