package telegram

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/etalab-ia/albert-code/internal/serve/backend"
	"github.com/etalab-ia/albert-code/internal/serve/telegram/tgsend"
	"github.com/etalab-ia/albert-code/internal/serve/workspace"
)

// DefaultGrace is how long a stopping bot lets running runs finish before it
// cancels them (the runner then stops their process groups). Judgement: the
// cron scheduler's, so both modes in one process stop together.
const DefaultGrace = 20 * time.Second

// pollTimeout is getUpdates' long-poll wait. Judgement: within the 25-50 s the
// Bot API documentation advises; the HTTP client waits a little longer.
const pollTimeout = 30 * time.Second

// Agent runs one request, giving its events to emit: the serve layer's runner
// on its backend, or a fake.
type Agent interface {
	Run(ctx context.Context, req backend.Request, emit func(backend.Event)) (backend.Result, error)
}

// Sender puts the bot's output into a chat: *tgsend.Sender, which renders,
// splits, falls back to plain text and retries.
type Sender interface {
	// SendMarkdown sends markdown rendered and split within Telegram's limits,
	// the first part replying to message replyTo (0: none).
	SendMarkdown(ctx context.Context, chatID, replyTo int64, markdown string) ([]int64, error)
	// SendPlain sends text without markup, cut within Telegram's limits.
	SendPlain(ctx context.Context, chatID int64, text string) ([]int64, error)
	// SendFile sends the file at path as a photo, a video or a document.
	SendFile(ctx context.Context, chatID int64, path string) (int64, error)
	// Typing shows "typing…" in the chat until ctx ends.
	Typing(ctx context.Context, chatID int64)
}

// Options configure a Bot.
type Options struct {
	// Client is the Bot API client; New makes one from Token and APIURL if nil.
	Client        *bot.Bot
	Token, APIURL string
	HTTPClient    *http.Client
	// Sender is how answers are sent; nil makes a tgsend.Sender over the
	// client with SendOptions.
	Sender      Sender
	SendOptions tgsend.Options

	Settings *Settings
	// SettingsPath is re-read by /reload; empty disables it.
	SettingsPath string
	Overrides    *Overrides
	Agent        Agent
	AgentName    string
	Root         *workspace.Root
	Locks        *workspace.Locks
	// Models and Efforts are what /model and /effort offer; empty lets any
	// name through.
	Models, Efforts []string
	// CronHistoryDir is where replies to cron notifications are looked up;
	// empty when cron never notifies.
	CronHistoryDir string
	Grace          time.Duration // 0: DefaultGrace
	// DraftEvery is how often a streamed answer's draft is refreshed; 0 means
	// DefaultDraftEvery, a negative value sends no drafts.
	DraftEvery time.Duration
	Logger     *slog.Logger // nil: discard
}

// Bot serves the allowed chats of one Telegram bot.
type Bot struct {
	opts   Options
	client *bot.Bot
	sender *tgsend.Sender
	log    *slog.Logger
	botID  int64
	// username is the bot's @name, to tell its commands from other bots' in a
	// group; empty until getMe answers.
	username string

	// runCtx is the parent of every run; stopRuns ends it after the grace.
	runCtx   context.Context
	stopRuns context.CancelCauseFunc
	jobs     sync.WaitGroup

	mu       sync.Mutex
	settings *Settings
	chats    map[int64]*chatState
	stopping bool
}

// New checks opts and builds the bot; Run serves it.
func New(opts Options) (*Bot, error) {
	switch {
	case opts.Settings == nil, opts.Overrides == nil, opts.Agent == nil, opts.Root == nil, opts.Locks == nil:
		return nil, errors.New("telegram: Settings, Overrides, Agent, Root and Locks are required")
	}
	if opts.Grace <= 0 {
		opts.Grace = DefaultGrace
	}
	if opts.DraftEvery == 0 {
		opts.DraftEvery = DefaultDraftEvery
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	b := &Bot{opts: opts, log: opts.Logger, settings: opts.Settings, chats: map[int64]*chatState{}}
	id, _, _ := strings.Cut(opts.Token, ":")
	b.botID, _ = strconv.ParseInt(id, 10, 64)
	b.runCtx, b.stopRuns = context.WithCancelCause(context.Background())
	b.client = opts.Client
	if b.client == nil {
		c, err := NewClient(opts.Token, opts.APIURL, opts.HTTPClient, b.handle, opts.Logger)
		if err != nil {
			return nil, err
		}
		b.client = c
	}
	if b.opts.Sender == nil {
		so := opts.SendOptions
		if so.Logger == nil {
			so.Logger = opts.Logger
		}
		sender := tgsend.New(b.client, so)
		b.opts.Sender, b.sender = sender, sender
	}
	return b, nil
}

// Notifier is the bot's tgsend.Sender, a cron.Notifier: the cron scheduler in
// the same process can send through it (one client, one flood-control wait);
// nil when Options gave another Sender.
func (b *Bot) Notifier() *tgsend.Sender { return b.sender }

// NewClient makes a Bot API client for token at apiURL whose updates go to
// handle, one at a time: handle returns quickly, runs go to their own goroutines.
func NewClient(token, apiURL string, hc *http.Client, handle bot.HandlerFunc, logger *slog.Logger) (*bot.Bot, error) {
	if hc == nil {
		hc = &http.Client{Timeout: pollTimeout + 15*time.Second}
	}
	opts := []bot.Option{
		bot.WithSkipGetMe(), bot.WithNotAsyncHandlers(), bot.WithHTTPClient(pollTimeout, hc),
		bot.WithAllowedUpdates(bot.AllowedUpdates{"message", "callback_query"}),
		bot.WithErrorsHandler(func(err error) { logger.Warn("telegram: bot API", "err", err) }),
	}
	if handle != nil {
		opts = append(opts, bot.WithDefaultHandler(handle))
	}
	if apiURL != "" {
		opts = append(opts, bot.WithServerURL(apiURL))
	}
	c, err := bot.New(token, opts...)
	if err != nil {
		return nil, fmt.Errorf("telegram: %w", err)
	}
	return c, nil
}

// errShutdown is the cause of runs cancelled because the bot stops.
var errShutdown = errors.New("the bot is stopping")

// Run polls for updates until ctx ends, then stops taking messages, lets
// running runs finish within the grace period, cancels the rest (their process
// groups are stopped) and returns once every run has ended.
func (b *Bot) Run(ctx context.Context) error {
	if me, err := b.client.GetMe(ctx); err != nil {
		b.log.Warn("telegram: getMe failed; commands addressed to any bot are taken", "err", err)
	} else {
		b.mu.Lock()
		b.username, b.botID = me.Username, me.ID
		b.mu.Unlock()
	}
	if _, err := b.client.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: menu()}); err != nil {
		b.log.Warn("telegram: could not register the command menu", "err", err)
	}
	b.log.Info("telegram: bot polling", "bot", b.username)
	b.client.Start(ctx) // returns when ctx ends
	b.mu.Lock()
	b.stopping = true
	b.mu.Unlock()
	done := make(chan struct{})
	go func() { b.jobs.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(b.opts.Grace):
		b.log.Warn("telegram: runs still going after the grace period; stopping them", "grace", b.opts.Grace)
		b.stopRuns(errShutdown)
		<-done
	}
	b.stopRuns(errShutdown)
	b.log.Info("telegram: bot stopped")
	return nil
}

// handle takes one update; it runs on the client's worker, so what takes time
// (runs, downloads, file sends) goes to goroutines that b.jobs tracks.
func (b *Bot) handle(ctx context.Context, _ *bot.Bot, u *models.Update) {
	switch {
	case u.CallbackQuery != nil:
		b.onCallback(ctx, u.CallbackQuery)
	case u.Message != nil:
		b.onMessage(ctx, u.Message)
	}
}

// currentSettings is the YAML as last (re)loaded.
func (b *Bot) currentSettings() *Settings {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.settings
}

func userID(u *models.User) int64 {
	if u == nil {
		return 0
	}
	return u.ID
}
