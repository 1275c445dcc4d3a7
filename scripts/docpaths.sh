#!/usr/bin/env bash
# Fails when a doc names a path of the repository that does not exist.
# Every backquoted span without spaces that begins with one of the
# repository's top-level names and is a path (it has a slash, or ends in
# .go, .md or .sh) must be a file or directory relative to the repository
# root: `streams/thread.go`, `kstreams/serde`. A line number
# (`streams/thread.go:345`) or an anchor (`docs/config.md#reset`) after the
# path is ignored, `examples/...` is the directory, and a glob
# (`streams/*kfake_test.go`) must match something. Spans that begin
# otherwise are not this repository's paths (`<state.dir>/<app>`,
# `github.com/twmb/franz-go`, Kafka's Java sources) and are left alone.
# The docs checked are the arguments, docs/DESIGN.md by default.
set -euo pipefail
cd "$(dirname "$0")/.."
(($#)) || set -- docs/DESIGN.md

declare -A top
while IFS= read -r name; do
	top[$name]=1
done < <(git ls-files | cut -d/ -f1 | sort -u)

fail=0
for doc in "$@"; do
	while IFS=: read -r line span; do
		path="${span%%#*}"
		[[ "$path" =~ ^(.*):[0-9]+(-[0-9]+)?$ ]] && path="${BASH_REMATCH[1]}"
		path="${path%/...}"
		path="${path%/}"
		[[ "$path" == */* || "$path" =~ \.(go|md|sh)$ ]] || continue
		first="${path%%/*}"
		[[ -n "$first" && -n "${top[$first]:-}" ]] || continue
		if [[ "$path" == *[*?[]* ]]; then
			compgen -G "$path" >/dev/null && continue
		elif [[ -e "$path" ]]; then
			continue
		fi
		echo "$doc:$line: \`$span\` names a path that does not exist" >&2
		fail=1
	done < <(grep -no '`[^` ]*`' "$doc" | tr -d '`')
done
exit "$fail"
