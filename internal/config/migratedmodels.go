package config

// migratedModels maps the model names the original Python albert-code shipped
// (notes §2.14) onto models we ship, for configurations, profiles and command lines
// written for it. A configured model of the same name, or one the server lists, wins:
// the table is read only when no model answers to the name.
//
// The choices are judgement, written in docs/migrating.md: Albert no longer serves
// the original's Qwen3-Coder-30B and gpt-oss-120b under those aliases, and its
// devstral-2 named a Mistral wire id that never existed (albert-code-cli-latest).
var migratedModels = map[string]string{
	"albert-code":  "mistral-medium", // was Qwen/Qwen3-Coder-30B-A3B-Instruct, the original's default
	"albert-large": "mistral-medium", // was openai/gpt-oss-120b, the original's fallback
	"devstral-2":   "devstral-small", // was Mistral's albert-code-cli-latest, a rename artefact
}

// MigratedModel returns the model that stands for the original's name, and whether
// name is one of the original's.
func MigratedModel(name string) (string, bool) {
	to, ok := migratedModels[name]
	return to, ok
}
