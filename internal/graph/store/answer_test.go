package store

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

// hugeRows yields rows of a megabyte each, without end.
const hugeRows = "WITH RECURSIVE c(x, s) AS (SELECT 1, printf('%.*c', 1000000, 'x') UNION ALL SELECT x+1, s FROM c) SELECT x, s FROM c"

// Not parallel: it measures the process's allocations.
func TestQueryAnswerStopsAtTheByteCap(t *testing.T) {
	s, _ := queryFixture(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	a, err := s.QueryAnswer(context.Background(), hugeRows, QueryLimits{MaxRows: MaxRows, MaxBytes: 3_500_000, Timeout: 10 * time.Second})
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Rows) != 3 || !a.Truncated || a.CutBy != "bytes" || a.Bytes != 3*(1_000_000+8) {
		t.Errorf("%d rows, %d bytes, truncated %v by %q; want 3 rows cut by bytes", len(a.Rows), a.Bytes, a.Truncated, a.CutBy)
	}
	// Four rows were read (the fourth to learn it does not fit): a few megabytes,
	// where reading up to the row cap would be 100 GB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("allocated %d MiB for a 3.5 MB answer", alloc>>20)
	}
	if took > 3*time.Second {
		t.Errorf("took %s", took)
	}
	// The default cap applies to Query too.
	_, rows, truncated, err := s.Query(context.Background(), hugeRows, MaxRows, 10*time.Second)
	if err != nil || !truncated || len(rows) != DefaultMaxBytes/1_000_008 {
		t.Errorf("Query: %d rows, truncated %v, %v", len(rows), truncated, err)
	}
}

// The timeout covers every row, not only the first: a query whose rows keep
// coming, slowly, is interrupted while they are read.
func TestQueryTimeoutCoversTheWholeAnswer(t *testing.T) {
	t.Parallel()
	s, _ := queryFixture(t)
	const timeout = 300 * time.Millisecond
	start := time.Now()
	_, err := s.QueryAnswer(context.Background(),
		"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c WHERE x % 200000 = 1",
		QueryLimits{MaxRows: MaxRows, MaxBytes: MaxBytes, Timeout: timeout})
	if !errors.Is(err, ErrQueryTimeout) {
		t.Errorf("err = %v; want ErrQueryTimeout", err)
	}
	if d := time.Since(start); d > timeout+2*time.Second {
		t.Errorf("returned after %s; want about %s", d, timeout)
	}
	if _, rows, _, err := s.Query(context.Background(), "SELECT 1", 1, 0); err != nil || len(rows) != 1 {
		t.Errorf("after a timeout: %v, %v", rows, err)
	}
}
