package main

import (
	"slices"
	"time"
)

// quantile returns the nearest-rank q-quantile of xs (0 < q <= 1), or 0 for none.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(q*float64(len(s))+0.999999) - 1
	return s[max(0, min(rank, len(s)-1))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func mib(kib int64) float64 { return float64(kib) / 1024 }

// ratio is a/b, or 0 when b is not positive (a leg that did not run).
func ratio(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}
