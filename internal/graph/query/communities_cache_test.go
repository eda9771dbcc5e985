package query

import (
	"context"
	"testing"
)

func TestCommunitiesArePartitionedOncePerIndexVersion(t *testing.T) {
	st := indexModule(t, "example.com/c", "app/app.go", twoClusters)
	ctx := context.Background()
	first, err := Communities(ctx, st, "", CommunityOptions{})
	if err != nil || first.Count != 2 {
		t.Fatalf("communities = %+v, %v", first, err)
	}
	// The store holds the partition for this version: asking for it computes nothing.
	if _, err := st.Memo(ctx, "communities/1", func() (any, error) {
		t.Fatal("the partition was not kept for the next question")
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	if one, err := Communities(ctx, st, "token", CommunityOptions{}); err != nil || len(one.Communities) != 1 {
		t.Fatalf("a symbol's community from the kept partition = %+v, %v", one, err)
	}
	// Once the index changes, the partition is computed again.
	if err := st.ReplaceFiles(ctx, nil, []string{"app/app.go"}); err != nil {
		t.Fatal(err)
	}
	after, err := Communities(ctx, st, "", CommunityOptions{})
	if err != nil || after.Count != 0 {
		t.Fatalf("after the file was removed: %+v, %v; want no community", after, err)
	}
}
