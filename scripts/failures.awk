# Prints what each failing test logged (file.go:line: messages and their
# continuation lines), the last 40 lines per test, from a `go test -v` log.
# A failing subtest is printed on its own, under its full name, and a
# parent only for what it logged itself: among parallel subtests, the
# last lines of the top-level test are seldom those of the one that failed.
# Used by scripts/test.sh so that a CI summary shows why a test failed,
# not only that it did.
/^=== (RUN|CONT|NAME) / { cur = $3; cont = 0; next }
/^[ \t]*--- FAIL: / {
	name = $0
	sub(/^[ \t]*--- FAIL: /, "", name)
	sub(/ \(.*$/, "", name)
	if (!(name in failed)) order[++nfailed] = name
	failed[name] = 1
	cont = 0
	next
}
/^[ \t]*(--- |ok |FAIL|PASS)/ { cont = 0; next }
/^[ \t]+[A-Za-z0-9_.-]+\.go:[0-9]+: / || (cont && /^(        |\t\t)/) {
	if (cur == "") next
	n[cur]++
	line[cur, n[cur]] = $0
	cont = 1
	next
}
{ cont = 0 }
END {
	for (i = 1; i <= nfailed; i++) {
		t = order[i]
		if (n[t] == 0) continue
		printf "test: %s logged:\n", t
		from = n[t] > 40 ? n[t] - 39 : 1
		for (j = from; j <= n[t]; j++) print line[t, j]
	}
}
