package rocksdb

/*
#cgo CXXFLAGS: -std=c++17
#cgo LDFLAGS: -lrocksdb -lstdc++
#include <stdlib.h>
#include "atomicflush.h"
*/
import "C"

import (
	"errors"
	"reflect"
	"sync"
	"unsafe"

	"github.com/linxGnu/grocksdb"
)

// cHandleLayout checks once that grocksdb's DB and ColumnFamilyHandle hold
// their C pointer as their first field, which atomicFlush reads: a grocksdb
// upgrade that moves it fails the flush with an error instead of crashing.
var cHandleLayout = sync.OnceValue(func() error {
	for _, t := range []reflect.Type{reflect.TypeOf(grocksdb.DB{}), reflect.TypeOf(grocksdb.ColumnFamilyHandle{})} {
		f := t.Field(0)
		if f.Name != "c" || f.Offset != 0 || f.Type.Kind() != reflect.Pointer {
			return errors.New("state/rocksdb: grocksdb." + t.Name() + " no longer starts with its C pointer; atomic flush unavailable")
		}
	}
	return nil
})

// atomicFlush flushes the memtables of cfs in one atomic flush: after a
// crash either every family's flushed data is on disk or none is. With wait
// false it returns once the flush is scheduled.
func atomicFlush(db *grocksdb.DB, cfs []*grocksdb.ColumnFamilyHandle, wait bool) error {
	if err := cHandleLayout(); err != nil {
		return err
	}
	if len(cfs) == 0 {
		return nil
	}
	ptrs := C.malloc(C.size_t(len(cfs)) * C.size_t(unsafe.Sizeof(uintptr(0))))
	defer C.free(ptrs)
	arr := unsafe.Slice((*unsafe.Pointer)(ptrs), len(cfs))
	for i, cf := range cfs {
		arr[i] = *(*unsafe.Pointer)(unsafe.Pointer(cf))
	}
	w := C.int(0)
	if wait {
		w = 1
	}
	msg := C.stoatflow_atomic_flush(*(*unsafe.Pointer)(unsafe.Pointer(db)), (*unsafe.Pointer)(ptrs), C.int(len(cfs)), w)
	if msg != nil {
		defer C.free(unsafe.Pointer(msg))
		return errors.New(C.GoString(msg))
	}
	return nil
}
