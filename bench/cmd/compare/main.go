// Command compare runs every comparison benchmark of package bench in one
// process, interleaved round by round, writes the raw results in the
// standard benchmark format (for benchstat), and prints a Markdown table of
// medians with each library's ratio to reconnect, per operation.
//
//	go run ./cmd/compare -count 16 -benchtime 150ms -raw results.txt
//
// Statistics come from golang.org/x/perf (benchstat's own packages): the
// median with its confidence interval, assuming nothing about the
// distribution.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/reconnect-go/reconnect/bench"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

func main() {
	testing.Init()
	count := flag.Int("count", 6, "rounds; every benchmark runs once per round, in turn")
	benchtime := flag.String("benchtime", "300ms", "time per benchmark run")
	raw := flag.String("raw", "", "also write the raw results to this file (benchstat reads it)")
	only := flag.String("run", "", "run only the benchmarks whose operation/library matches this regular expression")
	flag.Parse()
	match, err := regexp.Compile(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "compare: -run:", err)
		os.Exit(2)
	}
	if *count < 1 || *count > 100 {
		fmt.Fprintln(os.Stderr, "compare: -count must be between 1 and 100")
		os.Exit(2)
	}
	if err := flag.Set("test.benchtime", *benchtime); err != nil {
		fmt.Fprintln(os.Stderr, "compare: -benchtime:", err)
		os.Exit(2)
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "goos: %s\ngoarch: %s\npkg: github.com/reconnect-go/reconnect/bench\n", runtime.GOOS, runtime.GOARCH)
	for round := 1; round <= *count; round++ {
		fmt.Fprintf(os.Stderr, "round %d/%d\n", round, *count)
		for _, x := range bench.All {
			if !match.MatchString(x.Op + "/" + x.Lib) {
				continue
			}
			r := testing.Benchmark(x.Fn)
			fmt.Fprintf(&out, "BenchmarkAll/%s/%s-%d\t%d\t%.2f ns/op\t%d B/op\t%d allocs/op\n",
				x.Op, x.Lib, runtime.GOMAXPROCS(0), r.N, float64(r.T.Nanoseconds())/float64(r.N), r.AllocedBytesPerOp(), r.AllocsPerOp())
		}
	}
	if *raw != "" {
		if err := os.WriteFile(*raw, out.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "compare:", err)
			os.Exit(1)
		}
	}
	if err := table(os.Stdout, &out); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

// table summarizes the results per (operation, library) with benchmath and
// writes the Markdown table.
func table(w io.Writer, results io.Reader) error {
	samples := map[string]map[string][]float64{} // name → unit → values
	var names []string
	r := benchfmt.NewReader(results, "results")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		name := string(res.Name.Base()) + string(res.Name.Full()[len(res.Name.Base()):])
		name = strings.TrimPrefix(name, "All/")
		if i := strings.LastIndexByte(name, '-'); i >= 0 {
			name = name[:i]
		}
		if samples[name] == nil {
			samples[name] = map[string][]float64{}
			names = append(names, name)
		}
		for _, v := range res.Values {
			samples[name][v.Unit] = append(samples[name][v.Unit], v.Value)
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	median := func(name, unit string) (benchmath.Summary, bool) {
		vs := samples[name][unit]
		if len(vs) == 0 {
			return benchmath.Summary{}, false
		}
		return benchmath.AssumeNothing.Summary(benchmath.NewSample(vs, &benchmath.DefaultThresholds), 0.95), true
	}
	notes := map[string]string{}
	for _, x := range bench.All {
		notes[x.Op+"/"+x.Lib] = x.Note
	}
	fmt.Fprintln(w, "| operation | library | ns/op (median, 95% CI) | allocs/op | ratio to reconnect | note |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	var ops []string
	for _, n := range names {
		op, _, _ := strings.Cut(n, "/")
		if !slices.Contains(ops, op) {
			ops = append(ops, op)
		}
	}
	for _, op := range ops {
		ours, ok := median(op+"/reconnect", "sec/op")
		for _, n := range names {
			if !strings.HasPrefix(n, op+"/") {
				continue
			}
			lib := strings.TrimPrefix(n, op+"/")
			s, _ := median(n, "sec/op")
			a, _ := median(n, "allocs/op")
			ratio := "—"
			if ok && lib != "reconnect" && ours.Center > 0 {
				ratio = fmt.Sprintf("%.1f×", s.Center/ours.Center)
				if s.Center < ours.Center {
					ratio = fmt.Sprintf("%.2f×", s.Center/ours.Center)
				}
			}
			fmt.Fprintf(w, "| %s | %s | %.1f (%.1f – %.1f) | %.0f | %s | %s |\n", op, lib, s.Center*1e9, s.Lo*1e9, s.Hi*1e9, a.Center, ratio, notes[n])
		}
	}
	return nil
}
