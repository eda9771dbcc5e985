package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrQueryTimeout: a Query ran past its timeout and was interrupted.
var ErrQueryTimeout = errors.New("query timed out")

const (
	// DefaultMaxRows is the row cap when the caller gives none: the peer's
	// QUERY_GRAPH_ROW_LIMIT (a 100,000-character budget over ~140 characters a row).
	DefaultMaxRows = 500
	// MaxRows bounds any cap a caller asks for. Judgement: more rows than anyone
	// reads, fewer than would exhaust memory at SQLite's value length limit below.
	MaxRows = 100_000
	// DefaultQueryTimeout applies when the caller gives none. Judgement: every
	// question the query layer asks takes milliseconds; seconds mean a runaway join.
	DefaultQueryTimeout = 5 * time.Second
	// maxValueBytes caps any string or blob a query builds (SQLITE_LIMIT_LENGTH,
	// 1 GB by default): printf('%.*c', 1e9, 'x') fails instead of allocating.
	maxValueBytes = 16 << 20
)

// Query runs one read-only SQL statement (SELECT, WITH or VALUES) and returns at
// most maxRows rows (DefaultMaxRows when not positive); truncated says more existed.
// It is meant for users and agents, so it trusts nothing in sqlText:
//
//   - it runs on the guarded connection (see roDriver): mode=ro, query_only, and
//     an authorizer that refuses everything but reads and safe functions;
//   - one statement only, with balanced parentheses, checked before SQLite sees it;
//   - the statement is wrapped so that its first maxRows+1 rows are computed while
//     the context can still interrupt SQLite (a later step cannot be interrupted),
//     and the Go code stops reading at maxRows whatever the SQL says;
//   - timeout (DefaultQueryTimeout when not positive) interrupts it.
//
// A refused statement returns an error wrapping ErrRefused that names what was
// refused; one that ran out of time wraps ErrQueryTimeout.
func (s *Store) Query(ctx context.Context, sqlText string, maxRows int, timeout time.Duration) (columns []string, rows [][]any, truncated bool, err error) {
	stmt, err := checkStatement(sqlText)
	if err != nil {
		return nil, nil, false, fmt.Errorf("query: %w: %v", ErrRefused, err)
	}
	maxRows = clampLimit(maxRows, DefaultMaxRows, MaxRows)
	if timeout <= 0 {
		timeout = DefaultQueryTimeout
	}
	ro, err := s.readOnlyDB()
	if err != nil {
		return nil, nil, false, err
	}
	qctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	conn, err := ro.Conn(qctx)
	if err != nil {
		return nil, nil, false, s.queryError(ctx, qctx, timeout, nil, err)
	}
	defer conn.Close()
	g := &guard{}
	if err := installGuard(conn, g); err != nil {
		return nil, nil, false, fmt.Errorf("query: %w", err)
	}
	// The connection returns to the pool with a fresh guard: no state of this query
	// leaks into the next.
	defer installGuard(conn, &guard{})
	if _, err := sqlite.Limit(conn, sqlite3.SQLITE_LIMIT_LENGTH, maxValueBytes); err != nil {
		return nil, nil, false, fmt.Errorf("query: %w", err)
	}

	// Prepare the statement as written first: the authorizer judges it, and a
	// syntax error is reported in the user's terms, not the wrapper's.
	prep, err := conn.PrepareContext(qctx, stmt)
	if err != nil {
		return nil, nil, false, s.queryError(ctx, qctx, timeout, g, err)
	}
	prep.Close()

	wrapped := `WITH "albert_code_rows" AS MATERIALIZED (SELECT * FROM (` + "\n" + stmt + "\n" +
		`) LIMIT ` + strconv.Itoa(maxRows+1) + `) SELECT * FROM "albert_code_rows"`
	r, err := conn.QueryContext(qctx, wrapped)
	if err != nil {
		return nil, nil, false, s.queryError(ctx, qctx, timeout, g, err)
	}
	defer r.Close()
	columns, err = r.Columns()
	if err != nil {
		return nil, nil, false, s.queryError(ctx, qctx, timeout, g, err)
	}
	for r.Next() {
		if len(rows) == maxRows {
			truncated = true
			break
		}
		vals := make([]any, len(columns))
		ptrs := make([]any, len(columns))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := r.Scan(ptrs...); err != nil {
			return nil, nil, false, s.queryError(ctx, qctx, timeout, g, err)
		}
		rows = append(rows, vals)
	}
	if err := r.Err(); err != nil {
		return nil, nil, false, s.queryError(ctx, qctx, timeout, g, err)
	}
	return columns, rows, truncated, nil
}

func installGuard(conn *sql.Conn, g *guard) error {
	return conn.Raw(func(dc any) error {
		ar, ok := dc.(sqlite.AuthorizerRegisterer)
		if !ok {
			return fmt.Errorf("driver connection %T has no authorizer", dc)
		}
		return ar.RegisterAuthorizer(g.authorize)
	})
}

// queryError says why a query failed in the user's terms: refused (and what),
// timed out, or SQLite's own message (a syntax error, an unknown column).
func (s *Store) queryError(parent, qctx context.Context, timeout time.Duration, g *guard, err error) error {
	if parent.Err() != nil {
		return fmt.Errorf("query: %w", parent.Err())
	}
	if errors.Is(qctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("query: %w after %s (interrupted): narrow it or add a WHERE clause", ErrQueryTimeout, timeout)
	}
	what := ""
	if g != nil {
		what = g.takeRefused()
	}
	if what == "" && sqliteCode(err) == sqlite3.SQLITE_AUTH {
		what = "an operation the authorizer denies"
	}
	if what != "" {
		return fmt.Errorf("query: %w: %s is not allowed: graph SQL is read-only (SELECT, WITH, VALUES and pure functions)",
			ErrRefused, what)
	}
	return s.wrap("query", err)
}

// checkStatement returns sqlText's single statement, without a trailing ';', or
// says why it is refused: it must start with SELECT, WITH or VALUES, be the only
// statement, and keep its parentheses balanced (so it cannot close the wrapper
// Query puts around it). It lexes like SQLite: '…' strings, "…", `…` and […]
// identifiers, -- and /* */ comments.
func checkStatement(sqlText string) (string, error) {
	var first strings.Builder
	firstDone := false
	depth := 0
	end := -1 // index of the ';' ending the statement
	for i := 0; i < len(sqlText); {
		c := sqlText[i]
		switch {
		case c == '-' && i+1 < len(sqlText) && sqlText[i+1] == '-':
			j := strings.IndexByte(sqlText[i:], '\n')
			if j < 0 {
				i = len(sqlText)
			} else {
				i += j + 1
			}
			firstDone = firstDone || first.Len() > 0
			continue
		case c == '/' && i+1 < len(sqlText) && sqlText[i+1] == '*':
			j := strings.Index(sqlText[i+2:], "*/")
			if j < 0 {
				return "", errors.New("unterminated /* comment")
			}
			i += 2 + j + 2
			firstDone = firstDone || first.Len() > 0
			continue
		}
		if end >= 0 {
			if c == ';' || isSpace(c) {
				i++
				continue
			}
			return "", errors.New("one statement per query: there is more after ';'")
		}
		switch c {
		case '\'', '"', '`', '[':
			closer := c
			if c == '[' {
				closer = ']'
			}
			j := i + 1
			for {
				k := strings.IndexByte(sqlText[j:], closer)
				if k < 0 {
					return "", fmt.Errorf("unterminated %c…%c", c, closer)
				}
				j += k + 1
				// A doubled quote is an escaped one (not in […]).
				if closer != ']' && j < len(sqlText) && sqlText[j] == closer {
					j++
					continue
				}
				break
			}
			i = j
			firstDone = true
			continue
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return "", errors.New("unbalanced parentheses: ')' without '('")
			}
		case ';':
			end = i
		}
		if !firstDone {
			if isWordByte(c) {
				first.WriteByte(c)
			} else if !isSpace(c) || first.Len() > 0 {
				firstDone = true
			}
		}
		i++
	}
	if depth != 0 {
		return "", errors.New("unbalanced parentheses: '(' without ')'")
	}
	stmt := sqlText
	if end >= 0 {
		stmt = sqlText[:end]
	}
	switch kw := strings.ToUpper(first.String()); kw {
	case "SELECT", "WITH", "VALUES":
		return stmt, nil
	case "":
		if strings.TrimSpace(stmt) == "" {
			return "", errors.New("empty query")
		}
		return "", errors.New("a query must start with SELECT, WITH or VALUES")
	default:
		return "", fmt.Errorf("%s is not allowed: graph SQL is read-only (SELECT, WITH or VALUES)", kw)
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
