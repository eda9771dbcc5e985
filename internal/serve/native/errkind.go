package native

import (
	"context"
	"errors"
	"net/http"
	"sync"

	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/llm"
	"github.com/etalab-ia/albert-code/internal/serve/backend"
)

// ErrorKindOf classifies a model call's error for the API's answer.
func ErrorKindOf(err error) backend.ErrorKind {
	var apiErr *llm.APIError
	switch {
	case err == nil:
		return ""
	case errors.Is(err, context.DeadlineExceeded):
		return backend.ErrorTimeout
	case errors.Is(err, context.Canceled):
		return backend.ErrorCancelled
	case errors.Is(err, config.ErrMissingAPIKey):
		return backend.ErrorAuth
	case errors.As(err, &apiErr):
		switch apiErr.Status {
		case http.StatusTooManyRequests:
			return backend.ErrorRateLimit
		case http.StatusUnauthorized, http.StatusForbidden:
			return backend.ErrorAuth
		}
		return backend.ErrorProvider
	case errors.Is(err, llm.ErrUnreachable):
		return backend.ErrorUnreachable
	}
	return backend.ErrorProvider
}

// providerErrors keeps the errors of a run's model calls: the agent reports them as
// text, and the kind comes from the error itself.
type providerErrors struct {
	mu   sync.Mutex
	last error
}

// wrap returns the provider wrapper of a run: it records failures, and asks for the
// reasoning effort when one is set.
func (p *providerErrors) wrap(effort string) func(llm.Provider) llm.Provider {
	return func(inner llm.Provider) llm.Provider {
		return llm.ProviderFunc(func(ctx context.Context, req llm.Request, emit func(llm.StreamEvent)) (*llm.Response, error) {
			if effort != "" {
				req.ReasoningEffort = effort
			}
			resp, err := inner.Stream(ctx, req, emit)
			if err != nil {
				p.mu.Lock()
				p.last = err
				p.mu.Unlock()
			}
			return resp, err
		})
	}
}

// kindFor classifies an error event of the agent: the model call's failure when its
// text is the event's, else unknown (a tool's infrastructure error, a session write).
func (p *providerErrors) kindFor(text string) backend.ErrorKind {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.last != nil && p.last.Error() == text {
		return ErrorKindOf(p.last)
	}
	return ""
}

// kindOf classifies the error a run ended with.
func (p *providerErrors) kindOf(err error) backend.ErrorKind {
	if k := p.kindFor(err.Error()); k != "" {
		return k
	}
	return ErrorKindOf(err)
}
