package bench

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"text/tabwriter"
	"time"
)

// WriteTable prints the results as an aligned table, one row per scenario, size and solver.
func WriteTable(out io.Writer, results []Result) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "SCENARIO\tSIZE\tSOLVER\tPLACED\tUNSCHED\tMEAN DIST\tX-CONT\tMAX UTIL\tUTIL SD\tMODEL p50\tSOLVE p50\tSOLVE p99\tVERIFY p50\tDECISIONS/s\tFALLBACKS\tPLACED/G\tDIST/G\tSD/G\t")
	for _, r := range results {
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%d\t%.1f\t%d\t%.2f\t%.4f\t%s\t%s\t%s\t%s\t%.0f\t%d\t%s\t%s\t%s\t\n",
			r.Scenario, r.Size, r.Solver, r.Placed, r.Unscheduled, r.MeanDistance, r.CrossContinent, r.MaxUtilization,
			r.UtilizationStddev, seconds(r.ModelP50), seconds(r.SolveP50), seconds(r.SolveP99), seconds(r.VerifyP50), r.DecisionsPerSecond,
			r.Fallbacks, ratioText(r.PlacedVsGreedy), ratioText(r.DistanceVsGreedy), ratioText(r.StddevVsGreedy))
	}
	return w.Flush()
}

func seconds(s float64) string {
	return (time.Duration(s * float64(time.Second))).Round(100 * time.Microsecond).String()
}

func ratioText(r *float64) string {
	if r == nil {
		return "-"
	}
	return strconv.FormatFloat(*r, 'f', 3, 64)
}

// WriteFiles stores results.csv and results.json in dir.
func WriteFiles(dir string, results []Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(results, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), append(data, '\n'), 0o644); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "results.csv"))
	if err != nil {
		return err
	}
	defer f.Close()
	c := csv.NewWriter(f)
	header := []string{"scenario", "size", "pending", "seeds", "solver", "placed", "unscheduled", "totalDistance", "meanDistance",
		"crossContinent", "maxUtilization", "utilizationStddev", "objective", "optimal", "fallbacks", "modelP50", "modelP99",
		"solveP50", "solveP99", "verifyP50", "decisionsPerSecond", "placedVsGreedy", "meanDistanceVsGreedy", "utilizationStddevVsGreedy", "objectiveVsGreedy"}
	if err := c.Write(header); err != nil {
		return err
	}
	f64 := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	opt := func(v *float64) string {
		if v == nil {
			return ""
		}
		return f64(*v)
	}
	for _, r := range results {
		row := []string{r.Scenario, r.Size, strconv.Itoa(r.Pending), strconv.Itoa(r.Seeds), r.Solver, strconv.Itoa(r.Placed),
			strconv.Itoa(r.Unscheduled), strconv.Itoa(r.TotalDistance), f64(r.MeanDistance), strconv.Itoa(r.CrossContinent),
			f64(r.MaxUtilization), f64(r.UtilizationStddev), f64(r.Objective), strconv.FormatBool(r.Optimal), strconv.Itoa(r.Fallbacks),
			f64(r.ModelP50), f64(r.ModelP99), f64(r.SolveP50), f64(r.SolveP99), f64(r.VerifyP50), f64(r.DecisionsPerSecond),
			opt(r.PlacedVsGreedy), opt(r.DistanceVsGreedy), opt(r.StddevVsGreedy), opt(r.ObjectiveVsGreedy)}
		if err := c.Write(row); err != nil {
			return err
		}
	}
	c.Flush()
	return c.Error()
}
