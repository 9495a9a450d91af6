package bench

import (
	"fmt"
	"image/color"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Plot files written by WritePlots.
const (
	PlotSolveTime    = "solve-time.png"
	PlotUtilization  = "utilization.png"
	PlotDistance     = "distance.png"
	PlotRebalance    = "rebalance.png"
	plotWidth        = 7 * vg.Inch
	plotHeight       = 4 * vg.Inch
	timeScenario     = "contention-1.0"
	distanceScenario = "minimal-distance"
)

// palette is Okabe and Ito's colour-blind safe palette: no two series look alike.
func palette(i int) color.Color {
	colors := []color.RGBA{{230, 159, 0, 255}, {0, 114, 178, 255}, {0, 158, 115, 255}, {213, 94, 0, 255},
		{86, 180, 233, 255}, {204, 121, 167, 255}, {240, 228, 66, 255}, {0, 0, 0, 255}}
	return colors[i%len(colors)]
}

// countTicks are ticks for counts: whole numbers at 1, 2 or 5 times a power of ten, labelled without decimals.
type countTicks struct{}

// Ticks returns about five labelled whole-number ticks between min and max.
func (countTicks) Ticks(min, max float64) []plot.Tick {
	if max <= min {
		return []plot.Tick{{Value: min, Label: strconv.FormatFloat(math.Round(min), 'f', 0, 64)}}
	}
	raw := (max - min) / 5
	magnitude := math.Pow(10, math.Floor(math.Log10(raw)))
	step := magnitude
	for _, m := range []float64{1, 2, 5, 10} {
		if step = m * magnitude; step >= raw {
			break
		}
	}
	step = math.Max(1, math.Round(step))
	var ticks []plot.Tick
	for v := math.Ceil(min/step) * step; v <= max; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return ticks
}

// legendInside puts the legend in the plot's top left corner, inside the canvas.
func legendInside(p *plot.Plot) {
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(8), -vg.Points(4)
}

// WritePlots draws, into dir, for windows: model + solve time against window size per solver; the distribution
// of seed utilization after greedy and LP; and the distribution of placement distances after greedy and LP, each
// for the largest window of its scenario (contention-1.0 and minimal-distance, or the first scenario run). For
// rebalancings: the lower bound against the moves, stranded evictions and unresolved excess of each method.
// It returns the files written.
func WritePlots(dir string, all *Results) ([]string, error) {
	var written []string
	if len(all.Rebalances) > 0 {
		if err := plotRebalance(filepath.Join(dir, PlotRebalance), all.Rebalances); err != nil {
			return nil, fmt.Errorf("%s: %w", PlotRebalance, err)
		}
		written = append(written, PlotRebalance)
	}
	if results := all.Windows; len(results) > 0 {
		if err := plotWindows(dir, results); err != nil {
			return nil, err
		}
		written = append(written, PlotSolveTime, PlotUtilization, PlotDistance)
	}
	return written, nil
}

func plotWindows(dir string, results []Result) error {
	if err := plotSolveTime(filepath.Join(dir, PlotSolveTime), results); err != nil {
		return fmt.Errorf("%s: %w", PlotSolveTime, err)
	}
	greedy, lp := largest(results, timeScenario)
	utilizationBins := []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0000001}
	if err := plotDistribution(filepath.Join(dir, PlotUtilization), fmt.Sprintf("Seed utilization after the window (%s %s)", greedy.Scenario, greedy.Size),
		"utilization (usage / allocatable)", "seeds", utilizationBins, []string{"0-10%", "10-20%", "20-30%", "30-40%", "40-50%", "50-60%", "60-70%", "70-80%", "80-90%", "90-100%"},
		greedy.Utilizations, lp.Utilizations); err != nil {
		return fmt.Errorf("%s: %w", PlotUtilization, err)
	}
	greedy, lp = largest(results, distanceScenario)
	distanceBins := []float64{0, 1, 11, 26, 51, 101, 201, 1e9}
	if err := plotDistribution(filepath.Join(dir, PlotDistance), fmt.Sprintf("Placement distances (%s %s)", greedy.Scenario, greedy.Size),
		"region distance", "placements", distanceBins, []string{"0", "1-10", "11-25", "26-50", "51-100", "101-200", ">200"},
		asFloats(greedy.Distances), asFloats(lp.Distances)); err != nil {
		return fmt.Errorf("%s: %w", PlotDistance, err)
	}
	return nil
}

// largest returns the greedy and LP results of the largest window of the scenario (or of the first scenario).
func largest(results []Result, scenario string) (greedy, lp Result) {
	if !slices.ContainsFunc(results, func(r Result) bool { return r.Scenario == scenario }) {
		scenario = results[0].Scenario
	}
	for _, r := range results {
		if r.Scenario != scenario {
			continue
		}
		switch {
		case r.Solver == SolverGreedy && r.Pending >= greedy.Pending:
			greedy = r
		case r.Solver == SolverLP && r.Pending >= lp.Pending:
			lp = r
		}
	}
	return greedy, lp
}

func plotSolveTime(file string, results []Result) error {
	p := plot.New()
	p.Title.Text = "Model + solve time (median) by window size"
	p.X.Label.Text = "pending shoots in the window"
	p.Y.Label.Text = "seconds"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{}, plot.LogTicks{}
	var lines []any
	for _, solverName := range []string{SolverGreedy, SolverLP} {
		bySize := map[int][]float64{}
		for _, r := range results {
			if r.Solver == solverName {
				bySize[r.Pending] = append(bySize[r.Pending], r.ModelP50+r.SolveP50)
			}
		}
		var points plotter.XYs
		for _, pending := range slices.Sorted(maps.Keys(bySize)) {
			points = append(points, plotter.XY{X: float64(pending), Y: max(Quantile(bySize[pending], 0.5), 1e-4)})
		}
		lines = append(lines, solverName, points)
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return err
	}
	legendInside(p)
	p.X.Min, p.X.Max = p.X.Min/1.5, p.X.Max*1.5 // the outer points inside the canvas
	p.Y.Max *= 2                                // and room for the legend
	return p.Save(plotWidth, plotHeight, file)
}

// plotDistribution draws counts of greedy's and the LP's values per bin side by side.
func plotDistribution(file, title, xLabel, yLabel string, bins []float64, labels []string, greedy, lp []float64) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	width := vg.Points(14)
	for i, series := range []struct {
		name   string
		values []float64
	}{{SolverGreedy, greedy}, {SolverLP, lp}} {
		if err := addBars(p, series.name, binCounts(series.values, bins), i, 2, width); err != nil {
			return err
		}
	}
	legendInside(p)
	p.Y.Max *= 1.15 // room for the legend
	p.Y.Tick.Marker = countTicks{}
	p.NominalX(labels...)
	return p.Save(plotWidth, plotHeight, file)
}

// binCounts counts values v with bins[i] <= v < bins[i+1].
func binCounts(values, bins []float64) plotter.Values {
	counts := make(plotter.Values, len(bins)-1)
	for _, v := range values {
		for i := range counts {
			if v >= bins[i] && v < bins[i+1] {
				counts[i]++
				break
			}
		}
	}
	return counts
}

func asFloats(values []int) []float64 {
	out := make([]float64, len(values))
	for i, v := range values {
		out[i] = float64(v)
	}
	return out
}

// plotRebalance draws, per scenario and size, the lower bound and each method's moves, stranded evictions and
// unresolved excess side by side.
func plotRebalance(file string, results []RebalanceResult) error {
	p := plot.New()
	p.Title.Text = "Rebalancing: moves against the lower bound"
	p.Y.Label.Text = "shoots"
	var groups []string
	index := map[string]int{}
	for _, r := range results {
		key := r.Scenario + "\n" + r.Size
		if _, ok := index[key]; !ok {
			index[key] = len(groups)
			groups = append(groups, key)
		}
	}
	series := []struct {
		name  string
		value func(RebalanceResult) (float64, bool)
	}{
		{"lower bound", func(r RebalanceResult) (float64, bool) { return float64(r.LowerBound), r.Method == MethodLP }},
		{"lp moves", func(r RebalanceResult) (float64, bool) { return float64(r.Moves), r.Method == MethodLP }},
		{"lp unresolved", func(r RebalanceResult) (float64, bool) { return float64(r.Unresolved), r.Method == MethodLP }},
		{"naive moves", func(r RebalanceResult) (float64, bool) { return float64(r.Moves), r.Method == MethodNaive }},
		{"naive stranded", func(r RebalanceResult) (float64, bool) { return float64(r.Stranded), r.Method == MethodNaive }},
		{"naive unresolved", func(r RebalanceResult) (float64, bool) { return float64(r.Unresolved), r.Method == MethodNaive }},
	}
	width := vg.Points(10)
	for i, s := range series {
		values := make(plotter.Values, len(groups))
		for _, r := range results {
			if v, ok := s.value(r); ok {
				values[index[r.Scenario+"\n"+r.Size]] = v
			}
		}
		if err := addBars(p, s.name, values, i, len(series), width); err != nil {
			return err
		}
	}
	legendInside(p)
	p.Y.Max *= 1.4 // room for the legend
	p.Y.Tick.Marker = countTicks{}
	p.NominalX(groups...)
	p.X.Min, p.X.Max = p.X.Min-0.3, p.X.Max+0.3 // the outer groups' labels inside the canvas
	return p.Save(plotWidth, plotHeight, file)
}

// addBars adds series i of n as bars of the given width, side by side with the others around each tick, with a
// legend entry.
func addBars(p *plot.Plot, name string, values plotter.Values, i, n int, width vg.Length) error {
	bars, err := plotter.NewBarChart(values, width)
	if err != nil {
		return err
	}
	bars.Color = palette(i)
	bars.LineStyle.Width = 0
	bars.Offset = width * vg.Length(2*i-n+1) / 2
	p.Add(bars)
	p.Legend.Add(name, bars)
	return nil
}
