package shellcmd

import (
	"fmt"
	"strings"
)

// optionTables are the option tables of the allowlisted programs that take options,
// each read from the program's own --help on Debian 12 (bookworm), and checked
// against its behaviour where it matters (abbreviations, values). git has its own,
// in options_git.go, find its own parser, in options_find.go.
//
// Bash's builtins: echo takes -n, -e and -E and prints any other word, so it needs
// no table; true and false ignore their arguments; test and [ are checked by
// evaluatedWords.
var optionTables = map[string]*optionTable{
	// GNU coreutils 9.1, `cat --help`.
	"cat": optionTable{
		short: "AbeEnstTuv",
		long:  "show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting help version",
	}.compiled(),
	// file 5.44, `file --help`. -C writes magic.mgc; -p puts back the access time
	// of each file read; -S turns off file's own system-call sandbox.
	"file": optionTable{
		short: "vm:zZbce:f:F:iklLhnN0pP:rsSCd",
		long: "help version magic-file= uncompress uncompress-noreport brief checking-printout exclude= " +
			"exclude-quiet= files-from= separator= mime apple extension mime-type mime-encoding keep-going " +
			"list dereference no-dereference no-buffer no-pad print0 preserve-date parameter= raw " +
			"special-files no-sandbox compile debug",
		asks: map[string]string{
			"-C": "writes a compiled magic file", "--compile": "writes a compiled magic file",
			"-p": "changes the access time of the files", "--preserve-date": "changes the access time of the files",
			"-S": "turns off file's sandbox", "--no-sandbox": "turns off file's sandbox",
		},
	}.compiled(),
	// GNU coreutils 9.1, `head --help`; head -5 is head -n 5.
	"head": optionTable{
		short:  "c:n:qvz",
		long:   "bytes= lines= quiet silent verbose zero-terminated help version",
		digits: true,
	}.compiled(),
	// GNU coreutils 9.1, `tail --help`; tail -5 is tail -n 5.
	"tail": optionTable{
		short:  "c:fFn:qs:vz",
		long:   "bytes= follow[=] lines= max-unchanged-stats= pid= quiet silent retry sleep-interval= verbose zero-terminated help version",
		digits: true,
	}.compiled(),
	// GNU coreutils 9.1, `ls --help`.
	"ls": optionTable{
		short: "aAbBcCdDfFgGhHiI:klLmnNopqQrRsStT:uUvw:xXZ1",
		long: "all almost-all author escape block-size= ignore-backups color[=] directory dired classify[=] " +
			"file-type format= full-time group-directories-first no-group human-readable si " +
			"dereference-command-line dereference-command-line-symlink-to-dir hide= hyperlink[=] " +
			"indicator-style= inode ignore= kibibytes dereference numeric-uid-gid literal hide-control-chars " +
			"show-control-chars quote-name quoting-style= reverse recursive size sort= time= time-style= " +
			"tabsize= width= context zero help version",
	}.compiled(),
	// GNU coreutils 9.1, `stat --help`.
	"stat": optionTable{
		short: "c:fLt",
		long:  "dereference file-system cached= format= printf= terse help version",
	}.compiled(),
	// GNU coreutils 9.1, `uname --help`.
	"uname": optionTable{
		short: "asnrvmpio",
		long:  "all kernel-name nodename kernel-release kernel-version machine processor hardware-platform operating-system help version",
	}.compiled(),
	// GNU coreutils 9.1, `wc --help`.
	"wc": optionTable{
		short: "cmlLw",
		long:  "bytes chars lines files0-from= max-line-length words help version",
	}.compiled(),
	// GNU coreutils 9.1, `whoami --help`.
	"whoami": optionTable{long: "help version"}.compiled(),
	// GNU coreutils 9.1, `basename --help`.
	"basename": optionTable{short: "as:z", long: "multiple suffix= zero help version"}.compiled(),
	// GNU coreutils 9.1, `dirname --help`.
	"dirname": optionTable{short: "z", long: "zero help version"}.compiled(),
	// GNU coreutils 9.1, `realpath --help`.
	"realpath": optionTable{
		short: "eLmPqsz",
		long:  "canonicalize-existing canonicalize-missing logical physical quiet relative-to= relative-base= strip no-symlinks zero help version",
	}.compiled(),
	// GNU coreutils 9.1, `date --help`, with the aliases date.c keeps out of it
	// (rfc-822, rfc-2822, uct). An operand other than +FORMAT is a date to set.
	"date": optionTable{
		short: "d:f:I::r:Rs:u",
		long:  "date= debug file= iso-8601[=] resolution rfc-email rfc-822 rfc-2822 rfc-3339= reference= set= uct utc universal help version",
		asks:  map[string]string{"-s": "sets the clock", "--set": "sets the clock"},
		operand: func(s string) string {
			if strings.HasPrefix(s, "+") {
				return ""
			}
			return fmt.Sprintf("date %s sets the clock (an operand other than +FORMAT is a date)", s)
		},
	}.compiled(),
	// GNU coreutils 9.1, `df --help`.
	"df": optionTable{
		short: "aB:hHiklPt:Tx:v",
		long:  "all block-size= human-readable si inodes local no-sync output[=] portability sync total type= print-type exclude-type= help version",
	}.compiled(),
	// GNU coreutils 9.1, `du --help`.
	"du": optionTable{
		short: "0aB:bcd:DHhkLlmPSst:xX:",
		long: "null all apparent-size block-size= bytes total dereference-args max-depth= files0-from= " +
			"human-readable inodes dereference count-links no-dereference separate-dirs si summarize " +
			"threshold= time[=] time-style= exclude-from= exclude= one-file-system help version",
	}.compiled(),
	// GNU grep 3.8, `grep --help`, and the short options of grep.c (-X, -y, -u are
	// kept out of the help); grep -3 is grep -C 3.
	"grep": optionTable{
		short: "A:B:C:D:EFGHIPTUVX:abcd:e:f:hiLlm:noqRrsuvwxyZz",
		long: "extended-regexp fixed-strings basic-regexp perl-regexp regexp= file= ignore-case no-ignore-case " +
			"word-regexp line-regexp null-data no-messages invert-match version help max-count= byte-offset " +
			"line-number line-buffered with-filename no-filename label= only-matching quiet silent " +
			"binary-files= text directories= devices= recursive dereference-recursive include= exclude= " +
			"exclude-from= exclude-dir= files-without-match files-with-matches count initial-tab null " +
			"before-context= after-context= context= group-separator= no-group-separator color[=] colour[=] binary",
		digits: true,
	}.compiled(),
	// ripgrep 13.0.0, `rg --help`, with the --no- forms it names there. clap takes
	// only whole long option names (rg --pr is an error).
	"rg": optionTable{
		short: "A:B:bsC:cE:f:lFLg:hivnxM:m:UIN0oPpqe:r:zSajt:T:uVHw",
		long: "after-context= auto-hybrid-regex before-context= binary block-buffered byte-offset case-sensitive " +
			"color= colors= column context= context-separator= count count-matches crlf debug dfa-size-limit= " +
			"encoding= engine= field-context-separator= field-match-separator= file= files files-with-matches " +
			"files-without-match fixed-strings follow glob= glob-case-insensitive help heading hidden iglob= " +
			"ignore-case ignore-file= ignore-file-case-insensitive include-zero invert-match json line-buffered " +
			"line-number line-regexp max-columns= max-columns-preview max-count= max-depth= max-filesize= mmap " +
			"multiline multiline-dotall no-config no-filename no-heading no-ignore no-ignore-dot no-ignore-exclude " +
			"no-ignore-files no-ignore-global no-ignore-messages no-ignore-parent no-ignore-vcs no-line-number " +
			"no-messages no-mmap no-pcre2-unicode no-require-git no-unicode null null-data one-file-system " +
			"only-matching passthru path-separator= pcre2 pcre2-version pre= pre-glob= pretty quiet " +
			"regex-size-limit= regexp= replace= search-zip smart-case sort= sortr= stats text threads= trim " +
			"type= type-add= type-clear= type-list type-not= unrestricted version vimgrep with-filename " +
			"word-regexp no-auto-hybrid-regex no-block-buffered no-column no-crlf no-encoding no-fixed-strings " +
			"no-follow no-hidden no-json no-line-buffered no-multiline no-multiline-dotall no-one-file-system " +
			"no-pcre2 no-search-zip no-stats no-trim",
		exact: true,
		asks:  map[string]string{"--pre": "runs a preprocessor command on every file searched"},
	}.compiled(),
	// tree 2.1.0, `tree --help`, checked by hand: whole long names only (tree
	// --norep is an error), and each value-taking letter of a cluster takes the
	// next word (tree -oL out 1 writes out).
	"tree": optionTable{
		short: "adlfxL:RP:I:o:qNQpugshDFvtcUriASnCXJH:T:",
		long: "gitignore gitfile= matchdirs metafirst ignore-case prune info infofile= noreport charset= " +
			"filelimit= si du timefmt= inodes device dirsfirst filesfirst sort= nolinks hintro= houtro= " +
			"fromfile fflinks version help",
		exact:          true,
		nextWordValues: true,
		asks: map[string]string{
			"-o": "writes the listing to a file",
			"-R": "writes an output file into each directory at the depth limit",
		},
	}.compiled(),
	// debianutils 5.7 which (a shell script): `getopts as`.
	"which": optionTable{short: "as", exact: true}.compiled(),
	// Bash 5.2's pwd builtin: -L and -P, no long options.
	"pwd": optionTable{short: "LP", exact: true}.compiled(),
}
