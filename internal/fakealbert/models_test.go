package fakealbert_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/etalab-ia/albert-code/internal/fakealbert"
)

func TestModelListCarriesAliasesAndContextLength(t *testing.T) {
	t.Parallel()
	s, err := fakealbert.Start(fakealbert.Options{Models: []fakealbert.Model{
		{ID: "openai/gpt-oss-120b", Aliases: []string{"albert-large"}, MaxContextLength: 131072},
		{ID: "BAAI/bge-m3"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	req, _ := http.NewRequest(http.MethodGet, s.URL()+"/models", nil)
	req.Header.Set("Authorization", "Bearer x")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var doc struct {
		Data []map[string]any `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Data) != 2 || doc.Data[0]["max_context_length"] != float64(131072) || doc.Data[0]["aliases"].([]any)[0] != "albert-large" {
		t.Fatalf("list = %+v", doc.Data)
	}
	if _, ok := doc.Data[1]["max_context_length"]; ok {
		t.Fatalf("a model without a stated window lists one: %+v", doc.Data[1])
	}
}
