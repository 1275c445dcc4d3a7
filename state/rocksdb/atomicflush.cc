// The C API of RocksDB 7.8 flushes one column family at a time; with
// atomic_flush on, DB::Flush over a list of families flushes them all in
// one atomic flush (all or none reach the MANIFEST). This file exposes that
// one call to Go.

#include <rocksdb/db.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "atomicflush.h"

// The C API's handle types, as RocksDB 7.8's c.cc defines them: a struct
// whose first member is the C++ object.
struct rocksdb_t {
  rocksdb::DB* rep;
};
struct rocksdb_column_family_handle_t {
  rocksdb::ColumnFamilyHandle* rep;
};

extern "C" char* stoatflow_atomic_flush(void* db, void** cfs, int n, int wait) {
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  handles.reserve(n);
  for (int i = 0; i < n; i++) {
    handles.push_back(static_cast<rocksdb_column_family_handle_t*>(cfs[i])->rep);
  }
  rocksdb::FlushOptions fo;
  fo.wait = wait != 0;
  rocksdb::Status s = static_cast<rocksdb_t*>(db)->rep->Flush(fo, handles);
  if (s.ok()) {
    return nullptr;
  }
  std::string msg = s.ToString();
  char* out = static_cast<char*>(std::malloc(msg.size() + 1));
  std::memcpy(out, msg.c_str(), msg.size() + 1);
  return out;
}
