#!/usr/bin/env bash
# Runs deploy/kubernetes/albert-code.yaml with `podman kube play` and a local image, until
# the pod's /healthz answers through its own network address; then takes it down.
#
#   bash deploy/kubernetes/smoke.sh IMAGE     (deploy/image/smoke.sh calls it)
#
# What podman cannot do here is replaced in a copy of the manifest, and only that:
# one replica instead of three (a pod per replica would clash on names), the image, and
# the Secret's keys as plain values (podman 4.3's kube play cannot read a secretKeyRef:
# containers/podman#17071). An empty database URL is unset for serve, so the pod runs on
# its embedded store. Everything else (volumes from the PVCs, ports, user, probes, the
# image's entrypoint and HEALTHCHECK) runs as written.
set -euo pipefail
cd "$(dirname "$0")/../.."
image=${1:?usage: deploy/kubernetes/smoke.sh IMAGE}

fail() {
	echo "kube smoke: $*" >&2
	exit 1
}

work=$(mktemp -d)
if [ -z "${CONTAINERS_CONF:-}" ]; then
	printf '[containers]\ndefault_ulimits = []\n' >"$work/containers.conf"
	export CONTAINERS_CONF=$work/containers.conf
fi
podman() { command podman --runtime /usr/sbin/runc "$@"; }

python3 - deploy/kubernetes/albert-code.yaml "$image" >"$work/albert-code.yaml" <<'EOF' || fail "cannot read deploy/kubernetes/albert-code.yaml"
import sys, yaml

docs = list(yaml.safe_load_all(open(sys.argv[1])))
kinds = sorted(d["kind"] for d in docs)
if kinds != ["Deployment", "PersistentVolumeClaim", "PersistentVolumeClaim", "Service"]:
    sys.exit(f"unexpected objects: {kinds}")
values = {"database-url": "", "api-token": "kube-token-0123456789abcdef", "albert-api-key": "fake"}
for d in docs:
    if d["kind"] != "Deployment":
        continue
    d["spec"]["replicas"] = 1
    for c in d["spec"]["template"]["spec"]["containers"]:
        c["image"] = sys.argv[2]
        for e in c["env"]:
            ref = e.pop("valueFrom", None)
            if ref:
                e["value"] = values[ref["secretKeyRef"]["key"]]
yaml.safe_dump_all(docs, sys.stdout, sort_keys=False)
EOF

pod=albert-code-pod-0
container=$pod-albert-code
cleanup() {
	podman kube down "$work/albert-code.yaml" >/dev/null 2>&1 || true
	podman volume rm -f albert-code-workspaces albert-code-home >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
cleanup_before() { # a run killed halfway leaves its pod and volumes behind
	podman pod rm -f "$pod" >/dev/null 2>&1 || true
	podman volume rm -f albert-code-workspaces albert-code-home >/dev/null 2>&1 || true
}
cleanup_before

# The playground's context is the empty work folder: kube play looks for a folder named
# after the image to build it from, which must not be found.
(cd "$work" && podman kube play albert-code.yaml >"$work/play.log" 2>&1) || {
	cat "$work/play.log" >&2
	fail "podman kube play failed"
}
t0=$SECONDS
until ip=$(podman inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$container" 2>/dev/null) &&
	[ -n "$ip" ] && curl -fsS -m 5 "http://$ip:8080/healthz" >"$work/healthz" 2>/dev/null; do
	if [ "$(podman inspect -f '{{.State.Running}}' "$container" 2>/dev/null)" != true ] || ((SECONDS - t0 > 60)); then
		podman logs "$container" >&2 || true
		fail "the pod's /healthz did not answer within 60 s"
	fi
	sleep 0.5
done
grep -q '"ok":true' "$work/healthz" || fail "/healthz answered $(cat "$work/healthz")"
[ "$(podman exec "$container" id -u)" = 1000 ] || fail "the pod does not run as uid 1000"
podman exec "$container" touch /workspace/.kube-smoke /home/albert/.kube-smoke ||
	fail "the volumes of the PVCs are not writable by uid 1000"
echo "kube smoke: $image ok (kube play, /healthz at $ip:8080 in $((SECONDS - t0)) s)"
