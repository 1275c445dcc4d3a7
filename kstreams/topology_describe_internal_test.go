package kstreams

import "testing"

func TestJavaHashSetOrder(t *testing.T) {
	// Values Java prints for new HashSet<>(Arrays.asList(...)).toString().
	cases := []struct {
		in   []string
		want string
	}{
		{[]string{"b", "a"}, "[a, b]"},
		{[]string{"topic2", "topic1"}, "[topic1, topic2]"},
		{nil, "[]"},
	}
	for _, c := range cases {
		if got := javaSetString(c.in); got != c.want {
			t.Errorf("%v: got %s want %s", c.in, got, c.want)
		}
	}
	if javaStringHash("hello") != 99162322 {
		t.Errorf("hash(hello) = %d", javaStringHash("hello"))
	}
}
