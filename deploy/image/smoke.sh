#!/usr/bin/env bash
# Smoke test of the container images (docs/deploy.md): builds the minimal image and the pi
# image from deploy/image/Containerfile with podman, on a Debian bookworm base made here
# from Debian packages (no image registry is needed), then runs each: it starts as uid
# 1000, runs the init.d scripts in order with ~/.albert-code/bin on the PATH, answers
# /healthz (also through the image's own HEALTHCHECK), answers one /run from the fake
# model server on the host network, and exits 0 within seconds of a SIGTERM. Three
# replicas of the minimal image then share one PostgreSQL (Debian's, started here as
# nobody) and one workspace volume. Then `podman kube play` runs deploy/kubernetes/albert-code.yaml with the minimal image
# until /healthz answers (deploy/kubernetes/smoke.sh). Before building, it checks that the
# agent images pin the versions serve's tests use, and validates deploy/compose.yaml
# against the Compose schema (docker-compose config; no daemon).
#
#   bash deploy/image/smoke.sh   (as root; installs podman, runc, mmdebstrap, docker-compose,
#                                 postgresql if missing)
#
# The base tarball is kept in $ALBERT_CODE_IMAGE_CACHE (default /var/tmp/albert-code-image)
# and the build's Go and npm caches in podman's, so a second run builds nothing it built
# before. Every failure exits non-zero naming the step.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

fail() {
	echo "image smoke: $*" >&2
	exit 1
}

# The agent images install the versions serve's adapter tests run against.
pinned() { # pinned LOCKFILE PACKAGE
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["packages"]["node_modules/" + sys.argv[2]]["version"])' "$1" "$2"
}
for pin in "claude @anthropic-ai/claude-code internal/serve/adapter/testdata/clis" \
	"codex @openai/codex internal/serve/adapter/testdata/clis" "pi @mariozechner/pi-coding-agent bench"; do
	read -r agent package tested <<<"$pin"
	image_version=$(pinned "deploy/image/npm/$agent/package-lock.json" "$package") || fail "deploy/image/npm/$agent/package-lock.json has no $package"
	tested_version=$(pinned "$tested/package-lock.json" "$package") || fail "$tested/package-lock.json has no $package"
	[ "$image_version" = "$tested_version" ] ||
		fail "the $agent image pins $package $image_version, serve's tests $tested_version ($tested/package-lock.json): set deploy/image/npm/$agent/package.json to $tested_version and run npm install --package-lock-only there"
done

missing=()
command -v podman >/dev/null 2>&1 || missing+=(podman)
[ -x /usr/sbin/runc ] || missing+=(runc)
command -v mmdebstrap >/dev/null 2>&1 || missing+=(mmdebstrap)
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
python3 -c 'import yaml' 2>/dev/null || missing+=(python3-yaml)
compgen -G '/usr/lib/postgresql/*/bin/pg_ctl' >/dev/null || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
	[ "$(id -u)" = 0 ] || fail "needs ${missing[*]}: install them (apt-get install ${missing[*]}) or run as root"
	# docker-compose without its recommended docker.io: only its validator is used.
	apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
		fail "apt-get install ${missing[*]} failed"
fi

# The compose file against the Compose schema, with the example settings filled in.
compose_env=$(mktemp)
sed -e 's/^POSTGRES_PASSWORD=$/POSTGRES_PASSWORD=example/' -e 's/^ALBERT_CODE_API_MODE_TOKEN=$/ALBERT_CODE_API_MODE_TOKEN=example-token/' \
	deploy/compose.env.example >"$compose_env"
compose_out=$(docker-compose --env-file "$compose_env" -f deploy/compose.yaml config) ||
	fail "deploy/compose.yaml does not validate (docker-compose config above)"
rm -f "$compose_env"
grep -q 'replicas: 3' <<<"$compose_out" && grep -q 'ALBERT_CODE_DATABASE_URL: postgres://albert_code:example@postgres:5432/' <<<"$compose_out" ||
	fail "deploy/compose.yaml lost its three replicas or their database URL: $compose_out"
echo "image smoke: deploy/compose.yaml validates"

work=$(mktemp -d)
added_certs=()
containers=()
cleanup() {
	for name in "${containers[@]}"; do
		podman rm -f -v -t 0 "$name" >/dev/null 2>&1 || true
	done
	podman volume rm -f albert-code-smoke-workspaces >/dev/null 2>&1
	[ -n "${fake_pid:-}" ] && kill "$fake_pid" 2>/dev/null
	if [ -n "${pgdir:-}" ]; then
		runuser -u nobody -- "$pgbin/pg_ctl" -D "$pgdir/data" -m immediate -w stop >/dev/null 2>&1
		rm -rf "$pgdir"
	fi
	for cert in "${added_certs[@]}"; do rm -f "$cert"; done
	rm -rf "$work"
}
trap cleanup EXIT

# crun fails on this kernel's hybrid cgroups and the default ulimits cannot be set here
# (notes: library-probes); runc with no default ulimits works everywhere we run.
printf '[containers]\ndefault_ulimits = []\n' >"$work/containers.conf"
export CONTAINERS_CONF=$work/containers.conf
podman() { command podman --runtime /usr/sbin/runc "$@"; }

# The build goes through whatever TLS-intercepting proxy this machine trusts.
for cert in /usr/local/share/ca-certificates/*.crt; do
	[ -f "$cert" ] || continue
	dest=deploy/image/certs/smoke-$(basename "$cert")
	cp "$cert" "$dest"
	added_certs+=("$repo/$dest")
done

started=$(date +%s)
cache=${ALBERT_CODE_IMAGE_CACHE:-/var/tmp/albert-code-image}
base=localhost/albert-code-smoke-base:bookworm
if ! podman image exists "$base"; then
	mkdir -p "$cache"
	if [ ! -s "$cache/bookworm-minbase.tar" ]; then
		mmdebstrap --quiet --variant=minbase bookworm "$cache/bookworm-minbase.tar.part" ||
			fail "mmdebstrap of Debian bookworm failed"
		mv "$cache/bookworm-minbase.tar.part" "$cache/bookworm-minbase.tar"
	fi
	podman import --quiet --change 'CMD ["bash"]' "$cache/bookworm-minbase.tar" "$base" >/dev/null ||
		fail "podman import of $cache/bookworm-minbase.tar failed"
fi
echo "image smoke: base ready ($(($(date +%s) - started)) s)"

# ALBERT_CODE_IMAGE_PREBUILT=1 (.ci/run): the image takes the binary built here on the
# host (this Debian bookworm, its Go cache warm from the tests) instead of compiling it
# inside, which takes 12 min on a fresh 2-core machine; the Containerfile says how.
if [ "${ALBERT_CODE_IMAGE_PREBUILT:-}" = 1 ]; then
	prebuilt=deploy/image/prebuilt/albert-code
	go build -o "$prebuilt" ./cmd/albert-code || fail "go build of the prebuilt binary failed"
	added_certs+=("$repo/$prebuilt") # removed on exit with the certificates
	echo "image smoke: binary built on the host ($(($(date +%s) - started)) s)"
fi

build() { # build TAG [podman build options]
	local tag=$1 log="$work/build-${1//[:\/]/-}.log"
	shift
	local t0=$SECONDS
	if ! podman build --format docker --build-arg BASE="$base" -f deploy/image/Containerfile -t "$tag" "$@" . >"$log" 2>&1; then
		tail -40 "$log" >&2
		fail "podman build of $tag failed (log above)"
	fi
	echo "image smoke: built $tag ($((SECONDS - t0)) s)"
}
build localhost/albert-code:smoke
build localhost/albert-code-pi:smoke --target pi

go build -o "$work/fakemodel" ./cmd/fakemodel || fail "go build ./cmd/fakemodel failed"

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
		echo $((20000 + RANDOM % 20000))
}

# start_fake ANSWER [TIMES]: the fake model on 127.0.0.1 answering ANSWER to TIMES
# requests (1); sets fake_url.
start_fake() {
	local turn="{\"text\": [\"$1\"], \"usage\": {\"prompt_tokens\": 10, \"completion_tokens\": 3}}" turns n
	turns=$turn
	for ((n = 1; n < ${2:-1}; n++)); do turns="$turns, $turn"; done
	echo "{\"models\": [{\"id\": \"fake-model\"}], \"turns\": [$turns]}" >"$work/script.json"
	# The last server's URL must not be read before this one's shell truncates the file.
	rm -f "$work/fake.url"
	"$work/fakemodel" -script "$work/script.json" >"$work/fake.url" 2>"$work/fake.err" &
	fake_pid=$!
	for _ in $(seq 100); do
		fake_url=$(head -n1 "$work/fake.url" 2>/dev/null || true)
		[ -n "$fake_url" ] && return 0
		sleep 0.1
	done
	fail "the fake model server did not start: $(cat "$work/fake.err")"
}

stop_fake() {
	kill "$fake_pid" 2>/dev/null || true
	wait "$fake_pid" 2>/dev/null || true
	fake_pid=
}

# Two init.d scripts: 10 puts a command in ~/.albert-code/bin, 20 runs it by name (so
# it needs the order and the PATH) and writes what it printed into the workspace.
mkdir -p "$work/init.d"
cat >"$work/init.d/10-greet.sh" <<'EOF'
mkdir -p "$ALBERT_CODE_HOME/bin"
printf '#!/bin/sh\necho "greet from $(id -u)"\n' >"$ALBERT_CODE_HOME/bin/greet"
chmod +x "$ALBERT_CODE_HOME/bin/greet"
EOF
cat >"$work/init.d/20-use-greet.sh" <<'EOF'
mkdir -p /workspace/proj
greet >/workspace/proj/init-order.txt
EOF
# pi reads its providers from ~/.pi/agent/models.json: an init.d script writes it from
# the environment, as a user's would (docs/serve-adapters.md, TestRealPi).
cat >"$work/init.d/30-pi-models.sh" <<'EOF'
[ -n "${FAKE_MODEL_URL:-}" ] || exit 0
mkdir -p "$HOME/.pi/agent"
cat >"$HOME/.pi/agent/models.json" <<JSON
{"providers": {"fake": {"baseUrl": "$FAKE_MODEL_URL", "api": "openai-completions", "apiKey": "fake",
  "compat": {"supportsDeveloperRole": false, "supportsReasoningEffort": false},
  "models": [{"id": "fake-model", "reasoning": false, "contextWindow": 131072}]}}}
JSON
EOF
chmod -R a+rX "$work/init.d"

token=smoke-token-0123456789abcdef

# check IMAGE NAME ANSWER RUN_BODY [podman run options]: the whole life of one container,
# with the fake model (start_fake ANSWER) already started.
check() {
	local image=$1 name=$2 answer=$3 body=$4
	shift 4
	local port
	port=$(free_port)
	podman rm -f -v -t 0 "$name" >/dev/null 2>&1 || true
	containers+=("$name")
	podman run -d --name "$name" --network host \
		-v "$work/init.d:/home/albert/.albert-code/init.d:ro" \
		-e ALBERT_CODE_API_MODE_PORT="$port" -e ALBERT_CODE_API_MODE_HOST=127.0.0.1 \
		-e ALBERT_CODE_API_MODE_TOKEN="$token" "$@" "$image" >/dev/null 2>"$work/podman-run.err" || {
		cat "$work/podman-run.err" >&2
		fail "$name: podman run $image failed"
	}
	local base_url=http://127.0.0.1:$port t0=$SECONDS
	until curl -fsS "$base_url/healthz" >"$work/healthz" 2>/dev/null; do
		if [ "$(podman inspect -f '{{.State.Running}}' "$name")" != true ]; then
			podman logs "$name" >&2
			fail "$name: the container stopped before answering /healthz"
		fi
		((SECONDS - t0 < 60)) || {
			podman logs "$name" >&2
			fail "$name: no /healthz answer within 60 s"
		}
		sleep 0.2
	done
	grep -q '"ok":true' "$work/healthz" || fail "$name: /healthz answered $(cat "$work/healthz")"
	podman healthcheck run "$name" >/dev/null || fail "$name: the image's HEALTHCHECK failed"

	[ "$(podman exec "$name" id -u)" = 1000 ] || fail "$name: serve does not run as uid 1000"
	[ "$(podman exec "$name" cat /workspace/proj/init-order.txt)" = "greet from 1000" ] ||
		fail "$name: the init.d scripts did not run in order with ~/.albert-code/bin on the PATH"
	podman exec "$name" sh -c 'for p in /proc/[0-9]*; do [ "$(cat $p/comm 2>/dev/null)" = albert-code ] && tr "\0" "\n" <$p/environ; done' |
		grep -q '^PATH=/home/albert/.albert-code/bin:' || fail "$name: serve's PATH does not start with ~/.albert-code/bin"

	local code
	code=$(curl -sS -o "$work/run.json" -w '%{http_code}' -H "Authorization: Bearer $token" \
		-H 'Content-Type: application/json' -d "$body" "$base_url/run") || fail "$name: POST /run failed"
	[ "$code" = 200 ] && grep -q "\"text\":\"$answer\"" "$work/run.json" || {
		podman logs "$name" >&2
		fail "$name: POST /run answered $code $(cat "$work/run.json"), want 200 with the text \"$answer\""
	}

	t0=$SECONDS
	podman stop -t 30 "$name" >/dev/null 2>&1 || fail "$name: podman stop failed"
	local exit_code
	exit_code=$(podman inspect -f '{{.State.ExitCode}}' "$name")
	if [ "$exit_code" != 0 ] || ((SECONDS - t0 >= 30)); then
		podman logs "$name" >&2
		fail "$name: after SIGTERM the container exited $exit_code in $((SECONDS - t0)) s, want 0 before the 30 s SIGKILL"
	fi
	podman logs "$name" 2>&1 | grep -q stopped || fail "$name: serve did not log its stop"
	stop_fake
	# (podman without systemd complains it cannot remove a health-check timer: noise)
	podman rm -v "$name" >/dev/null 2>&1
	echo "image smoke: $image ok (start, init.d, /healthz, /run, SIGTERM in $((SECONDS - t0)) s)"
}

# The native adapter, on the fake model through ALBERT_CODE_BASE_URL.
start_fake "Hello from the image."
check localhost/albert-code:smoke albert-code-smoke "Hello from the image." \
	'{"prompt":"say hello","workspace":"proj"}' \
	-e ALBERT_API_KEY=fake -e ALBERT_CODE_BASE_URL="$fake_url"

# The real pi in the pi image, on the fake model registered by the init.d script.
start_fake "Hello from pi."
check localhost/albert-code-pi:smoke albert-code-pi-smoke "Hello from pi." \
	'{"prompt":"say hello","workspace":"proj","model":"fake-model","extraArgs":["--provider","fake"]}' \
	-e FAKE_MODEL_URL="$fake_url" -e ALBERT_CODE_AVAILABLE_MODELS=fake-model

# Three replicas of the minimal image on one PostgreSQL (Debian's, on 127.0.0.1, as the
# compose file runs it) and one shared workspace volume: a file written through one
# replica is read through another, an async run posted to the first is read finished from
# the second, a sync run answers on the third; then every replica exits 0 on SIGTERM.
replicas() {
	pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
	[ -x "$pgbin/pg_ctl" ] || fail "no PostgreSQL server programs in /usr/lib/postgresql (apt-get install postgresql)"
	pgdir=$(mktemp -d)
	chown nobody "$pgdir"
	local pgport
	pgport=$(free_port)
	runuser -u nobody -- "$pgbin/initdb" -D "$pgdir/data" -U albert --auth=trust -E UTF8 --locale=C --no-sync >/dev/null ||
		fail "initdb failed"
	runuser -u nobody -- "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/log" -w -t 60 \
		-o "-p $pgport -k $pgdir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null ||
		fail "PostgreSQL did not start: $(cat "$pgdir/log")"
	local url="postgres://albert@127.0.0.1:$pgport/postgres?sslmode=disable"
	start_fake "Hello from a replica." 2
	podman volume rm -f albert-code-smoke-workspaces >/dev/null 2>&1 || true
	podman volume create albert-code-smoke-workspaces >/dev/null
	local ports=() i
	for i in 1 2 3; do
		ports+=("$(free_port)")
		containers+=("albert-code-replica-$i")
		podman rm -f -v -t 0 "albert-code-replica-$i" >/dev/null 2>&1 || true
		podman run -d --name "albert-code-replica-$i" --network host \
			-v albert-code-smoke-workspaces:/workspace \
			-e ALBERT_CODE_API_MODE_PORT="${ports[$((i - 1))]}" -e ALBERT_CODE_API_MODE_HOST=127.0.0.1 \
			-e ALBERT_CODE_API_MODE_TOKEN="$token" -e ALBERT_CODE_DATABASE_URL="$url" \
			-e ALBERT_API_KEY=fake -e ALBERT_CODE_BASE_URL="$fake_url" \
			localhost/albert-code:smoke >/dev/null 2>"$work/podman-run.err" || {
			cat "$work/podman-run.err" >&2
			fail "replica $i: podman run failed"
		}
	done
	local t0=$SECONDS
	for i in 0 1 2; do
		until curl -fsS "http://127.0.0.1:${ports[$i]}/healthz" >/dev/null 2>&1; do
			if ((SECONDS - t0 > 90)) || [ "$(podman inspect -f '{{.State.Running}}' "albert-code-replica-$((i + 1))")" != true ]; then
				podman logs "albert-code-replica-$((i + 1))" >&2
				fail "replica $((i + 1)) did not answer /healthz within 90 s"
			fi
			sleep 0.3
		done
	done
	local auth=(-H "Authorization: Bearer $token")
	curl -fsS "${auth[@]}" -X PUT --data-binary shared "http://127.0.0.1:${ports[0]}/files/proj/shared.txt" >/dev/null ||
		fail "PUT /files on replica 1 failed"
	[ "$(curl -fsS "${auth[@]}" "http://127.0.0.1:${ports[1]}/files/proj/shared.txt")" = shared ] ||
		fail "replica 2 does not see the file written through replica 1: the workspace volume is not shared"
	local run_id
	run_id=$(curl -fsS "${auth[@]}" -d '{"prompt":"say hello","workspace":"proj","async":true}' "http://127.0.0.1:${ports[0]}/run" |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["runId"])') || fail "async POST /run on replica 1 failed"
	t0=$SECONDS
	until curl -fsS "${auth[@]}" "http://127.0.0.1:${ports[1]}/run/result?runId=$run_id" >"$work/result.json" 2>/dev/null &&
		grep -q '"status":"completed"' "$work/result.json"; do
		((SECONDS - t0 < 60)) || fail "replica 2 never read run $run_id as completed: $(cat "$work/result.json" 2>/dev/null)"
		sleep 0.3
	done
	grep -q '"text":"Hello from a replica."' "$work/result.json" ||
		fail "replica 2 read run $run_id without its answer: $(cat "$work/result.json")"
	curl -fsS "${auth[@]}" -d '{"prompt":"say hello","workspace":"proj"}' "http://127.0.0.1:${ports[2]}/run" |
		grep -q '"text":"Hello from a replica."' || fail "a sync /run on replica 3 failed"
	for i in 1 2 3; do
		podman stop -t 30 "albert-code-replica-$i" >/dev/null 2>&1
		[ "$(podman inspect -f '{{.State.ExitCode}}' "albert-code-replica-$i")" = 0 ] || {
			podman logs "albert-code-replica-$i" >&2
			fail "replica $i did not exit 0 after SIGTERM"
		}
		podman rm -v "albert-code-replica-$i" >/dev/null 2>&1
	done
	stop_fake
	podman volume rm -f albert-code-smoke-workspaces >/dev/null 2>&1 || true
	runuser -u nobody -- "$pgbin/pg_ctl" -D "$pgdir/data" -m fast -w stop >/dev/null || true
	rm -rf "$pgdir"
	pgdir=
	echo "image smoke: three replicas on PostgreSQL ok (a shared volume, a run posted to one read from another, SIGTERM)"
}
replicas

bash deploy/kubernetes/smoke.sh localhost/albert-code:smoke || fail "the Kubernetes manifest did not run (above)"

echo "image smoke: done in $(($(date +%s) - started)) s"
