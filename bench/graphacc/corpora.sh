#!/usr/bin/env bash
# Fetches and unpacks the TypeScript and Python corpora of the code-graph accuracy
# benchmark into DEST (bench time only: no test fetches anything).
#
#   bench/graphacc/corpora.sh DEST
#
# DEST/ts/<name>        TypeScript sources shipped in npm packages (npm pack)
# DEST/py/<name>        a Python package from Debian (apt-get download + dpkg-deb -x)
# DEST/py-deps/<name>   the Debian packages it imports, for gt-py --extra-path
#
# Versions are exact, so two runs analyse the same bytes. apt-get download needs
# package lists: run `apt-get update` once if it says a version is not found.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 DEST" >&2
	exit 2
fi
mkdir -p "$1"
dest=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# npm_src NAME SPEC SUBDIR [EXCLUDE_DIR_NAME]: the package's SUBDIR (and its root
# tsconfig.json, when the package ships one) as DEST/ts/NAME.
npm_src() {
	local name=$1 spec=$2 sub=$3 exclude=${4:-}
	local out="$dest/ts/$name"
	rm -rf "$out" "$work/pkg" && mkdir -p "$out" "$work/pkg"
	(cd "$work/pkg" && npm pack "$spec" --silent >/dev/null)
	tar -xzf "$work"/pkg/*.tgz -C "$work/pkg"
	cp -R "$work/pkg/package/$sub" "$out/"
	[ -f "$work/pkg/package/tsconfig.json" ] && cp "$work/pkg/package/tsconfig.json" "$out/"
	if [ -n "$exclude" ]; then
		find "$out" -type d -name "$exclude" -prune -exec rm -rf {} +
	fi
	echo "ts/$name: $(find "$out" -name '*.ts' ! -name '*.d.ts' | wc -l) files, $(find "$out" -name '*.ts' ! -name '*.d.ts' -print0 | xargs -0 cat | wc -l) lines"
}

# deb_unpack PKG=VERSION DIR: the package's dist-packages directory, unpacked.
deb_unpack() {
	local spec=$1 into=$2
	rm -rf "$work/deb" && mkdir -p "$work/deb/x"
	# apt-get download drops to the _apt user, who must reach the directory.
	chmod 755 "$work" && chmod 777 "$work/deb"
	(cd "$work/deb" && apt-get download -qq "$spec")
	dpkg-deb -x "$work"/deb/*.deb "$work/deb/x"
	mkdir -p "$into"
	# Only the importable packages: .egg-info/.dist-info metadata is no source.
	find "$work/deb/x/usr/lib/python3/dist-packages" -mindepth 1 -maxdepth 1 -type d \
		! -name '*-info' ! -name '__pycache__' -exec cp -R {} "$into/" \;
}

# deb_corpus NAME PKG=VERSION [DEP=VERSION...]
deb_corpus() {
	local name=$1 spec=$2
	shift 2
	rm -rf "$dest/py/$name" "$dest/py-deps/$name"
	deb_unpack "$spec" "$dest/py/$name"
	for dep in "$@"; do
		deb_unpack "$dep" "$dest/py-deps/$name"
	done
	echo "py/$name: $(find "$dest/py/$name" -name '*.py' | wc -l) files, $(find "$dest/py/$name" -name '*.py' -print0 | xargs -0 cat | wc -l) lines; deps: ${*:-none}"
}

# TypeScript: dependency-free packages that ship their sources. zod's tests import
# vitest and are left out; the rest of src/v4 imports nothing outside it.
npm_src rxjs-7.8.2 rxjs@7.8.2 src
npm_src query-core-5.108.0 @tanstack/query-core@5.108.0 src
npm_src zod-4.6.7 zod@4.6.7 src/v4 tests
# Added for issue 17 (corpora the engine was not tuned on): mobx has the interface
# call signatures with type parameters one per line that tree-sitter-typescript
# 0.23.2 did not parse; immer is generic-heavy (Draft<T>, produce overloads).
npm_src mobx-7.1.3 mobx@7.1.3 src __tests__
npm_src immer-11.2.13 immer@11.2.13 src

# Python: Debian bookworm's packages (python 3.11). rich is the one built on ABCs and
# Protocols, which the implementation questions need.
deb_corpus click-8.1.3 python3-click=8.1.3-2
deb_corpus jinja2-3.1.2 python3-jinja2=3.1.2-1+deb12u3 python3-markupsafe=2.1.2-1+b1
deb_corpus requests-2.28.1 python3-requests=2.28.1+dfsg-1 \
	python3-urllib3=1.26.12-1+deb12u4 python3-idna=3.3-1+deb12u1 \
	python3-charset-normalizer=3.0.1-2 python3-certifi=2022.9.24-1 python3-chardet=5.1.0+dfsg-2
deb_corpus rich-13.3.1 python3-rich=13.3.1-1 \
	python3-pygments=2.14.0+dfsg-1 python3-markdown-it=2.1.0-5 python3-mdurl=0.1.2-1
# Added for issue 17: oauthlib calls .get/.update/.items on plain dicts and reaches
# submodules through `from . import x` in __init__.py; markdown is built on
# registries of processors and nested helpers.
deb_corpus oauthlib-3.2.2 python3-oauthlib=3.2.2-1 python3-jwt=2.6.0-1+deb12u1 \
	python3-blinker=1.5-1
deb_corpus markdown-3.4.1 python3-markdown=3.4.1-2+deb12u1
