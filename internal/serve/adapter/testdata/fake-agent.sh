#!/bin/sh
# A fake CLI agent. It records its argv (one per line) and stdin in $FAKE_DIR, then
# prints the transcript $FAKE_TRANSCRIPT, a recorded output of the real agent; the
# transcript decides which agent it plays. $FAKE_MODE makes it misbehave.
printf '%s\n' "$@" > "$FAKE_DIR/argv"
cat > "$FAKE_DIR/stdin"
case "$FAKE_MODE" in
crash)
	head -n 2 "$FAKE_TRANSCRIPT"
	echo "Error: 529 overloaded_error: the model is overloaded" >&2
	exit 2 ;;
hang)
	head -n 1 "$FAKE_TRANSCRIPT"
	sleep 300 &
	echo $! > "$FAKE_DIR/grandchild"
	wait ;;
garbage)
	echo 'Welcome to the agent! (not JSON)'
	printf '\033[31m{"type": broken\n'
	echo '[1, 2, 3]'
	echo '{"type":"unheard.of","x":1}' ;;
huge)
	head -c 3000000 /dev/zero | tr '\0' x
	echo
	cat "$FAKE_TRANSCRIPT" ;;
*)
	cat "$FAKE_TRANSCRIPT" ;;
esac
