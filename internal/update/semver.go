package update

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a semantic version (semver.org 2.0.0). A leading "v" is accepted, and a
// missing minor or patch number counts as 0, as release tags are often written
// ("v1.2"). Build metadata ("+dirty") is ignored, as the specification says.
type Version struct {
	Major, Minor, Patch uint64
	// Pre holds the pre-release identifiers: "v1.0.0-rc.1" has ["rc", "1"].
	Pre []string
}

// ParseVersion reads s, such as "v0.10.0", "0.3.0-rc.1" or a Go pseudo-version.
func ParseVersion(s string) (Version, error) {
	text := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(s), "v"), "V")
	if i := strings.IndexByte(text, '+'); i >= 0 {
		text = text[:i]
	}
	core, pre, hasPre := strings.Cut(text, "-")
	parts := strings.Split(core, ".")
	if core == "" || len(parts) > 3 {
		return Version{}, fmt.Errorf("version %q: want MAJOR.MINOR.PATCH, such as v1.2.3", s)
	}
	var nums [3]uint64
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 64)
		if err != nil {
			return Version{}, fmt.Errorf("version %q: %q is not a number", s, p)
		}
		nums[i] = n
	}
	v := Version{Major: nums[0], Minor: nums[1], Patch: nums[2]}
	if hasPre {
		v.Pre = strings.Split(pre, ".")
		for _, id := range v.Pre {
			if id == "" || strings.Trim(id, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-") != "" {
				return Version{}, fmt.Errorf("version %q: invalid pre-release %q", s, pre)
			}
		}
	}
	return v, nil
}

// Compare returns -1, 0 or +1 as v is older than, the same as, or newer than w.
// A pre-release is older than its release: v1.0.0-rc.1 < v1.0.0.
func (v Version) Compare(w Version) int {
	for _, d := range [][2]uint64{{v.Major, w.Major}, {v.Minor, w.Minor}, {v.Patch, w.Patch}} {
		if d[0] != d[1] {
			return cmpOrder(d[0] < d[1])
		}
	}
	switch {
	case len(v.Pre) == 0 && len(w.Pre) == 0:
		return 0
	case len(v.Pre) == 0:
		return 1
	case len(w.Pre) == 0:
		return -1
	}
	for i := 0; i < len(v.Pre) && i < len(w.Pre); i++ {
		if c := compareIdentifier(v.Pre[i], w.Pre[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(v.Pre) < len(w.Pre):
		return -1
	case len(v.Pre) > len(w.Pre):
		return 1
	}
	return 0
}

// String writes the version back with its "v": "v1.2.3-rc.1".
func (v Version) String() string {
	s := fmt.Sprintf("v%d.%d.%d", v.Major, v.Minor, v.Patch)
	if len(v.Pre) > 0 {
		s += "-" + strings.Join(v.Pre, ".")
	}
	return s
}

// compareIdentifier orders two pre-release identifiers: numbers numerically and
// below words, words in ASCII order (semver.org §11).
func compareIdentifier(a, b string) int {
	an, aErr := strconv.ParseUint(a, 10, 64)
	bn, bErr := strconv.ParseUint(b, 10, 64)
	switch {
	case aErr == nil && bErr == nil:
		if an == bn {
			return 0
		}
		return cmpOrder(an < bn)
	case aErr == nil:
		return -1
	case bErr == nil:
		return 1
	}
	return strings.Compare(a, b)
}

func cmpOrder(less bool) int {
	if less {
		return -1
	}
	return 1
}
