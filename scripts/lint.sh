#!/usr/bin/env bash
# gofmt, go vet, go mod tidy and staticcheck: each must be clean, in the
# production build and with the failpoint and invariants tags; the paths
# docs/DESIGN.md names must exist (scripts/docpaths.sh); and kstreams,
# compat and properties must not import RocksDB.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0

unformatted="$(gofmt -l $(git ls-files --cached --others --exclude-standard '*.go' | grep -v '^\.cache/') 2>&1 || true)"
if [[ -n "$unformatted" ]]; then
	echo "lint: gofmt wants to rewrite:" >&2
	echo "$unformatted" >&2
	fail=1
fi

go vet ./... || fail=1
# The code behind the failpoint and invariants build tags, too.
go vet -tags failpoint,invariants ./... || fail=1

cp go.mod /tmp/stoatflow-go.mod.$$ && cp go.sum /tmp/stoatflow-go.sum.$$
go mod tidy
if ! git diff --quiet -- go.mod go.sum; then
	echo "lint: go.mod/go.sum are not tidy; run go mod tidy and commit:" >&2
	git --no-pager diff -- go.mod go.sum >&2
	fail=1
fi
cp /tmp/stoatflow-go.mod.$$ go.mod && cp /tmp/stoatflow-go.sum.$$ go.sum
rm -f /tmp/stoatflow-go.mod.$$ /tmp/stoatflow-go.sum.$$

# docs/DESIGN.md names only paths that exist.
scripts/docpaths.sh || fail=1

# kstreams, compat and properties build without cgo: RocksDB (grocksdb) is
# in state/rocksdb, which only the runtime imports. Name each package that
# pulls it in.
cgo_free=(./kstreams/... ./compat/... ./properties/...)
with_rocksdb="$(go list -f '{{.ImportPath}}{{range .Deps}} {{.}}{{end}}' "${cgo_free[@]}" |
	awk '/ github\.com\/linxGnu\/grocksdb( |$)/ { print $1 }')"
if [[ -n "$with_rocksdb" ]]; then
	echo "lint: these packages import github.com/linxGnu/grocksdb (cgo), which only state/rocksdb and the runtime may:" >&2
	echo "$with_rocksdb" >&2
	fail=1
fi

"${GOBIN:-$PWD/.cache/bin}/staticcheck" ./... || fail=1
"${GOBIN:-$PWD/.cache/bin}/staticcheck" -tags failpoint,invariants ./internal/... ./sidecar/internal/... ./state/... ./txn/... || fail=1

if ((fail)); then
	echo "lint: FAILED" >&2
	exit 1
fi
echo "lint: gofmt, go vet, go mod tidy, staticcheck, doc paths clean; kstreams, compat, properties without grocksdb" >&2
