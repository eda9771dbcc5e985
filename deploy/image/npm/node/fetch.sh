#!/bin/sh
# fetch.sh NAME DEST: unpacks the npm package NAME, at the version and with the
# integrity this folder's package-lock.json records, into DEST, fetched from
# $NPM_REGISTRY with curl. It brings Node and npm into an image without Debian's
# npm (365 packages) or any Node already there.
set -eu
name=$1 dest=$2
lock=$(dirname "$0")/package-lock.json
registry=${NPM_REGISTRY:-https://registry.npmjs.org}

field() { # field KEY: the KEY of "node_modules/NAME" in the lock
	awk -v entry="\"node_modules/$name\": {" -v key="\"$1\":" '
		index($0, entry) { inside = 1; next }
		inside && /^    }/ { exit }
		inside && $1 == key { gsub(/[",]/, "", $2); print $2; exit }' "$lock"
}
version=$(field version)
integrity=$(field integrity)
case $integrity in
sha512-*) ;;
*)
	echo "fetch.sh: $lock has no sha512 integrity for $name: run npm install --package-lock-only in $(dirname "$lock")" >&2
	exit 1
	;;
esac
sum=$(printf %s "${integrity#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')

tarball=$(mktemp)
curl -fsSLo "$tarball" "$registry/$name/-/$name-$version.tgz"
echo "$sum  $tarball" | sha512sum -c - >/dev/null || {
	echo "fetch.sh: $registry/$name/-/$name-$version.tgz does not match the integrity in $lock" >&2
	exit 1
}
mkdir -p "$dest"
tar -xzf "$tarball" -C "$dest" --strip-components=1 --no-same-owner
rm -f "$tarball"
echo "fetch.sh: $name $version"
