// Package notify sends a desktop notification, either as an escape sequence that
// the terminal turns into one (OSC 9 or OSC 777) or by running notify-send. It only
// builds and sends; when to notify is the face's business.
package notify

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Methods: how a notification reaches the desktop.
const (
	MethodAuto       = "auto"
	MethodTerminal   = "terminal"
	MethodNotifySend = "notify-send"
)

// Sequences: which terminal escape sequence is written.
const (
	SequenceAuto = "auto"
	// SequenceOSC9 is iTerm2's "ESC ] 9 ; text BEL", also read by WezTerm, Windows
	// Terminal, kitty and Ghostty.
	SequenceOSC9 = "osc9"
	// SequenceOSC777 is rxvt-unicode's "ESC ] 777 ; notify ; title ; body BEL", also
	// read by foot, Ghostty and VTE terminals that carry the notification patch.
	SequenceOSC777 = "osc777"
)

// Methods and Sequences list the accepted values, for the configuration's errors.
var (
	Methods   = []string{MethodAuto, MethodTerminal, MethodNotifySend}
	Sequences = []string{SequenceAuto, SequenceOSC9, SequenceOSC777}
)

// sendTimeout bounds one notify-send run. Judgement: it returns at once when the
// desktop's notification service answers; a hung D-Bus must not keep a goroutine.
const sendTimeout = 5 * time.Second

// maxBody bounds the text shown: a notification is a glance, and terminals cap
// OSC strings (urxvt drops long ones). Judgement.
const maxBody = 200

// Options choose how notifications are sent.
type Options struct {
	// Method is MethodAuto, MethodTerminal or MethodNotifySend; empty means auto.
	Method string
	// Sequence is SequenceAuto, SequenceOSC9 or SequenceOSC777; empty means auto.
	Sequence string
	// Getenv reads the environment (TERM_PROGRAM, TMUX, DISPLAY...); nil is os.Getenv.
	Getenv func(string) string
	// LookPath finds notify-send; nil is exec.LookPath.
	LookPath func(string) (string, error)
}

// Notifier sends notifications the way its Options chose.
type Notifier struct {
	// sequence is the terminal sequence to write; "" when the terminal is not used.
	sequence string
	// tmux wraps the sequence so that tmux passes it to the outer terminal.
	tmux bool
	// notifySend is notify-send's path; "" when it is not used.
	notifySend string
}

// New chooses the method and the sequence. Auto picks the terminal when it is one
// known to show notifications, else notify-send when it is installed and a desktop
// session is there, else the terminal with OSC 777.
func New(o Options) (*Notifier, error) {
	getenv, lookPath := o.Getenv, o.LookPath
	if getenv == nil {
		getenv = os.Getenv
	}
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	method := orAuto(o.Method)
	seq := orAuto(o.Sequence)
	if !slices.Contains(Methods, method) {
		return nil, fmt.Errorf("notifications.method %q: want %s", o.Method, strings.Join(Methods, ", "))
	}
	if !slices.Contains(Sequences, seq) {
		return nil, fmt.Errorf("notifications.sequence %q: want %s", o.Sequence, strings.Join(Sequences, ", "))
	}
	if seq == SequenceAuto {
		seq = SequenceOSC777
		if osc9Terminal(getenv) {
			seq = SequenceOSC9
		}
	}
	n := &Notifier{tmux: getenv("TMUX") != ""}
	switch method {
	case MethodTerminal:
		n.sequence = seq
	case MethodNotifySend:
		path, err := lookPath("notify-send")
		if err != nil {
			return nil, fmt.Errorf("notifications.method = \"notify-send\": %w (install libnotify-bin, or use \"terminal\")", err)
		}
		n.notifySend = path
	default:
		if path, err := lookPath("notify-send"); err == nil && !knownTerminal(getenv) && desktopSession(getenv) {
			n.notifySend = path
		} else {
			n.sequence = seq
		}
	}
	return n, nil
}

// Method says how this notifier sends: "terminal (osc9)" or "notify-send".
func (n *Notifier) Method() string {
	if n.notifySend != "" {
		return MethodNotifySend
	}
	return MethodTerminal + " (" + n.sequence + ")"
}

// Sequence returns the bytes to write to the terminal for one notification; "" when
// this notifier does not use the terminal.
func (n *Notifier) Sequence(title, body string) string {
	title, body = clean(title, maxBody), clean(body, maxBody)
	var s string
	switch n.sequence {
	case "":
		return ""
	case SequenceOSC9:
		s = "\x1b]9;" + title + ": " + body + "\a"
	default:
		// The title is a field of its own: a ";" in it would start the body.
		s = "\x1b]777;notify;" + strings.ReplaceAll(title, ";", ",") + ";" + body + "\a"
	}
	if n.tmux {
		// tmux passes a DCS "tmux;" string on to the outer terminal with its escapes
		// doubled (tmux(1), allow-passthrough).
		s = "\x1bPtmux;" + strings.ReplaceAll(s, "\x1b", "\x1b\x1b") + "\x1b\\"
	}
	return s
}

// Send runs notify-send for one notification; it does nothing when this notifier
// uses the terminal. It blocks until notify-send exits: call it off the UI loop.
func (n *Notifier) Send(ctx context.Context, title, body string) error {
	if n.notifySend == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	args := []string{"--app-name=albert-code", "--", clean(title, maxBody), clean(body, maxBody)}
	out, err := exec.CommandContext(ctx, n.notifySend, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("notify-send: %w: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// osc9Terminal recognises terminals that show OSC 9 as a notification.
func osc9Terminal(getenv func(string) string) bool {
	switch getenv("TERM_PROGRAM") {
	case "iTerm.app", "WezTerm", "ghostty":
		return true
	}
	return getenv("WT_SESSION") != "" || getenv("KITTY_WINDOW_ID") != "" || strings.Contains(getenv("TERM"), "kitty")
}

// knownTerminal recognises terminals known to show notification sequences, which
// auto prefers to notify-send: a click on the notification then finds the window.
func knownTerminal(getenv func(string) string) bool {
	term := getenv("TERM")
	return osc9Terminal(getenv) || strings.HasPrefix(term, "foot") || strings.HasPrefix(term, "rxvt-unicode")
}

// desktopSession says whether notify-send has a desktop to talk to: over SSH it
// would notify the remote machine, or fail.
func desktopSession(getenv func(string) string) bool {
	return getenv("SSH_CONNECTION") == "" && (getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != "")
}

// clean removes control characters (an ESC or BEL would end the sequence early and
// let the text write its own escapes), folds newlines and cuts to max runes.
func clean(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n >= max {
			b.WriteString("…")
			break
		}
		switch {
		case r == '\n' || r == '\t':
			r = ' '
		case unicode.IsControl(r):
			continue
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}

func orAuto(s string) string {
	if s == "" {
		return MethodAuto
	}
	return s
}
