package state_test

import (
	"flag"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	flag.Parse()
	// Each RocksDB model run opens a fresh database, which costs tens of
	// milliseconds of fsyncs; 50 runs per test keep the default suite
	// short. Pass -rapid.checks=N for more.
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if f := flag.Lookup("rapid.checks"); f != nil && !set["rapid.checks"] {
		f.Value.Set("50")
	}
	os.Exit(m.Run())
}
