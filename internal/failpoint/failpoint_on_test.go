//go:build failpoint

package failpoint

import (
	"errors"
	"testing"
)

func TestUnarmedPointsNeverFire(t *testing.T) {
	if err := Arm(""); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if err := Hit(AfterCommit); err != nil {
			t.Fatalf("unarmed point fired: %v", err)
		}
	}
}

func TestErrorActionFiresAtItsHit(t *testing.T) {
	if err := Arm(AfterCommit + "=error@3," + MidRestore + "=error"); err != nil {
		t.Fatal(err)
	}
	defer Arm("")
	for i := 1; i <= 4; i++ {
		err := Hit(AfterCommit)
		if fired := errors.Is(err, ErrInjected); fired != (i == 3) {
			t.Fatalf("hit %d of %s: err %v", i, AfterCommit, err)
		}
	}
	if err := Hit(MidRestore); !errors.Is(err, ErrInjected) {
		t.Fatalf("%s armed without a hit number must fire every time, got %v", MidRestore, err)
	}
	if err := Hit(BetweenStores); err != nil {
		t.Fatalf("a point not armed fired: %v", err)
	}
}

func TestWildcardArmsEveryPoint(t *testing.T) {
	if err := Arm("*=error@2"); err != nil {
		t.Fatal(err)
	}
	defer Arm("")
	if err := Hit(AfterSendOffsets); err != nil {
		t.Fatal(err)
	}
	if err := Hit(RebalanceCallback); !errors.Is(err, ErrInjected) {
		t.Fatalf("second hit of any point must fire under *=error@2, got %v", err)
	}
}

func TestBadSpecsAreRejected(t *testing.T) {
	for _, spec := range []string{"x", "x=explode", "x=kill@0", "x=kill@two"} {
		if err := Arm(spec); err == nil {
			t.Errorf("Arm(%q) accepted a bad spec", spec)
		}
	}
}

func TestEnabledUnderTag(t *testing.T) {
	if !Enabled {
		t.Fatal("Enabled is false under the failpoint tag")
	}
}
