package integration

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/stoatflow/stoatflow/internal/reporoot"
)

// RepoRoot returns the directory holding go.mod, found by walking up from the
// working directory.
func RepoRoot() (string, error) {
	dir, err := reporoot.Find()
	if err != nil {
		return "", fmt.Errorf("integration: %w", err)
	}
	return dir, nil
}

var buildMu sync.Mutex

// ReferenceJar builds the Kafka Streams 4.4 reference applications
// (integration/reference, Maven) once and returns the path of the runnable
// jar. The jar is cached under .cache/reference, keyed by a hash of the
// project's pom and sources, so later calls and later runs reuse it; a file
// lock keeps concurrent test binaries from building at once.
func ReferenceJar(ctx context.Context) (string, error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	project := filepath.Join(root, "integration", "reference")
	sum, err := hashTree(project, "target")
	if err != nil {
		return "", fmt.Errorf("integration: hashing %s: %w", project, err)
	}
	cache := filepath.Join(root, ".cache", "reference")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	jar := filepath.Join(cache, "stoatflow-reference-"+sum[:16]+".jar")
	if _, err := os.Stat(jar); err == nil {
		return jar, nil
	}

	lock, err := os.OpenFile(filepath.Join(cache, ".build.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("integration: locking the reference build: %w", err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // released on close anyway
	if _, err := os.Stat(jar); err == nil {
		return jar, nil // another process built it while we waited
	}

	cmd := exec.CommandContext(ctx, "mvn", "-B", "-q", "-f", filepath.Join(project, "pom.xml"), "package")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("integration: building the Kafka Streams reference jar (mvn package in %s): %w\n%s",
			project, err, tail(string(out), 40))
	}
	built := filepath.Join(project, "target", "stoatflow-reference.jar")
	tmp := jar + ".tmp"
	if err := copyFile(built, tmp); err != nil {
		return "", err
	}
	return jar, os.Rename(tmp, jar)
}

// ReferenceApp is a running Kafka Streams 4.4 reference application.
type ReferenceApp struct {
	cmd    *exec.Cmd
	stderr *tailBuffer

	mu       sync.Mutex
	states   []string
	errs     []string
	closed   bool
	restores map[string]*ReferenceRestore // by changelog partition, e.g. "app-store-changelog-0"
	restored int64                        // records of every finished restore
	metadata *ReferenceMetadata           // the last complete round of METADATA lines
	pending  *ReferenceMetadata           // the round being read
	finished []ReferenceRestore           // every finished restore, in order
	change   chan struct{}                // closed and replaced on every state line

	exited chan struct{}
	err    error
}

// ReferenceOptions configure one run of a reference application.
type ReferenceOptions struct {
	App     string            // "wordcount"
	Configs []string          // .properties files, loaded in order
	Set     map[string]string // --set overrides
	Args    map[string]string // the application's own arguments, e.g. input, output
	// Measured runs the JVM with its default compilers and collector, as a
	// production application runs, for a test that reports the twin's CPU
	// or memory; otherwise it runs with shortLivedJVM.
	Measured bool
	// MetadataStore and MetadataKeys, when set, make the application print
	// Kafka Streams' interactive-query metadata every second while
	// RUNNING: every instance's, and where each key (a String without
	// whitespace) of MetadataStore lives; read it with Metadata.
	MetadataStore string
	MetadataKeys  []string
}

// shortLivedJVM are the JVM options of a reference application that is not
// measured, and of --describe: the client compiler alone and the serial
// collector. A twin lives seconds on a few hundred records, where the
// optimizing compiler's work never pays off, and tests run several twins
// side by side on a small machine; neither option changes what Kafka
// Streams computes.
var shortLivedJVM = []string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"}

// Describe runs the reference application with --describe and returns its
// topology.describe() text.
func Describe(ctx context.Context, opts ReferenceOptions) (string, error) {
	jar, err := ReferenceJar(ctx)
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "java", append(append(slices.Clone(shortLivedJVM), "-jar", jar), refArgs(opts, true)...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("integration: %s --describe: %w\n%s", opts.App, err, tail(stderr.String(), 20))
	}
	return string(out), nil
}

// StartReference starts a reference application as a child process and
// returns once it has started; use WaitState to wait for RUNNING.
func StartReference(ctx context.Context, opts ReferenceOptions) (*ReferenceApp, error) {
	jar, err := ReferenceJar(ctx)
	if err != nil {
		return nil, err
	}
	jvm := []string{"-Xmx512m"}
	archived := func(bool) {}
	if !opts.Measured {
		jvm = append(jvm, shortLivedJVM...)
		var share []string
		share, archived = classArchive(jar)
		jvm = append(jvm, share...)
	}
	args := refArgs(opts, false)
	removeKeys := func() {}
	if opts.MetadataStore != "" {
		keys, err := os.CreateTemp("", "stoatflow-metadata-keys-*")
		if err != nil {
			archived(false)
			return nil, err
		}
		removeKeys = func() { os.Remove(keys.Name()) }
		_, err = keys.WriteString(strings.Join(opts.MetadataKeys, "\n") + "\n")
		if cerr := keys.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			removeKeys()
			archived(false)
			return nil, err
		}
		args = append(args, "--metadata-store", opts.MetadataStore, "--metadata-keys", keys.Name())
	}
	cmd := exec.Command("java", append(append(jvm, "-jar", jar), args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		removeKeys()
		archived(false)
		return nil, err
	}
	a := &ReferenceApp{cmd: cmd, stderr: &tailBuffer{max: 64 << 10}, change: make(chan struct{}), exited: make(chan struct{})}
	cmd.Stderr = a.stderr
	if err := cmd.Start(); err != nil {
		removeKeys()
		archived(false)
		return nil, fmt.Errorf("integration: starting %s: %w", opts.App, err)
	}
	var reader sync.WaitGroup
	reader.Add(1)
	go func() {
		defer reader.Done()
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			a.line(sc.Text())
		}
	}()
	go func() {
		reader.Wait()
		a.err = cmd.Wait()
		removeKeys()
		a.mu.Lock()
		closed := a.closed
		a.mu.Unlock()
		archived(closed)
		close(a.exited)
		a.mu.Lock()
		close(a.change)
		a.change = make(chan struct{})
		a.mu.Unlock()
	}()
	return a, nil
}

// classArchive returns the JVM options that map the class-data-sharing
// archive of jar's classes (AppCDS), kept beside the jar: a twin then maps
// the classes of Kafka Streams and its clients instead of loading and
// verifying each, which is about a third of its start-up CPU. When there is
// no archive yet, the options make this twin write one as it exits, unless
// another twin (of this or another test process) is writing it; done,
// called once the twin has exited, keeps what a twin that closed cleanly
// wrote. The archive's name holds the jar's size and time and the JVM's
// version, so a rebuilt jar or another JVM never maps one that does not
// fit.
func classArchive(jar string) (opts []string, done func(closed bool)) {
	none := func(bool) {}
	id := javaVersion()
	fi, err := os.Stat(jar)
	if id == "" || err != nil {
		return nil, none
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d\x00%d", id, fi.Size(), fi.ModTime().UnixNano()))
	archive := strings.TrimSuffix(jar, ".jar") + "-" + hex.EncodeToString(sum[:6]) + ".jsa"
	if _, err := os.Stat(archive); err == nil {
		return []string{"-XX:SharedArchiveFile=" + archive}, none
	}
	if !archiveWriter.TryLock() {
		return nil, none
	}
	lock, err := os.OpenFile(archive+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		archiveWriter.Unlock()
		return nil, none
	}
	if syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		lock.Close()
		archiveWriter.Unlock()
		return nil, none
	}
	tmp := fmt.Sprintf("%s.%d.tmp", archive, os.Getpid())
	os.Remove(tmp)
	return []string{"-XX:ArchiveClassesAtExit=" + tmp}, func(closed bool) {
		if fi, err := os.Stat(tmp); closed && err == nil && fi.Size() > 0 {
			_ = os.Rename(tmp, archive)
		}
		os.Remove(tmp)
		lock.Close() // releases the flock
		archiveWriter.Unlock()
	}
}

// archiveWriter is held while a twin of this process writes the class
// archive.
var archiveWriter sync.Mutex

// javaVersion returns what java -version prints, "" when it fails.
var javaVersion = sync.OnceValue(func() string {
	out, err := exec.Command("java", "-version").CombinedOutput()
	if err != nil {
		return ""
	}
	return string(out)
})

func (a *ReferenceApp) line(l string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case strings.HasPrefix(l, "STATE "):
		a.states = append(a.states, strings.TrimPrefix(l, "STATE "))
	case strings.HasPrefix(l, "ERROR "):
		a.errs = append(a.errs, strings.TrimPrefix(l, "ERROR "))
	case l == "CLOSED":
		a.closed = true
	case strings.HasPrefix(l, "RESTORE-START ") || strings.HasPrefix(l, "RESTORE-END "):
		a.restoreLine(strings.Fields(l))
	case strings.HasPrefix(l, "METADATA"):
		if !a.metadataLine(strings.Fields(l)) {
			return
		}
	default:
		return
	}
	close(a.change)
	a.change = make(chan struct{})
}

// ReferenceRestore is one changelog restore of a reference application, as
// its state restore listener reported it.
type ReferenceRestore struct {
	Store      string
	Changelog  string // the changelog partition, "<topic>-<partition>"
	Start, End int64  // the offsets Kafka Streams restored from and up to
	Records    int64  // records restored, once Done
	Done       bool
}

func (a *ReferenceApp) restoreLine(f []string) {
	if a.restores == nil {
		a.restores = map[string]*ReferenceRestore{}
	}
	switch {
	case f[0] == "RESTORE-START" && len(f) == 5:
		r := &ReferenceRestore{Store: f[1], Changelog: f[2]}
		r.Start, _ = strconv.ParseInt(f[3], 10, 64)
		r.End, _ = strconv.ParseInt(f[4], 10, 64)
		a.restores[f[2]] = r
	case f[0] == "RESTORE-END" && len(f) == 4:
		if r := a.restores[f[2]]; r != nil {
			r.Records, _ = strconv.ParseInt(f[3], 10, 64)
			r.Done = true
			a.restored += r.Records
			a.finished = append(a.finished, *r)
		}
	}
}

// ReferenceMetadata is one round of a reference application's METADATA
// lines: Kafka Streams' interactive-query metadata at one moment (see
// ReferenceOptions.MetadataStore).
type ReferenceMetadata struct {
	// Hosts is metadataForAllStreamsClients(), by host:port.
	Hosts map[string]ReferenceHostMetadata
	// Keys is queryMetadataForKey(store, key, Serdes.String().serializer())
	// of every key asked for, by key.
	Keys map[string]ReferenceKeyMetadata
}

// ReferenceHostMetadata is one instance's StreamsMetadata; every list is
// sorted, a partition written "<topic>-<partition>".
type ReferenceHostMetadata struct {
	Stores, Partitions, StandbyStores, StandbyPartitions []string
}

// ReferenceKeyMetadata is Kafka Streams' KeyQueryMetadata of one key:
// ActiveHost is "-" when the store is unknown, "unavailable:-1" when no
// instance is known to host the key.
type ReferenceKeyMetadata struct {
	ActiveHost   string
	StandbyHosts []string // sorted
	Partition    int32
}

// metadataLine reads one METADATA, METADATA-HOST or METADATA-END line and
// reports whether it completed a round.
func (a *ReferenceApp) metadataLine(f []string) bool {
	if a.pending == nil {
		a.pending = &ReferenceMetadata{Hosts: map[string]ReferenceHostMetadata{}, Keys: map[string]ReferenceKeyMetadata{}}
	}
	list := func(s string) []string {
		if s == "-" {
			return nil
		}
		return strings.Split(s, ",")
	}
	switch {
	case f[0] == "METADATA-HOST" && len(f) == 6:
		a.pending.Hosts[f[1]] = ReferenceHostMetadata{Stores: list(f[2]), Partitions: list(f[3]), StandbyStores: list(f[4]), StandbyPartitions: list(f[5])}
	case f[0] == "METADATA" && len(f) == 6:
		p, _ := strconv.ParseInt(f[5], 10, 32)
		a.pending.Keys[f[2]] = ReferenceKeyMetadata{ActiveHost: f[3], StandbyHosts: list(f[4]), Partition: int32(p)}
	case f[0] == "METADATA-END":
		a.metadata, a.pending = a.pending, nil
		return true
	}
	return false
}

// Metadata returns the last complete round of the application's METADATA
// lines, and false before the first.
func (a *ReferenceApp) Metadata() (ReferenceMetadata, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.metadata == nil {
		return ReferenceMetadata{}, false
	}
	return *a.metadata, true
}

// Restores returns the restores the application has reported, by changelog
// partition ("<topic>-<partition>"); a later restore of a partition replaces
// an earlier one.
func (a *ReferenceApp) Restores() map[string]ReferenceRestore {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make(map[string]ReferenceRestore, len(a.restores))
	for k, r := range a.restores {
		out[k] = *r
	}
	return out
}

// RestoresSince returns the restores the application finished after the
// first n, in order, and the count of all it finished: a test marks a
// moment with the count and reads what was restored after it.
func (a *ReferenceApp) RestoresSince(n int) ([]ReferenceRestore, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.finished[min(n, len(a.finished)):]), len(a.finished)
}

// RestoredRecords is the records of every restore the application
// finished, a partition restored twice counted twice.
func (a *ReferenceApp) RestoredRecords() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.restored
}

// WaitState waits until the application reports state (e.g. "RUNNING"). It
// fails early when the application reports an error (unless state is
// "ERROR") or exits.
func (a *ReferenceApp) WaitState(ctx context.Context, state string) error {
	for {
		a.mu.Lock()
		for _, s := range a.states {
			if s == state {
				a.mu.Unlock()
				return nil
			}
		}
		errs := append([]string(nil), a.errs...)
		change := a.change
		a.mu.Unlock()
		if len(errs) > 0 && state != "ERROR" {
			return fmt.Errorf("integration: reference app failed: %s\n%s", strings.Join(errs, "; "), a.stderr.String())
		}
		select {
		case <-a.exited:
			return fmt.Errorf("integration: reference app exited before %s: %v\n%s", state, a.err, a.stderr.String())
		case <-ctx.Done():
			return fmt.Errorf("integration: waiting for %s: %w\n%s", state, ctx.Err(), a.stderr.String())
		case <-change:
		}
	}
}

// Stop sends SIGTERM, which closes Kafka Streams cleanly through its shutdown
// hook, and waits for the process; after timeout it kills it. It is safe to
// call more than once.
func (a *ReferenceApp) Stop(timeout time.Duration) error {
	select {
	case <-a.exited:
		return nil
	default:
	}
	_ = a.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-a.exited:
	case <-time.After(timeout):
		_ = a.cmd.Process.Kill()
		<-a.exited
		return fmt.Errorf("integration: reference app did not stop within %v; killed", timeout)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.closed {
		return fmt.Errorf("integration: reference app exited without a clean close: %v\n%s", a.err, a.stderr.String())
	}
	return nil
}

// Kill ends the application with SIGKILL and waits for it.
func (a *ReferenceApp) Kill() {
	_ = a.cmd.Process.Kill()
	<-a.exited
}

// Stderr returns the tail of the application's log.
func (a *ReferenceApp) Stderr() string { return a.stderr.String() }

// Log returns the application's log as far as it is kept: its last 64 KiB.
func (a *ReferenceApp) Log() string { return a.stderr.all() }

// Errors returns the ERROR lines the application printed, without the
// prefix: a thread's failure, or the exception of a topology refused when
// built (its line breaks written as \n).
func (a *ReferenceApp) Errors() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.errs)
}

// Exited is closed once the application's process has exited.
func (a *ReferenceApp) Exited() <-chan struct{} { return a.exited }

func refArgs(opts ReferenceOptions, describe bool) []string {
	args := []string{opts.App}
	for _, c := range opts.Configs {
		args = append(args, "--config", c)
	}
	for _, k := range sortedKeys(opts.Set) {
		args = append(args, "--set", k+"="+opts.Set[k])
	}
	for _, k := range sortedKeys(opts.Args) {
		args = append(args, "--arg", k+"="+opts.Args[k])
	}
	if describe {
		args = append(args, "--describe")
	}
	return args
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// hashTree hashes every file's path and content under dir, skipping the
// named subdirectories.
func hashTree(dir string, skip ...string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			for _, s := range skip {
				if rel == s {
					return filepath.SkipDir
				}
			}
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		fmt.Fprintf(h, "%s\x00", rel)
		_, err = io.Copy(h, f)
		return err
	})
	return hex.EncodeToString(h.Sum(nil)), err
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func tail(s string, lines int) string {
	parts := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(parts) > lines {
		parts = parts[len(parts)-lines:]
	}
	return strings.Join(parts, "\n")
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-b.max:]...)
	}
	return len(p), nil
}

// all returns everything kept.
func (b *tailBuffer) all() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return tail(string(b.buf), 40)
}
