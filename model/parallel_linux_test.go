package model

import (
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// A reader of a mapped file asks for panics on memory faults, and recovers from them, in the goroutine that calls
// OnEveryProcessor: a fault in one of its goroutines must reach it there instead of crashing the program.
func TestOnEveryProcessorRaisesAFaultInItsCaller(t *testing.T) {
	pageSize := syscall.Getpagesize()
	inaccessible, err := syscall.Mmap(-1, 0, pageSize, syscall.PROT_NONE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(inaccessible)
	for _, procs := range []int{1, 2, 4} {
		previous := runtime.GOMAXPROCS(procs)
		recovered := faultingRun(inaccessible, 50)
		runtime.GOMAXPROCS(previous)
		if procs == 1 {
			// One processor's work is done in the caller's goroutine: the runtime's own error reaches it.
			if _, fault := recovered.(interface{ Addr() uintptr }); !fault {
				t.Errorf("GOMAXPROCS=1: the caller recovered %v, want the fault", recovered)
			}
			continue
		}
		fault, ok := recovered.(*Fault)
		if !ok {
			t.Fatalf("GOMAXPROCS=%d: the caller recovered %v, want the fault", procs, recovered)
		}
		if page := uintptr(unsafe.Pointer(&inaccessible[0])); fault.Addr() != page {
			t.Errorf("GOMAXPROCS=%d: the fault is at %#x, want the inaccessible page's %#x", procs, fault.Addr(), page)
		}
		if !strings.Contains(fault.Error(), "model.faultingRun.func") {
			t.Errorf("GOMAXPROCS=%d: the fault's message does not show the stack where it happened:\n%s", procs, fault.Error())
		}
	}
	if debug.SetPanicOnFault(false) {
		t.Error("OnEveryProcessor left the test's goroutine panicking on faults")
	}
}

// faultingRun calls OnEveryProcessor for n indexes, panicking on faults, where index 7 reads inaccessible memory,
// and is what its caller recovered.
func faultingRun(inaccessible []byte, n int) (recovered any) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() { recovered = recover() }()
	read := make([]byte, n)
	OnEveryProcessor(n, func(i int) {
		if i == 7 {
			read[i] = inaccessible[0]
		}
	})
	return nil
}
