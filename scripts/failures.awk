# Prints what each failing top-level test logged (file.go:line: messages and
# their continuation lines), the last 40 lines per test, from a
# `go test -v` log. Used by scripts/test.sh so that a CI summary shows why a
# test failed, not only that it did.
function top(name) { sub(/\/.*/, "", name); return name }
/^=== (RUN|CONT|NAME) / { cur = top($3); cont = 0; next }
/^--- FAIL: / { failed[top($3)] = 1; cont = 0; next }
/^(--- |ok |FAIL|PASS)/ { cont = 0; next }
/^[ \t]+[A-Za-z0-9_.-]+\.go:[0-9]+: / || (cont && /^(        |\t\t)/) {
	if (cur == "") next
	n[cur]++
	line[cur, n[cur]] = $0
	cont = 1
	next
}
{ cont = 0 }
END {
	for (t in failed) {
		printf "test: %s logged:\n", t
		from = n[t] > 40 ? n[t] - 39 : 1
		for (i = from; i <= n[t]; i++) print line[t, i]
	}
}
