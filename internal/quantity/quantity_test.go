package quantity

import (
	"errors"
	"testing"
	"time"
)

func TestParseSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in       string
		mbStyled bool
		want     int64
		err      error
	}{
		{"512", false, 512, nil},
		{" 10MiB ", false, 10 << 20, nil},
		{"10 MiB", false, 10 << 20, nil},
		{"20MB", true, 20 << 20, nil},
		{"20MB", false, 0, ErrSyntax}, // MB only where the caller takes it
		{"1GiB", false, 1 << 30, nil},
		{"3KB", true, 3 << 10, nil},
		{"10MiB", true, 10 << 20, nil},
		{"7B", false, 7, nil},
		{"0", false, 0, ErrNotPositive},
		{"-1KiB", false, 0, ErrNotPositive},
		{"ten", false, 0, ErrSyntax},
		{"1.5MiB", false, 0, ErrSyntax},
		{"5TiB", false, 0, ErrSyntax},
		{"4294967296GiB", false, 1 << 62, nil},
		{"4294967297GiB", false, 0, ErrSyntax}, // past 4 EiB
		{"", false, 0, ErrSyntax},
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in, tt.mbStyled)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("ParseSize(%q, %v) = %d, %v; want %d, %v", tt.in, tt.mbStyled, got, err, tt.want, tt.err)
		}
	}
}

func TestParseDuration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		seconds bool
		want    time.Duration
		err     error
	}{
		{"90s", false, 90 * time.Second, nil},
		{"1h30m", true, 90 * time.Minute, nil},
		{"90", true, 90 * time.Second, nil},
		{"90", false, 0, ErrSyntax}, // a bare number has no unit without seconds
		{"0s", false, 0, ErrNotPositive},
		{"-3s", true, 0, ErrNotPositive},
		{"-5", true, 0, ErrNotPositive},
		{"0", true, 0, ErrNotPositive},
		{"soon", true, 0, ErrSyntax},
		{"9223372036854775807", true, 0, ErrSyntax}, // seconds past time.Duration's range
	}
	for _, tt := range tests {
		got, err := ParseDuration(tt.in, tt.seconds)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("ParseDuration(%q, %v) = %v, %v; want %v, %v", tt.in, tt.seconds, got, err, tt.want, tt.err)
		}
	}
}
