package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/cuda"
	"github.com/aucopt/aucopt/engine/solver"
)

const backendsExamples = `  aucopt backends
  aucopt backends --backend avx2      # would avx2 work here, and if not, why?
  AUCOPT_BACKEND=generic aucopt backends
  aucopt backends --json
`

func runBackends(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("backends", "backends [--backend NAME] [--json]", backendsExamples, stdout, stderr)
	name := fs.String("backend", "", "the backend to resolve: auto, cuda, avx2 or generic (default $"+backends.Env+", else auto)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	statuses := backends.Report(solver.DeviceRule())
	cpu := backends.DetectCPU()
	requested := *name
	if requested == "" {
		requested = os.Getenv(backends.Env)
	}
	// selected is the named backend, or for auto the one it picks for a workload that
	// does not run on a device; device (auto only) the one for those that do.
	b, selErr := backends.Select(*name)
	selected, device, deviceFor := "", "", ""
	if selErr == nil {
		if b == nil {
			for _, s := range statuses {
				switch {
				case !s.Auto:
				case s.Name == "cuda":
					device, deviceFor = s.Name, s.AutoFor
				default:
					selected = s.Name
				}
			}
		} else {
			selected = b.Name()
			b.Close()
		}
	}
	libs := cuda.Discover() // where the CUDA backend looks for its libraries
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		report := struct {
			Backends  []backends.Status `json:"backends"`
			CPU       backends.CPU      `json:"cpu"`
			Requested string            `json:"requested"`
			Selected  string            `json:"selected,omitempty"`
			Device    string            `json:"selected_on_device,omitempty"` // auto: the backend of device workloads
			Error     string            `json:"error,omitempty"`
			CUDALibs  any               `json:"cuda_libraries"`
		}{statuses, cpu, requested, selected, device, "", libs}
		if selErr != nil {
			report.Error = selErr.Error()
		}
		if err := enc.Encode(report); err != nil {
			return err
		}
		return selErr
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "BACKEND\tSTATUS\tDETAIL")
	for _, s := range statuses {
		status, detail := "available", s.Detail
		if !s.Available {
			status, detail = "unavailable", s.Reason
		}
		if s.Auto {
			status += " (auto: " + s.AutoFor + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Name, status, detail)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\nCPU: %s (%s, %d cores): %s\n", cpu.Brand, cpu.Arch, cpu.Cores, cpu.FeatureList())
	fmt.Fprintf(stdout, "\nCUDA libraries:\n  %s\n\n", strings.Join(libs.Lines(), "\n  "))
	if requested == "" {
		requested = "auto"
	}
	if selErr != nil {
		return selErr
	}
	if device != "" {
		selected += ", and " + device + " for " + deviceFor
	}
	fmt.Fprintf(stdout, "selected: %s (asked for %s)\n", selected, requested)
	return nil
}
