package infra

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// facts renders what an extractor read, one line a fact, sorted.
func render(t *testing.T, ff graph.FileFacts) []string {
	t.Helper()
	var out []string
	for _, n := range ff.Nodes {
		if n.File != ff.Path {
			t.Errorf("node %s in file %q, want %q", n.QName, n.File, ff.Path)
		}
		out = append(out, fmt.Sprintf("node %s %s %q %d-%d", n.Kind, n.QName, n.Name, n.Line, n.EndLine))
	}
	for _, e := range ff.Edges {
		if e.File != ff.Path {
			t.Errorf("edge %s -> %s in file %q", e.From, e.To, e.File)
		}
		out = append(out, fmt.Sprintf("edge %s %s -> %s @%d", e.Kind, e.From, e.To, e.Line))
	}
	for _, u := range ff.Unresolved {
		out = append(out, fmt.Sprintf("unresolved %s %s -> %s @%d (%s)", u.Kind, u.From, u.Name, u.Line, u.Reason))
	}
	slices.Sort(out)
	return out
}

func expect(t *testing.T, ff graph.FileFacts, want []string) {
	t.Helper()
	got := render(t, ff)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestDockerfileStagesAndBases(t *testing.T) {
	t.Parallel()
	src := `# syntax=docker/dockerfile:1
ARG BASE=alpine:3.20
FROM --platform=$BUILDPLATFORM golang:1.22 AS build
WORKDIR /src
RUN --mount=type=cache,target=/root/.cache \
    go build -o /out/app ./cmd/app

FROM build AS test
RUN go test ./...

FROM node:20
COPY --from=build /out/app /app

FROM ${BASE}
COPY --from=build /out/app /usr/bin/app
COPY --from=nginx:1.25 /etc/nginx /etc/nginx
COPY --from=2 /x /x
FROM scratch
`
	ff, err := Dockerfile(context.Background(), "deploy/Dockerfile", "dockerfile", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	expect(t, ff, []string{
		`node file deploy/Dockerfile "Dockerfile" 1-19`,
		`node stage deploy/Dockerfile::build "build" 3-6`,
		`node stage deploy/Dockerfile::test "test" 8-9`,
		`node stage deploy/Dockerfile::2 "2" 11-12`,
		`node stage deploy/Dockerfile::3 "3" 14-17`,
		`node stage deploy/Dockerfile::4 "4" 18-18`,
		`edge contains deploy/Dockerfile -> deploy/Dockerfile::build @3`,
		`edge contains deploy/Dockerfile -> deploy/Dockerfile::test @8`,
		`edge contains deploy/Dockerfile -> deploy/Dockerfile::2 @11`,
		`edge contains deploy/Dockerfile -> deploy/Dockerfile::3 @14`,
		`edge contains deploy/Dockerfile -> deploy/Dockerfile::4 @18`,
		`edge extends deploy/Dockerfile::build -> image:golang:1.22 @3`,
		`edge extends deploy/Dockerfile::test -> deploy/Dockerfile::build @8`,
		`edge extends deploy/Dockerfile::2 -> image:node:20 @11`,
		`edge references deploy/Dockerfile::2 -> deploy/Dockerfile::build @12`,
		`edge references deploy/Dockerfile::3 -> deploy/Dockerfile::build @15`,
		`edge references deploy/Dockerfile::3 -> image:nginx:1.25 @16`,
		`edge references deploy/Dockerfile::3 -> deploy/Dockerfile::2 @17`,
		`unresolved extends deploy/Dockerfile::3 -> ${BASE} @14 (a build argument: the base is known at build time)`,
	})
}

func TestComposeServices(t *testing.T) {
	t.Parallel()
	src := `services:
  web:
    build: ./web
    depends_on:
      - db
      - cache
    env_file: [.env, ../outside.env]
  worker:
    build:
      context: ./worker
      dockerfile: Dockerfile.dev
    depends_on:
      db:
        condition: service_healthy
    extends:
      service: web
  db:
    image: postgres:16
volumes:
  data: {}
`
	ff, err := YAML(context.Background(), "ops/compose.yaml", "yaml", []byte(src))
	if err != nil || ff.ParseError != "" {
		t.Fatal(err, ff.ParseError)
	}
	expect(t, ff, []string{
		`node file ops/compose.yaml "compose.yaml" 1-21`,
		`node service ops/compose.yaml::web "web" 2-7`,
		`node service ops/compose.yaml::worker "worker" 8-16`,
		`node service ops/compose.yaml::db "db" 17-18`,
		`edge contains ops/compose.yaml -> ops/compose.yaml::web @2`,
		`edge contains ops/compose.yaml -> ops/compose.yaml::worker @8`,
		`edge contains ops/compose.yaml -> ops/compose.yaml::db @17`,
		`edge references ops/compose.yaml::web -> ops/web/Dockerfile @3`,
		`edge references ops/compose.yaml::web -> ops/compose.yaml::db @5`,
		`unresolved references ops/compose.yaml::web -> cache @6 (no service of that name in this file)`,
		`edge references ops/compose.yaml::web -> ops/.env @7`,
		`edge references ops/compose.yaml::web -> outside.env @7`,
		`edge references ops/compose.yaml::worker -> ops/worker/Dockerfile.dev @10`,
		`edge references ops/compose.yaml::worker -> ops/compose.yaml::db @13`,
		`edge extends ops/compose.yaml::worker -> ops/compose.yaml::web @16`,
		`edge references ops/compose.yaml::db -> image:postgres:16 @18`,
	})
}

func TestKubernetesObjectsAndWhatTheyName(t *testing.T) {
	t.Parallel()
	src := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  template:
    spec:
      serviceAccountName: web-sa
      containers:
        - name: app
          image: registry.example/web:1.2
          envFrom:
            - configMapRef:
                name: web-config
          env:
            - name: PASSWORD
              valueFrom:
                secretKeyRef:
                  name: db-secret
                  key: password
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: web-data
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  namespace: shop
spec:
  rules:
    - http:
        paths:
          - backend:
              service:
                name: web
                port: {number: 80}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
---
# not an object: no kind
foo: bar
`
	ff, err := YAML(context.Background(), "k8s/web.yaml", "yaml", []byte(src))
	if err != nil || ff.ParseError != "" {
		t.Fatal(err, ff.ParseError)
	}
	expect(t, ff, []string{
		`node file k8s/web.yaml "web.yaml" 1-49`,
		`node resource k8s:shop/Deployment/web "Deployment/web" 4-25`,
		`node resource k8s:shop/Ingress/web "Ingress/web" 30-39`,
		`node resource k8s:shop/HorizontalPodAutoscaler/web "HorizontalPodAutoscaler/web" 43-45`,
		`edge contains k8s/web.yaml -> k8s:shop/Deployment/web @4`,
		`edge contains k8s/web.yaml -> k8s:shop/Ingress/web @30`,
		`edge contains k8s/web.yaml -> k8s:shop/HorizontalPodAutoscaler/web @43`,
		`edge references k8s:shop/Deployment/web -> k8s:shop/ServiceAccount/web-sa @9`,
		`edge references k8s:shop/Deployment/web -> image:registry.example/web:1.2 @12`,
		`edge references k8s:shop/Deployment/web -> k8s:shop/ConfigMap/web-config @15`,
		`edge references k8s:shop/Deployment/web -> k8s:shop/Secret/db-secret @20`,
		`edge references k8s:shop/Deployment/web -> k8s:shop/PersistentVolumeClaim/web-data @25`,
		`edge references k8s:shop/Ingress/web -> k8s:shop/Service/web @38`,
		`edge references k8s:shop/HorizontalPodAutoscaler/web -> k8s:shop/Deployment/web @45`,
	})
}

func TestKustomization(t *testing.T) {
	t.Parallel()
	src := `namespace: shop
resources:
  - deployment.yaml
  - ../base
  - https://github.com/org/repo//deploy?ref=v1
patches:
  - path: patch-replicas.yaml
images:
  - name: web
    newName: registry.example/web
    newTag: "1.3"
configMapGenerator:
  - name: web-config
    files:
      - app.properties
      - conf=config/extra.conf
`
	ff, err := YAML(context.Background(), "deploy/overlays/prod/kustomization.yaml", "yaml", []byte(src))
	if err != nil || ff.ParseError != "" {
		t.Fatal(err, ff.ParseError)
	}
	k := "deploy/overlays/prod/kustomization.yaml"
	expect(t, ff, []string{
		`node file ` + k + ` "kustomization.yaml" 1-17`,
		`node resource k8s:shop/ConfigMap/web-config "ConfigMap/web-config" 13-16`,
		`edge contains ` + k + ` -> k8s:shop/ConfigMap/web-config @13`,
		`edge imports ` + k + ` -> deploy/overlays/prod/deployment.yaml @3`,
		`edge imports ` + k + ` -> deploy/overlays/base/kustomization.yaml @4`,
		`unresolved imports ` + k + ` -> https://github.com/org/repo//deploy?ref=v1 @5 (a remote location, outside the repository)`,
		`edge imports ` + k + ` -> deploy/overlays/prod/patch-replicas.yaml @7`,
		`edge references ` + k + ` -> image:registry.example/web:1.3 @9`,
		`edge references k8s:shop/ConfigMap/web-config -> deploy/overlays/prod/app.properties @15`,
		`edge references k8s:shop/ConfigMap/web-config -> deploy/overlays/prod/config/extra.conf @16`,
	})
}

// TestYAMLThatDoesNotParseKeepsWhatCameBefore: a Helm template's second
// document does not parse; the first is read and the error says where.
func TestYAMLThatDoesNotParseKeepsWhatCameBefore(t *testing.T) {
	t.Parallel()
	src := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Values.name }\n  x: [\n"
	ff, err := YAML(context.Background(), "chart/templates/a.yaml", "yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ff.ParseError, "line") || !strings.Contains(ff.ParseError, "a template") ||
		len(ff.Nodes) != 2 || ff.Nodes[1].QName != "k8s:ConfigMap/a" {
		t.Errorf("parse error %q, nodes %+v; want the ConfigMap and an error naming the line", ff.ParseError, ff.Nodes)
	}
}
