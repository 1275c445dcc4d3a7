#ifndef STOATFLOW_ATOMICFLUSH_H
#define STOATFLOW_ATOMICFLUSH_H

#ifdef __cplusplus
extern "C" {
#endif

// stoatflow_atomic_flush flushes the memtables of the n column families cfs
// (rocksdb_column_family_handle_t pointers) of db (a rocksdb_t pointer) in
// one atomic flush, waiting for it when wait is non-zero. It returns NULL,
// or an error message the caller frees.
char* stoatflow_atomic_flush(void* db, void** cfs, int n, int wait);

#ifdef __cplusplus
}
#endif

#endif
