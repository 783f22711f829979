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
	// Shade, when Shade[1] is positive, shades the x range from Shade[0]
	// to Shade[1] (a band of good values; a narrow strip for one value),
	// labelled ShadeLabel.
	Shade      [2]float64
	ShadeLabel string
	// Corner is a short grey note at the panel's top right (for instance
	// that a series goes on past the axis).
	Corner string
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
	YRef float64
	// XMax, when positive, ends the x axis there (points beyond it are
	// not drawn) instead of at the largest x.
	XMax float64
	// FreeY gives every panel its own y range, from 0 to just above its
	// largest value (its interval's upper end included), with its own tick
	// labels: for panels whose scales differ, where a shared axis would
	// flatten some of them. The x axis stays shared.
	FreeY  bool
	Panels []Panel
}

const (
	mpW, mpH                       = 300, 170 // one panel's plot area
	mpGapX, mpGapY                 = 24, 46
	mpPadL, mpPadR, mpPadT, mpPadB = 78, 20, 60, 56
)

// yAxis is a y range in axis units and its ticks.
type yAxis struct {
	lo, hi float64
	ticks  []float64
}

// makeYAxis fits a y axis to the values (in axis units) from ymin to
// ymax.
func makeYAxis(ymin, ymax float64, logY bool) yAxis {
	if math.IsInf(ymin, 0) || math.IsInf(ymax, 0) {
		ymin, ymax = 0, 1
	}
	a := yAxis{}
	if logY {
		a.lo = math.Floor(ymin)
		a.hi = math.Max(a.lo+1, math.Ceil(ymax))
		step := math.Max(1, math.Ceil((a.hi-a.lo)/4))
		for e := a.lo; e <= a.hi; e += step {
			a.ticks = append(a.ticks, e)
		}
		return a
	}
	if !(ymax > 1e-12) {
		ymax = 1 // nothing above zero: an axis from 0 to 1
	}
	step := niceCeil(ymax / 4)
	a.hi = step * math.Ceil(ymax/step)
	for v := 0.0; v <= a.hi+step/2; v += step {
		a.ticks = append(a.ticks, v)
	}
	if a.hi <= a.lo {
		a.hi = a.lo + 1
	}
	return a
}

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
	inX := func(x float64) bool { return m.XMax <= 0 || tx(x) <= tx(m.XMax)+1e-9 }
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	pymin, pymax := make([]float64, len(m.Panels)), make([]float64, len(m.Panels))
	colours := map[string]string{}
	var names []string
	for k, p := range m.Panels {
		pymin[k], pymax[k] = math.Inf(1), math.Inf(-1)
		for _, s := range p.Series {
			if _, ok := colours[s.Name]; !ok && len(s.X) > 0 {
				colours[s.Name] = palette[len(names)%len(palette)]
				names = append(names, s.Name)
			}
			for i := range s.X {
				if !inX(s.X[i]) {
					continue
				}
				xmin, xmax = math.Min(xmin, tx(s.X[i])), math.Max(xmax, tx(s.X[i]))
				top := s.Y[i]
				if len(s.Hi) == len(s.X) {
					top = math.Max(top, s.Hi[i])
				}
				pymin[k], pymax[k] = math.Min(pymin[k], ty(s.Y[i])), math.Max(pymax[k], ty(top))
			}
		}
		ymin, ymax = math.Min(ymin, pymin[k]), math.Max(ymax, pymax[k])
	}
	if math.IsInf(xmin, 0) {
		xmin, xmax = 0, 1
	}
	if m.XMax > 0 {
		xmax = tx(m.XMax)
	}
	if xmax == xmin {
		xmax = xmin + 1
	}
	shared := makeYAxis(ymin, ymax, m.LogY)
	gapX := mpGapX
	if m.FreeY {
		gapX = mpGapX + 40 // room for every panel's tick labels
	}
	// The legend: names in rows under the title, wrapped at the width.
	type entry struct{ x, row int }
	legend := map[string]entry{}
	legendH := 0
	if len(names) > 1 {
		x, row := mpPadL, 0
		for _, n := range names {
			w := 40 + 8*len([]rune(n))
			if x > mpPadL && x+w > mpPadL+cols*mpW+(cols-1)*gapX {
				x, row = mpPadL, row+1
			}
			legend[n] = entry{x, row}
			x += w
		}
		legendH = 20 * (row + 1)
	}
	width := mpPadL + cols*mpW + (cols-1)*gapX + mpPadR
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
		ya := shared
		if m.FreeY {
			ya = makeYAxis(pymin[k], pymax[k], m.LogY)
		}
		x0 := float64(mpPadL + c*(mpW+gapX))
		y0 := float64(mpPadT + legendH + r*(mpH+mpGapY))
		px := func(x float64) float64 { return x0 + (tx(x)-xmin)/(xmax-xmin)*mpW }
		py := func(y float64) float64 { return y0 + mpH - (ty(y)-ya.lo)/(ya.hi-ya.lo)*mpH }
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" %s font-size="%d" font-weight="bold">%s</text>`+"\n", x0, y0-8, fontAttrs, tick, html.EscapeString(p.Title))
		if p.Shade[1] >= p.Shade[0] && p.Shade[1] > 0 {
			a, z := px(p.Shade[0]), px(p.Shade[1])
			if z-a < 8 { // one value: a narrow strip around it
				a, z = (a+z)/2-4, (a+z)/2+4
			}
			a, z = math.Max(a, x0), math.Min(z, x0+mpW)
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%d" fill="#009E73" fill-opacity="0.12"/>`+"\n", a, y0, math.Max(z-a, 0), mpH)
			if p.ShadeLabel != "" {
				fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" %s font-size="%d" fill="#006b4f">%s</text>`+"\n", a+3, y0+mpH-6, fontAttrs, tick-2, html.EscapeString(p.ShadeLabel))
			}
		}
		for _, yt := range ya.ticks {
			y := y0 + mpH - (yt-ya.lo)/(ya.hi-ya.lo)*mpH
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s"/>`+"\n", x0, x0+mpW, y, y, gridColour)
			if c == 0 || m.FreeY {
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
			if !inX(mk.X) {
				continue
			}
			x := px(mk.X)
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#888888" stroke-dasharray="4 3"/>`+"\n", x, x, y0, y0+mpH)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" %s font-size="%d" fill="#666666">%s</text>`+"\n", x+3, y0+12, fontAttrs, tick-2, html.EscapeString(mk.Label))
		}
		if p.Corner != "" {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" %s font-size="%d" text-anchor="end" fill="#666666">%s</text>`+"\n", x0+mpW-4, y0+26, fontAttrs, tick-2, html.EscapeString(p.Corner))
		}
		drawn := false
		for _, s := range p.Series {
			s = clipX(s, inX)
			if len(s.X) == 0 {
				continue
			}
			drawn = true
			col := colours[s.Name]
			if len(s.Lo) == len(s.X) && len(s.Hi) == len(s.X) {
				var band []string
				for i := range s.X {
					band = append(band, fmt.Sprintf("%.1f,%.1f", px(s.X[i]), py(s.Hi[i])))
				}
				for i := len(s.X) - 1; i >= 0; i-- {
					band = append(band, fmt.Sprintf("%.1f,%.1f", px(s.X[i]), py(s.Lo[i])))
				}
				fmt.Fprintf(&b, `<polygon fill="%s" fill-opacity="0.18" stroke="none" points="%s"/>`+"\n", col, strings.Join(band, " "))
			}
			dash := ""
			if s.Dashed {
				dash = ` stroke-dasharray="6 4"`
			}
			pts := reduceToPixels(s, px, py)
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5"%s points="%s"/>`+"\n", col, dash, strings.Join(pts, " "))
			if len(s.X) <= 40 && !s.Dashed {
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

// clipX keeps the points of s whose x passes keep.
func clipX(s Series, keep func(float64) bool) Series {
	n := 0
	for n < len(s.X) && keep(s.X[n]) {
		n++
	}
	if n == len(s.X) {
		return s
	}
	out := Series{Name: s.Name, Dashed: s.Dashed}
	for i := range s.X {
		if keep(s.X[i]) {
			out.X, out.Y = append(out.X, s.X[i]), append(out.Y, s.Y[i])
			if len(s.Lo) == len(s.X) && len(s.Hi) == len(s.X) {
				out.Lo, out.Hi = append(out.Lo, s.Lo[i]), append(out.Hi, s.Hi[i])
			}
		}
	}
	return out
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
