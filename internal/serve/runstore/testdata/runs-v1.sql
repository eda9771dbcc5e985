-- A run store as albert-code wrote it at schema version 1, before process groups
-- were recorded: one finished run and one running when its server stopped.
CREATE TABLE IF NOT EXISTS runs (
	id          TEXT PRIMARY KEY,
	workspace   TEXT NOT NULL,
	backend     TEXT NOT NULL,
	status      TEXT NOT NULL,
	request     BLOB,
	result      BLOB,
	error       TEXT NOT NULL DEFAULT '',
	async       INTEGER NOT NULL,
	created_at  INTEGER NOT NULL,
	started_at  INTEGER,
	finished_at INTEGER,
	expires_at  INTEGER
);
CREATE INDEX IF NOT EXISTS runs_by_created ON runs(created_at);
CREATE INDEX IF NOT EXISTS runs_by_expiry ON runs(expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS attempts (
	run_id      TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	idx         INTEGER NOT NULL,
	usage       BLOB,
	exit_code   INTEGER NOT NULL,
	parse_error TEXT NOT NULL,
	session_id  TEXT NOT NULL,
	PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
	run_id  TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	seq     INTEGER NOT NULL,
	attempt INTEGER NOT NULL,
	backend TEXT NOT NULL,
	type    TEXT NOT NULL,
	data    BLOB,
	at      INTEGER NOT NULL,
	PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
INSERT INTO runs (id, workspace, backend, status, request, async, created_at, started_at, finished_at, expires_at, result)
	VALUES ('done', '/w', 'claude', 'completed', '{"prompt":"a"}', 1, 1764579600000, 1764579601000, 1764579602000, 4102444800000, '{"text":"kept"}');
INSERT INTO runs (id, workspace, backend, status, request, async, created_at, started_at)
	VALUES ('busy', '/w', 'claude', 'running', '{"prompt":"b"}', 1, 1764579600000, 1764579601000);
INSERT INTO events (run_id, seq, attempt, backend, type, data, at) VALUES ('busy', 1, 0, 'claude', 'text', '{"text":"hi"}', 1764579601500);
PRAGMA user_version = 1;
