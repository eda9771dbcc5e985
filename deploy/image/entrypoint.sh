#!/bin/sh
# Entrypoint of the albert-code images (tini runs it as PID 1's child). It puts
# ~/.albert-code/bin on the PATH, runs the start-up scripts in order, then replaces
# itself with albert-code, so SIGTERM from tini reaches serve directly.
#
# Start-up scripts: /etc/albert-code/init.d/*.sh (an image built FROM this one), then
# $ALBERT_CODE_HOME/init.d/*.sh (the user's, usually a mounted folder), in the byte
# order of their names (the shell's glob order: 10-x before 9-x), each run as its own
# process (`sh SCRIPT`, or directly when it is executable, so its #! line chooses the
# shell). They run at every start: write them
# so that running twice does no harm. A script that fails stops the start, naming
# it, where the original carried on: a half-initialised server is worse than none.
set -eu

home=${ALBERT_CODE_HOME:-$HOME/.albert-code}
PATH=$home/bin:$PATH
export PATH

for dir in /etc/albert-code/init.d "$home/init.d"; do
	[ -d "$dir" ] || continue
	for path in "$dir"/*.sh; do
		[ -f "$path" ] || continue # no match leaves the pattern itself
		echo "albert-code-entrypoint: running $path" >&2
		status=0
		if [ -x "$path" ]; then
			"$path" || status=$?
		else
			sh "$path" || status=$?
		fi
		if [ "$status" -ne 0 ]; then
			echo "albert-code-entrypoint: $path exited with status $status; the server does not start. Fix or remove the script (it runs at every start, in the order of its name)." >&2
			exit 1
		fi
	done
done

exec albert-code "$@"
