//go:build !linux

package ingest

import (
	"errors"
	"os"
)

// mapFile is not done here: files are read (readInParts).
func mapFile(*os.File, int64) ([]byte, error) { return nil, errors.ErrUnsupported }

// unmapFile undoes mapFile.
func unmapFile([]byte) error { return nil }
