package serve

import (
	"fmt"
	"slices"
	"strings"

	"github.com/etalab-ia/albert-code/internal/serve/backend"

	"github.com/etalab-ia/albert-code/internal/app/cmdutil"
	"github.com/etalab-ia/albert-code/internal/serve/cron"
	"github.com/etalab-ia/albert-code/internal/serve/telegram"
)

// modelChecker is a backend that can tell a model it runs from one it does not:
// the agent in-process. A CLI agent's model names are its own to check.
type modelChecker interface{ CheckModel(name string) error }

// modelUse is one model name serve was given, and where it was written.
type modelUse struct{ name, where string }

// checkServeModels refuses to start when a model serve was given is neither
// configured nor listed by a server: otherwise every run with it fails later
// (a 422 from the model server). Every bad name is reported at once.
func checkServeModels(b backend.Backend, uses []modelUse) error {
	mc, ok := b.(modelChecker)
	if !ok {
		return nil
	}
	var problems []string
	for _, u := range uses {
		if u.name == "" {
			continue
		}
		if err := mc.CheckModel(u.name); err != nil {
			problems = append(problems, u.where+": "+err.Error())
		}
	}
	if len(problems) > 0 {
		return cmdutil.UsageError("%s", strings.Join(problems, "\n"))
	}
	return nil
}

// availableModelUses are the names of ALBERT_CODE_AVAILABLE_MODELS.
func availableModelUses(names []string, where string) []modelUse {
	out := make([]modelUse, 0, len(names))
	for _, n := range names {
		out = append(out, modelUse{name: n, where: where})
	}
	return out
}

// chatModelUse names a Telegram section for messages.
func chatModelUse(path, section, model string) modelUse {
	return modelUse{name: model, where: fmt.Sprintf("%s (%s)", path, section)}
}

// telegramModelUses are the models of the bot's YAML: its default and each chat's.
func telegramModelUses(path string, s *telegram.Settings) []modelUse {
	out := []modelUse{chatModelUse(path, "default", s.Default.Model)}
	ids := make([]int64, 0, len(s.Chats))
	for id := range s.Chats {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		out = append(out, chatModelUse(path, fmt.Sprintf("chat %d", id), s.Chats[id].Model))
	}
	return out
}

// cronModelUses are the models of the job file, one per job that names one.
func cronModelUses(f *cron.File) []modelUse {
	var out []modelUse
	for _, j := range f.Jobs {
		out = append(out, modelUse{name: j.Model, where: fmt.Sprintf("%s:%d (job %s)", f.Path, j.Line, j.Name)})
	}
	return out
}
