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

// WriteTable prints the results as aligned tables: windows, one row per scenario, size and solver; then
// rebalancings, one row per scenario, size and method.
func WriteTable(out io.Writer, results *Results) error {
	if len(results.Windows) > 0 {
		if err := writeWindowTable(out, results.Windows); err != nil {
			return err
		}
	}
	if len(results.Rebalances) == 0 {
		return nil
	}
	if len(results.Windows) > 0 {
		fmt.Fprintln(out)
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "REBALANCE\tSIZE\tMETHOD\tSHOOTS\tLOWER BOUND\tMOVES\tEVICTIONS\tSTRANDED\tINTO > TARGET\tUNRESOLVED\tSEEDS > TARGET\tMEAN MOVE DIST\tOPTIMAL\tMODEL p50\tSOLVE p50\tSOLVE p99\t")
	for _, r := range results.Rebalances {
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\t%v\t%s\t%s\t%s\t\n",
			r.Scenario, r.Size, r.Method, r.Shoots, r.LowerBound, r.Moves, r.Evictions, r.Stranded, r.MovesAboveTarget, r.Unresolved,
			r.SeedsAboveTarget, r.MeanMoveDistance, r.Optimal, seconds(r.ModelP50), seconds(r.SolveP50), seconds(r.SolveP99))
	}
	return w.Flush()
}

func writeWindowTable(out io.Writer, results []Result) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "SCENARIO\tSIZE\tSOLVER\tPLACED\tUNSCHED\tMEAN DIST\tX-CONT\tMAX UTIL\tUTIL SD\tMODEL p50\tSOLVE p50\tSOLVE p99\tVERIFY p50\tDECISIONS/s\tFALLBACKS\tPLACED/G\tDIST/G\tSD/G\tABOVE TARGET\tUNAVOIDABLE\t")
	for _, r := range results {
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%d\t%.1f\t%d\t%.2f\t%.4f\t%s\t%s\t%s\t%s\t%.0f\t%d\t%s\t%s\t%s\t%d\t%d\t\n",
			r.Scenario, r.Size, r.Solver, r.Placed, r.Unscheduled, r.MeanDistance, r.CrossContinent, r.MaxUtilization,
			r.UtilizationStddev, seconds(r.ModelP50), seconds(r.SolveP50), seconds(r.SolveP99), seconds(r.VerifyP50), r.DecisionsPerSecond,
			r.Fallbacks, ratioText(r.PlacedVsGreedy), ratioText(r.DistanceVsGreedy), ratioText(r.StddevVsGreedy), r.AboveTarget, r.Unavoidable)
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

// WriteFiles stores in dir results.csv and results.json when windows were run, and rebalance.csv and
// rebalance.json when rebalancings were.
func WriteFiles(dir string, results *Results) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if len(results.Windows) > 0 {
		if err := writeJSON(filepath.Join(dir, "results.json"), results.Windows); err != nil {
			return err
		}
		if err := writeWindowCSV(filepath.Join(dir, "results.csv"), results.Windows); err != nil {
			return err
		}
	}
	if len(results.Rebalances) == 0 {
		return nil
	}
	if err := writeJSON(filepath.Join(dir, "rebalance.json"), results.Rebalances); err != nil {
		return err
	}
	header := []string{"scenario", "size", "shoots", "seeds", "method", "lowerBound", "moves", "evictions", "stranded",
		"movesAboveTarget", "unresolved", "seedsAboveTarget", "meanMoveDistance", "optimal", "modelP50", "solveP50", "solveP99"}
	var rows [][]string
	for _, r := range results.Rebalances {
		rows = append(rows, []string{r.Scenario, r.Size, strconv.Itoa(r.Shoots), strconv.Itoa(r.Seeds), r.Method,
			strconv.Itoa(r.LowerBound), strconv.Itoa(r.Moves), strconv.Itoa(r.Evictions), strconv.Itoa(r.Stranded),
			strconv.Itoa(r.MovesAboveTarget), strconv.Itoa(r.Unresolved), strconv.Itoa(r.SeedsAboveTarget), f64(r.MeanMoveDistance), strconv.FormatBool(r.Optimal),
			f64(r.ModelP50), f64(r.SolveP50), f64(r.SolveP99)})
	}
	return writeCSV(filepath.Join(dir, "rebalance.csv"), header, rows)
}

func writeJSON(file string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(data, '\n'), 0o644)
}

func writeCSV(file string, header []string, rows [][]string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	c := csv.NewWriter(f)
	if err := c.Write(header); err != nil {
		return err
	}
	if err := c.WriteAll(rows); err != nil {
		return err
	}
	return f.Close()
}

func f64(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

func writeWindowCSV(file string, results []Result) error {
	header := []string{"scenario", "size", "pending", "seeds", "solver", "placed", "unscheduled", "totalDistance", "meanDistance",
		"crossContinent", "maxUtilization", "utilizationStddev", "objective", "optimal", "fallbacks", "modelP50", "modelP99",
		"solveP50", "solveP99", "verifyP50", "decisionsPerSecond", "placedVsGreedy", "meanDistanceVsGreedy", "utilizationStddevVsGreedy", "objectiveVsGreedy"}
	opt := func(v *float64) string {
		if v == nil {
			return ""
		}
		return f64(*v)
	}
	var rows [][]string
	for _, r := range results {
		rows = append(rows, []string{r.Scenario, r.Size, strconv.Itoa(r.Pending), strconv.Itoa(r.Seeds), r.Solver, strconv.Itoa(r.Placed),
			strconv.Itoa(r.Unscheduled), strconv.Itoa(r.TotalDistance), f64(r.MeanDistance), strconv.Itoa(r.CrossContinent),
			f64(r.MaxUtilization), f64(r.UtilizationStddev), f64(r.Objective), strconv.FormatBool(r.Optimal), strconv.Itoa(r.Fallbacks),
			f64(r.ModelP50), f64(r.ModelP99), f64(r.SolveP50), f64(r.SolveP99), f64(r.VerifyP50), f64(r.DecisionsPerSecond),
			opt(r.PlacedVsGreedy), opt(r.DistanceVsGreedy), opt(r.StddevVsGreedy), opt(r.ObjectiveVsGreedy)})
	}
	return writeCSV(file, header, rows)
}
