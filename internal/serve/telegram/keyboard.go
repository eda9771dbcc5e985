package telegram

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"
)

// resetWords clear an override, as in the original.
var resetWords = []string{"__reset__", "default", "reset", "clear", "none"}

func isReset(s string) bool {
	for _, w := range resetWords {
		if strings.EqualFold(s, w) {
			return true
		}
	}
	return false
}

// Callback data is "<key>:<index>:<check>" or "<key>:reset". The original put the
// option itself there, and Telegram caps callback data at 64 bytes, so a long
// model id broke its keyboard; an index always fits, and the check (a hash of
// the option) refuses a press on a keyboard whose list has changed since.
const callbackReset = "reset"

// maxCallbackData is Telegram's cap on callback_data, in bytes.
const maxCallbackData = 64

func optionCheck(option string) string {
	h := fnv.New32a()
	h.Write([]byte(option))
	return strconv.FormatUint(uint64(h.Sum32()), 36)
}

func callbackData(key string, index int, option string) string {
	return fmt.Sprintf("%s:%d:%s", key, index, optionCheck(option))
}

// parseCallback reads callback data against the current options of its key:
// the option chosen, or reset.
func parseCallback(data string, options func(key string) []string) (key, option string, reset bool, err error) {
	parts := strings.Split(data, ":")
	key = parts[0]
	if key != KeyModel && key != KeyEffort {
		return "", "", false, fmt.Errorf("unknown button %q", data)
	}
	if len(parts) == 2 && parts[1] == callbackReset {
		return key, "", true, nil
	}
	if len(parts) != 3 {
		return "", "", false, fmt.Errorf("unknown button %q", data)
	}
	opts := options(key)
	i, err := strconv.Atoi(parts[1])
	if err != nil || i < 0 || i >= len(opts) || optionCheck(opts[i]) != parts[2] {
		return "", "", false, fmt.Errorf("this menu is out of date: send /%s again", key)
	}
	return key, opts[i], false, nil
}

// choiceKeyboard lists options two a row, a ✓ on current, then the reset button.
func choiceKeyboard(key string, options []string, current string) *models.InlineKeyboardMarkup {
	var rows [][]models.InlineKeyboardButton
	var row []models.InlineKeyboardButton
	for i, o := range options {
		label := o
		if o == current {
			label = "✓ " + o
		}
		row = append(row, models.InlineKeyboardButton{Text: label, CallbackData: callbackData(key, i, o)})
		if len(row) == 2 {
			rows, row = append(rows, row), nil
		}
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	rows = append(rows, []models.InlineKeyboardButton{{Text: "↺ reset to the YAML default", CallbackData: key + ":" + callbackReset}})
	return &models.InlineKeyboardMarkup{InlineKeyboard: rows}
}
