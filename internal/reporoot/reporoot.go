// Package reporoot finds the repository's root directory (the one holding
// go.mod) for tests and test tools that run from somewhere inside it.
package reporoot

import (
	"errors"
	"os"
	"path/filepath"
)

// Find returns the directory holding go.mod, walking up from the working
// directory.
func Find() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
}
