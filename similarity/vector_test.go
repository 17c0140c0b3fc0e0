package similarity

import (
	"fmt"
	"math"
	"testing"
)

func TestCosineInOrder(t *testing.T) {
	a, b := Vector{}, Vector{}
	for i := range 500 {
		a[fmt.Sprintf("t%d", i)] = 1 / float64(i+3)
		if i%3 == 0 {
			b[fmt.Sprintf("t%d", i)] = math.Sqrt(float64(i + 1))
		}
	}
	b["only-b"] = 2
	cases := []struct {
		name string
		a, b Vector
	}{
		{"overlapping", a, b},
		{"identical", a, a},
		{"disjoint", Vector{"x": 1}, Vector{"y": 1}},
		{"empty", Vector{}, a},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := CosineInOrder(c.a, c.b)
			if want := Cosine(c.a, c.b); math.Abs(got-want) > 1e-12 {
				t.Errorf("CosineInOrder = %v, Cosine = %v", got, want)
			}
			if got < 0 || got > 1 {
				t.Errorf("CosineInOrder = %v, outside [0, 1]", got)
			}
			if rev := CosineInOrder(c.b, c.a); rev != got {
				t.Errorf("not symmetric: %v and %v", got, rev)
			}
			o := NewOrdered(c.a)
			for _, v := range []Vector{c.b, a, b, c.b} { // one Ordered scores many vectors
				if got, want := o.Cosine(v), Cosine(c.a, v); math.Abs(got-want) > 1e-12 {
					t.Errorf("Ordered.Cosine = %v, Cosine = %v", got, want)
				}
			}
			if again := o.Cosine(c.b); again != got {
				t.Errorf("Ordered.Cosine %v after other vectors, CosineInOrder %v", again, got)
			}
			for range 20 { // map order changes between iterations; the bits must not
				if again := CosineInOrder(c.a, c.b); again != got {
					t.Fatalf("CosineInOrder %v then %v", got, again)
				}
			}
		})
	}
}
