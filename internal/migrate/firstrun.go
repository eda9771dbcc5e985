package migrate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// markerFile, in the home, records that the first run imported the original's
// sessions, so later runs do not scan them again; `albert-code migrate` always does.
const markerFile = "original-imported"

// FirstRun imports the original's sessions the first time albert-code runs in a
// home that has them, and returns what to tell the user (nothing on later runs).
func FirstRun(home, sessionDir string) []string {
	marker := filepath.Join(home, markerFile)
	if _, err := os.Stat(marker); err == nil {
		return nil
	}
	if _, err := os.Stat(OriginalSessionDir(home)); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	r := ImportSessions(home, sessionDir)
	notes := r.Notices
	if len(r.Imported) > 0 {
		notes = append(notes, fmt.Sprintf("imported %d session(s) of the original albert-code from %s (left there as the backup; albert-code migrate says more)",
			len(r.Imported), OriginalSessionDir(home)))
	}
	line := fmt.Sprintf("imported: %s\n", strings.Join(r.Imported, " "))
	if err := os.WriteFile(marker, []byte(line), 0o600); err != nil {
		notes = append(notes, fmt.Sprintf("could not write %s (the import will be tried again next run): %v", marker, err))
	}
	return notes
}
