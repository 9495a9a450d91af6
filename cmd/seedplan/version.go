package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/seedplan/seedplan/internal/buildinfo"
	"github.com/seedplan/seedplan/report"
)

// versionLine is what `seedplan version` and `seedplan --version` print.
func versionLine(info buildinfo.Info) string {
	return fmt.Sprintf("seedplan %s (commit %s), built with %s, Gardener API %s", info.Version, info.Revision, info.GoVersion, info.Gardener)
}

// versionFormats are the output formats of `seedplan version`.
func versionFormats() []string { return []string{"text", "json", "yaml"} }

func newVersionCommand() *cobra.Command {
	var output string
	formats := versionFormats()
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print seedplan's version, the commit it was built from, and its Go and Gardener API versions",
		Args:  noArguments,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := report.CheckFormat(output, formats); err != nil {
				return fmt.Errorf("-o: %w", err)
			}
			info := buildinfo.Read()
			if output == "text" {
				_, err := fmt.Fprintln(cmd.OutOrStdout(), versionLine(info))
				return err
			}
			return report.PrintData(cmd.OutOrStdout(), output, info)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: "+strings.Join(formats, ", "))
	return cmd
}
