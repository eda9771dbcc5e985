package chat

import (
	"context"

	"github.com/etalab-ia/albert-code/internal/agentenv"
	"github.com/etalab-ia/albert-code/internal/config"
	"github.com/etalab-ia/albert-code/internal/profile"
)

// Profiles lists the profiles a user may switch to, in Shift+Tab order.
func (s *Session) Profiles() ([]profile.Profile, error) {
	cat, err := s.currentEnv().Profiles()
	if err != nil {
		return nil, err
	}
	var out []profile.Profile
	for _, name := range cat.Cycle() {
		p, err := cat.Get(name)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// SetProfile switches to the profile called name. The conversation goes on with the
// new profile's tools, permissions and system prompt; nothing of it is lost.
func (s *Session) SetProfile(name string) error {
	env, err := s.currentEnv().WithProfile(name)
	if err != nil {
		return err
	}
	return s.switchTo("switch profile while a prompt runs", env, false)
}

// NextProfile switches to the profile after the current one in Shift+Tab order and
// returns its name.
func (s *Session) NextProfile() (string, error) {
	cat, err := s.currentEnv().Profiles()
	if err != nil {
		return "", err
	}
	next := cat.Next(s.Profile())
	return next, s.SetProfile(next)
}

// Models lists the configured models, then those only the servers list (as far
// as their cached lists know).
func (s *Session) Models() []config.Model {
	cfg := s.currentEnv().Config
	return append(append([]config.Model(nil), cfg.Models...), cfg.ServerModels()...)
}

// SetModel switches to the model called name (a name, alias or wire name), keeping
// the conversation.
func (s *Session) SetModel(name string) error {
	env, err := s.currentEnv().WithModel(name)
	if err != nil {
		return err
	}
	return s.switchTo("switch model while a prompt runs", env, false)
}

// Reload goes on with the conversation in env, an environment built again from
// the configuration files (/reload, /config set), keeping the model and profile
// in use when env still knows them. The caller owns both environments: it closes
// the old one once Reload succeeded, env when it failed.
func (s *Session) Reload(env *agentenv.Env) error {
	if e, err := env.WithProfile(s.Profile()); err == nil {
		env = e
	}
	if e, err := env.WithModel(s.Model()); err == nil {
		env = e
	}
	return s.switchTo("reload while a prompt runs", env, false)
}

// Clear starts a new, empty session with the same profile and model. The previous
// one stays on disk and can be resumed.
func (s *Session) Clear() error {
	return s.switchTo("clear while a prompt runs", s.currentEnv(), true)
}

func (s *Session) currentEnv() *agentenv.Env {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.env
}

// switchTo replaces the run with one built from env: on the same session (fresh
// false) or on a new one. The old run's session log is closed before the new run
// reopens it, so one log has one writer; if the new run cannot be built, the old
// settings are reopened.
func (s *Session) switchTo(what string, env *agentenv.Env, fresh bool) error {
	_, old, end, err := s.begin(context.Background(), what)
	if err != nil {
		return err
	}
	defer end()
	s.mu.Lock()
	oldRun, oldEnv := s.run, s.env
	s.mu.Unlock()

	if fresh {
		run, err := env.NewRun(s.runOptions(false, "", nil))
		if err != nil {
			return err
		}
		s.install(env, run)
		oldRun.Close()
		return nil
	}
	ro := s.runOptions(false, oldRun.SessionID, old)
	oldRun.Close()
	run, err := env.NewRun(ro)
	if err != nil {
		back, backErr := oldEnv.NewRun(ro)
		if backErr != nil {
			// Neither can be opened (the disk went away?): keep the closed run so
			// every later prompt reports an error instead of crashing.
			return err
		}
		s.install(oldEnv, back)
		return err
	}
	s.install(env, run)
	return nil
}

func (s *Session) install(env *agentenv.Env, run *agentenv.Run) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.env, s.run = env, run
}
