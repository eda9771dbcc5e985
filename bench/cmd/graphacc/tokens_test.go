package main

import (
	"reflect"
	"testing"
)

// An MCP item stands for the command line's items, one per site.
func TestMCPSitesExpandsCompactItems(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   Item
		want []Item
	}{
		{Item{QName: "p.run", File: "a.go", Line: 3, SiteLine: 5, MoreSites: []int{9}},
			[]Item{{QName: "p.run", File: "a.go", Line: 3, SiteFile: "a.go", SiteLine: 5}, {QName: "p.run", File: "a.go", Line: 3, SiteFile: "a.go", SiteLine: 9}}},
		{Item{QName: "p.T", File: "t.go", Line: 4},
			[]Item{{QName: "p.T", File: "t.go", Line: 4, SiteFile: "t.go", SiteLine: 4}}},
		{Item{QName: "p", Kind: "package", File: "a.go", Line: 1, SiteFile: "b.go", SiteLine: 2},
			[]Item{{QName: "p", Kind: "package", File: "a.go", Line: 1, SiteFile: "b.go", SiteLine: 2}}},
	} {
		if got := mcpSites(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("mcpSites(%+v) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}
