package sim

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
)

// Series is one line of a chart.
type Series struct {
	Name string
	X, Y []float64
}

// Chart is a line chart with labelled axes and a legend, written as plain
// SVG (no scripts, no external fonts) so that it renders the same in a
// browser, on a code host and in a document.
type Chart struct {
	Title          string
	XLabel, YLabel string
	LogX           bool // a logarithmic x axis
	LogY           bool // a logarithmic y axis (values below 1 are drawn at 1)
	Series         []Series
}

// palette is a colour-blind-safe set (Okabe–Ito).
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"}

const (
	svgW, svgH                 = 860, 480
	padL, padR, padT, padB     = 80, 230, 50, 60
	plotW, plotH               = svgW - padL - padR, svgH - padT - padB
	legendX                    = svgW - padR + 20
	fontAttrs                  = `font-family="Helvetica, Arial, sans-serif"`
	tickCount                  = 6 // about this many ticks on a linear x axis
	minPositiveForLog          = 1e-9
	strokeWidth, markerRadius  = 2, 3
	axisColour, gridColour     = "#333333", "#dddddd"
	titleSize, labelSize, tick = 18, 14, 12
)

// WriteSVG renders the chart.
func (c Chart) WriteSVG(w io.Writer) error {
	tx := func(x float64) float64 {
		if c.LogX {
			return math.Log10(math.Max(x, minPositiveForLog))
		}
		return x
	}
	ty := func(y float64) float64 {
		if c.LogY {
			return math.Log10(math.Max(y, 1))
		}
		return y
	}
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), 0.0, math.Inf(-1)
	for _, s := range c.Series {
		for i := range s.X {
			xmin, xmax = math.Min(xmin, tx(s.X[i])), math.Max(xmax, tx(s.X[i]))
			ymax = math.Max(ymax, ty(s.Y[i]))
		}
	}
	if math.IsInf(xmin, 0) {
		xmin, xmax, ymax = 0, 1, 1
	}
	if xmax == xmin {
		xmax = xmin + 1
	}
	var yticks []float64 // in data units
	if c.LogY {
		ymax = math.Max(1, math.Ceil(ymax))
		for e := 0.0; e <= ymax; e++ {
			yticks = append(yticks, math.Pow(10, e))
		}
	} else {
		step := niceCeil(math.Max(ymax, 1e-9) / 5)
		ymax = step * math.Ceil(ymax/step)
		for v := 0.0; v <= ymax+step/2; v += step {
			yticks = append(yticks, v)
		}
	}
	if ymax <= ymin {
		ymax = ymin + 1
	}
	px := func(x float64) float64 { return padL + (tx(x)-xmin)/(xmax-xmin)*plotW }
	py := func(y float64) float64 { return padT + plotH - (ty(y)-ymin)/(ymax-ymin)*plotH }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", svgW, svgH, svgW, svgH)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#ffffff"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="30" %s font-size="%d" font-weight="bold">%s</text>`+"\n", padL, fontAttrs, titleSize, html.EscapeString(c.Title))
	// Grid and ticks.
	for _, y := range yticks {
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="%s"/>`+"\n", padL, padL+plotW, py(y), py(y), gridColour)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" %s font-size="%d" text-anchor="end">%s</text>`+"\n", padL-8, py(y)+4, fontAttrs, tick, formatTick(y))
	}
	for _, x := range xTicks(xmin, xmax, c.LogX) {
		if c.LogX {
			x = math.Pow(10, x)
		}
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="%s"/>`+"\n", px(x), px(x), padT, padT+plotH, gridColour)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" %s font-size="%d" text-anchor="middle">%s</text>`+"\n", px(x), padT+plotH+18, fontAttrs, tick, formatTick(x))
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="%s"/>`+"\n", padL, padT, plotW, plotH, axisColour)
	fmt.Fprintf(&b, `<text x="%d" y="%d" %s font-size="%d" text-anchor="middle">%s</text>`+"\n", padL+plotW/2, svgH-15, fontAttrs, labelSize, html.EscapeString(c.XLabel))
	fmt.Fprintf(&b, `<text x="20" y="%d" %s font-size="%d" text-anchor="middle" transform="rotate(-90 20 %d)">%s</text>`+"\n", padT+plotH/2, fontAttrs, labelSize, padT+plotH/2, html.EscapeString(c.YLabel))
	// Lines and legend.
	for k, s := range c.Series {
		col := palette[k%len(palette)]
		var pts []string
		for i := range s.X {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(s.X[i]), py(s.Y[i])))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="%d" points="%s"/>`+"\n", col, strokeWidth, strings.Join(pts, " "))
		if len(s.X) <= 40 {
			for i := range s.X {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="%d" fill="%s"/>`+"\n", px(s.X[i]), py(s.Y[i]), markerRadius, col)
			}
		}
		ly := padT + 10 + k*22
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="3"/>`+"\n", legendX, legendX+24, ly, ly, col)
		fmt.Fprintf(&b, `<text x="%d" y="%d" %s font-size="%d">%s</text>`+"\n", legendX+32, ly+4, fontAttrs, tick, html.EscapeString(s.Name))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

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
