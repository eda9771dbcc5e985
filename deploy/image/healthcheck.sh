#!/bin/bash
# Health check of the albert-code images: GET /healthz on serve's API port must answer
# {"ok":true,...}. bash's /dev/tcp keeps curl out of the minimal image. With the API
# off (a cron- or Telegram-only server) there is no endpoint to ask, and the check
# passes while the process runs (the container ends when serve does).
set -u

api=${ALBERT_CODE_API_MODE:-${AICODEBOX_API_MODE:-}}
case $api in 1 | true | yes | on) ;; *) exit 0 ;; esac
port=${ALBERT_CODE_API_MODE_PORT:-${AICODEBOX_API_MODE_PORT:-8080}}
host=${ALBERT_CODE_API_MODE_HOST:-127.0.0.1}
case $host in 0.0.0.0 | :: | '[::]') host=127.0.0.1 ;; esac

exec 3<>"/dev/tcp/$host/$port" || exit 1
printf 'GET /healthz HTTP/1.0\r\nHost: %s:%s\r\n\r\n' "$host" "$port" >&3
reply=$(timeout 4 cat <&3)
case $reply in
'HTTP/1.'?' 200'*'"ok":true'*) exit 0 ;;
*)
	echo "GET /healthz on $host:$port: ${reply:-no answer}" >&2
	exit 1
	;;
esac
