package ingest

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps size bytes of f, read-only, into memory. Its pages are those of the page cache: nothing is copied
// and no memory of the process's own is taken, where reading would copy every byte into pages that the kernel
// first has to fault in one by one.
func mapFile(f *os.File, size int64) ([]byte, error) {
	conn, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var data []byte
	var mapErr error
	if err := conn.Control(func(fd uintptr) {
		data, mapErr = syscall.Mmap(int(fd), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	}); err != nil {
		return nil, err
	}
	if mapErr != nil {
		return nil, fmt.Errorf("mapping it: %w", mapErr)
	}
	return data, nil
}

// unmapFile undoes mapFile.
func unmapFile(data []byte) error { return syscall.Munmap(data) }
