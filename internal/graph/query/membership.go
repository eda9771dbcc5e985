package query

import (
	"context"

	"github.com/etalab-ia/albert-code/internal/graph/community"
	"github.com/etalab-ia/albert-code/internal/graph/store"
)

// CommunityRef names one community without its members.
type CommunityRef struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Size int    `json:"size"`
}

// Membership says which community each symbol belongs to, for answers that
// need the community of many symbols at once (detect_changes) rather than the
// members of one.
type Membership struct {
	graph *communityGraph
	part  community.Partition
	names map[int]string
}

// CommunityMembership partitions the indexed symbols as Communities does (same
// weights, resolution 1, the same partition kept per index version), for Of to
// look up.
func CommunityMembership(ctx context.Context, st *store.Store) (*Membership, error) {
	g, p, err := partition(ctx, st, 1)
	if err != nil {
		return nil, err
	}
	return &Membership{graph: g, part: p, names: map[int]string{}}, nil
}

// Of is the community of qname (a field or variant counts as its type); ok is
// false for a symbol connected to nothing, which belongs to no community.
func (m *Membership) Of(qname string) (CommunityRef, bool) {
	i, ok := m.graph.index[m.graph.owner(qname)]
	if !ok {
		return CommunityRef{}, false
	}
	c := m.part.Of[i]
	if m.part.Sizes[c] < 2 {
		return CommunityRef{}, false
	}
	name, named := m.names[c]
	if !named {
		var members []int
		for j, of := range m.part.Of {
			if of == c {
				members = append(members, j)
			}
		}
		name = m.graph.describe(c, members, m.part.Contribution[c], 0).Name
		m.names[c] = name
	}
	return CommunityRef{ID: c, Name: name, Size: m.part.Sizes[c]}, true
}
