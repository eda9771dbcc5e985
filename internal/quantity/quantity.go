// Package quantity reads the sizes and durations written in settings: files,
// environment variables and flags. It says only whether a value reads; each caller
// words the refusal for its own input, since it knows the key or variable at fault.
package quantity

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

var (
	// ErrSyntax: the value is not written as the quantity it should be.
	ErrSyntax = errors.New("not a quantity")
	// ErrNotPositive: the value reads, but is zero or less.
	ErrNotPositive = errors.New("must be more than zero")
)

// sizeUnits are the suffixes ParseSize takes, longest first so that "MiB" is not
// read as "B". The MB-style spellings, when a caller takes them, are the same powers
// of two: people write "20MB" for the Bot API's 20 MiB cap.
var sizeUnits = []struct {
	suffix   string
	bytes    int64
	mbStyled bool
}{{"GiB", 1 << 30, false}, {"MiB", 1 << 20, false}, {"KiB", 1 << 10, false},
	{"GB", 1 << 30, true}, {"MB", 1 << 20, true}, {"KB", 1 << 10, true}, {"B", 1, false}}

// maxSize is 4 EiB: a bound that leaves room to add to a size without overflow.
const maxSize = 1 << 62

// ParseSize reads a positive byte count: a number of bytes, or a number with a
// unit (B, KiB, MiB, GiB; with mbStyled, also KB, MB, GB taken as the same), spaces
// allowed around it.
func ParseSize(v string, mbStyled bool) (int64, error) {
	s := strings.TrimSpace(v)
	unit := int64(1)
	for _, u := range sizeUnits {
		if (!u.mbStyled || mbStyled) && strings.HasSuffix(s, u.suffix) {
			s, unit = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.bytes
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case err != nil || n > maxSize/unit:
		return 0, ErrSyntax
	case n <= 0:
		return 0, ErrNotPositive
	}
	return n * unit, nil
}

// ParseDuration reads a positive Go duration ("90s", "1h30m"). With seconds, a
// whole number is also read as that many seconds, as the original serve layer's
// timeoutSeconds; without, a bare number is refused rather than given a guessed unit.
func ParseDuration(v string, seconds bool) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil && seconds {
		n, nerr := strconv.ParseInt(v, 10, 64)
		if nerr != nil || n > int64(1<<63-1)/int64(time.Second) {
			return 0, ErrSyntax
		}
		d, err = time.Duration(n)*time.Second, nil
	}
	switch {
	case err != nil:
		return 0, ErrSyntax
	case d <= 0:
		return 0, ErrNotPositive
	}
	return d, nil
}
