package sim

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
)

// Panel is one small chart of a Multiples: a title, its lines, dashed
// vertical marks, and a note written in the panel when it has nothing to
// draw.
type Panel struct {
	Title  string
	Series []Series
	Marks  []Mark
	Note   string
}

// Mark is a dashed vertical line at X with a short label.
type Mark struct {
	X     float64
	Label string
}

// Multiples is a grid of small charts on shared axes (the same x and y
// ranges in every panel), so panels compare at a glance and no series
// hides another. Axis tick labels are written on the left column and the
// bottom row only; a series keeps its colour in every panel, named once in
// a legend under the title. It is plain SVG (no scripts, no external
// fonts), so it renders the same in a browser, on a code host and in a
// document. On a log y axis values below 1 are drawn at 1.
type Multiples struct {
	Title          string
	XLabel, YLabel string
	LogX, LogY     bool
	Columns        int // panels per row; 0 means 3
	// YRef, when positive, draws a dashed horizontal reference line at
	// that y in every panel.
	YRef   float64
	Panels []Panel
}

const (
	mpW, mpH                       = 300, 170 // one panel's plot area
	mpGapX, mpGapY                 = 24, 46
	mpPadL, mpPadR, mpPadT, mpPadB = 78, 20, 60, 56
)

// WriteSVG renders the grid. Long series are reduced to the largest value
// per horizontal pixel, which keeps spikes visible and the file small.
func (m Multiples) WriteSVG(w io.Writer) error {
	cols := m.Columns
	if cols <= 0 {
		cols = 3
	}
	cols = max(1, min(cols, len(m.Panels)))
	rows := (len(m.Panels) + cols - 1) / cols
	tx := func(x float64) float64 {
		if m.LogX {
			return math.Log10(math.Max(x, minPositiveForLog))
		}
		return x
	}
	ty := func(y float64) float64 {
		if m.LogY {
			return math.Log10(math.Max(y, 1))
		}
		return y
	}
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	colours := map[string]string{}
	var names []string
	for _, p := range m.Panels {
		for _, s := range p.Series {
			if _, ok := colours[s.Name]; !ok && len(s.X) > 0 {
				colours[s.Name] = palette[len(names)%len(palette)]
				names = append(names, s.Name)
			}
			for i := range s.X {
				xmin, xmax = math.Min(xmin, tx(s.X[i])), math.Max(xmax, tx(s.X[i]))
				ymin, ymax = math.Min(ymin, ty(s.Y[i])), math.Max(ymax, ty(s.Y[i]))
			}
		}
	}
	if math.IsInf(xmin, 0) {
		xmin, xmax, ymin, ymax = 0, 1, 0, 1
	}
	ylo := 0.0 // the y axis' lower end, in axis units
	if m.LogY {
		ylo = math.Floor(ymin)
	}
	if xmax == xmin {
		xmax = xmin + 1
	}
	var yticks []float64 // in axis units
	if m.LogY {
		ymax = math.Max(ylo+1, math.Ceil(ymax))
		step := math.Max(1, math.Ceil((ymax-ylo)/4))
		for e := ylo; e <= ymax; e += step {
			yticks = append(yticks, e)
		}
	} else {
		step := niceCeil(math.Max(ymax, 1e-9) / 4)
		ymax = step * math.Ceil(ymax/step)
		for v := 0.0; v <= ymax+step/2; v += step {
			yticks = append(yticks, v)
		}
	}
	if ymax <= ylo {
		ymax = ylo + 1
	}
	// The legend: names in rows under the title, wrapped at the width.
	type entry struct{ x, row int }
	legend := map[string]entry{}
	legendH := 0
	if len(names) > 1 {
		x, row := mpPadL, 0
		for _, n := range names {
			w := 40 + 8*len([]rune(n))
			if x > mpPadL && x+w > mpPadL+cols*mpW+(cols-1)*mpGapX {
				x, row = mpPadL, row+1
			}
			legend[n] = entry{x, row}
			x += w
		}
		legendH = 20 * (row + 1)
	}
	width := mpPadL + cols*mpW + (cols-1)*mpGapX + mpPadR
	height := mpPadT + legendH + rows*mpH + (rows-1)*mpGapY + mpPadB
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#ffffff"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="28" %s font-size="%d" font-weight="bold">%s</text>`+"\n", mpPadL, fontAttrs, titleSize-2, html.EscapeString(m.Title))
	for _, n := range names {
		if e, ok := legend[n]; ok {
			y := 48 + 20*e.row
			fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="3"/>`+"\n", e.x, e.x+22, y, y, colours[n])
			fmt.Fprintf(&b, `<text x="%d" y="%d" %s font-size="%d">%s</text>`+"\n", e.x+28, y+4, fontAttrs, tick, html.EscapeString(n))
		}
	}
	for k, p := range m.Panels {
		r, c := k/cols, k%cols
		x0 := float64(mpPadL + c*(mpW+mpGapX))
		y0 := float64(mpPadT + legendH + r*(mpH+mpGapY))
		px := func(x float64) float64 { return x0 + (tx(x)-xmin)/(xmax-xmin)*mpW }
		py := func(y float64) float64 { return y0 + mpH - (ty(y)-ylo)/(ymax-ylo)*mpH }
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" %s font-size="%d" font-weight="bold">%s</text>`+"\n", x0, y0-8, fontAttrs, tick, html.EscapeString(p.Title))
		for _, yt := range yticks {
			y := y0 + mpH - (yt-ylo)/(ymax-ylo)*mpH
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s"/>`+"\n", x0, x0+mpW, y, y, gridColour)
			if c == 0 {
				v := yt
				if m.LogY {
					v = math.Pow(10, yt)
				}
				fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" %s font-size="%d" text-anchor="end">%s</text>`+"\n", x0-6, y+4, fontAttrs, tick-1, formatTick(v))
			}
		}
		lastRow := r == rows-1 || k+cols >= len(m.Panels)
		for _, xt := range xTicks(xmin, xmax, m.LogX) {
			x := x0 + (xt-xmin)/(xmax-xmin)*mpW
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s"/>`+"\n", x, x, y0, y0+mpH, gridColour)
			if lastRow {
				v := xt
				if m.LogX {
					v = math.Pow(10, xt)
				}
				fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" %s font-size="%d" text-anchor="middle">%s</text>`+"\n", x, y0+mpH+16, fontAttrs, tick-1, formatTick(v))
			}
		}
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%d" height="%d" fill="none" stroke="%s"/>`+"\n", x0, y0, mpW, mpH, axisColour)
		if m.YRef > 0 {
			y := py(m.YRef)
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#444444" stroke-dasharray="5 3"/>`+"\n", x0, x0+mpW, y, y)
		}
		for _, mk := range p.Marks {
			x := px(mk.X)
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#888888" stroke-dasharray="4 3"/>`+"\n", x, x, y0, y0+mpH)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" %s font-size="%d" fill="#666666">%s</text>`+"\n", x+3, y0+12, fontAttrs, tick-2, html.EscapeString(mk.Label))
		}
		drawn := false
		for _, s := range p.Series {
			if len(s.X) == 0 {
				continue
			}
			drawn = true
			col := colours[s.Name]
			pts := reduceToPixels(s, px, py)
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>`+"\n", col, strings.Join(pts, " "))
			if len(s.X) <= 40 {
				for i := range s.X {
					fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>`+"\n", px(s.X[i]), py(s.Y[i]), col)
				}
			}
		}
		if !drawn && p.Note != "" {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" %s font-size="%d" text-anchor="middle" fill="#666666">%s</text>`+"\n", x0+mpW/2, y0+mpH/2, fontAttrs, tick, html.EscapeString(p.Note))
		}
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" %s font-size="%d" text-anchor="middle">%s</text>`+"\n", mpPadL+(width-mpPadL-mpPadR)/2, height-14, fontAttrs, labelSize, html.EscapeString(m.XLabel))
	mid := mpPadT + legendH + (height-mpPadT-legendH-mpPadB)/2
	fmt.Fprintf(&b, `<text x="18" y="%d" %s font-size="%d" text-anchor="middle" transform="rotate(-90 18 %d)">%s</text>`+"\n", mid, fontAttrs, labelSize, mid, html.EscapeString(m.YLabel))
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// reduceToPixels returns the series' points, keeping for each horizontal
// pixel only the first point, the lowest and the largest, in order.
func reduceToPixels(s Series, px, py func(float64) float64) []string {
	if len(s.X) <= 2*mpW {
		pts := make([]string, len(s.X))
		for i := range s.X {
			pts[i] = fmt.Sprintf("%.1f,%.1f", px(s.X[i]), py(s.Y[i]))
		}
		return pts
	}
	var pts []string
	for i := 0; i < len(s.X); {
		col := math.Floor(px(s.X[i]))
		lo, hi := i, i
		j := i
		for ; j < len(s.X) && math.Floor(px(s.X[j])) == col; j++ {
			if s.Y[j] < s.Y[lo] {
				lo = j
			}
			if s.Y[j] > s.Y[hi] {
				hi = j
			}
		}
		a, b := min(lo, hi), max(lo, hi)
		for _, k := range []int{i, a, b} {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(s.X[k]), py(s.Y[k])))
		}
		i = j
	}
	return pts
}
