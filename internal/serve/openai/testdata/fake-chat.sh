#!/bin/sh
# A fake plain-text CLI agent for the endpoint's tests. Run N (counted in
# $FAKE_DIR/count) keeps its prompt in $FAKE_DIR/prompt.N and its argv in argv.N,
# prints $FAKE_DIR/answer.N and $FAKE_DIR/stderr.N, and exits with the code in
# $FAKE_DIR/exit.N (0 when absent). With $FAKE_DIR/sleep.N it first sleeps that
# many seconds; a copy of the workspace's _oai_uploads folder goes to uploads.N.
n=$(cat "$FAKE_DIR/count" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > "$FAKE_DIR/count"
printf '%s\n' "$@" > "$FAKE_DIR/argv.$n"
pwd > "$FAKE_DIR/cwd.$n"
cat > "$FAKE_DIR/prompt.$n"
[ -d _oai_uploads ] && cp -r _oai_uploads "$FAKE_DIR/uploads.$n"
[ -f "$FAKE_DIR/sleep.$n" ] && sleep "$(cat "$FAKE_DIR/sleep.$n")"
cat "$FAKE_DIR/answer.$n" 2>/dev/null
cat "$FAKE_DIR/stderr.$n" >&2 2>/dev/null
exit "$(cat "$FAKE_DIR/exit.$n" 2>/dev/null || echo 0)"
