#!/usr/bin/env bash
# CI: after the build, `npm prune --omit=dev` must leave everything `npm start` needs.
#
# Runs in a copy of the built tree, so the checkout keeps its dev dependencies for whatever runs
# after it. The copy's node_modules is hard-linked where the file system allows it (prune only
# unlinks there); npm's own record of the tree (node_modules/.package-lock.json), which prune
# rewrites, is a real copy so that the checkout's stays as it was.
#
# Then `npm start` in the copy, on its own port and an empty data directory (embedded PGlite,
# sandbox providers: the default configuration), must answer GET /ready 200, and the routes that
# load packages on first use (the API reference at /docs), read files shipped beside the bundle
# (the legal pages' templates in legal/) or serve the web app must answer too.
#
# Usage: scripts/check-production-install.sh [port]   (default 3612)
set -euo pipefail
cd "$(dirname "$0")/.."

port="${1:-3612}"
work="$(mktemp -d "${TMPDIR:-/tmp}/esim-prod-check.XXXXXX")"
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM -- "-$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

[ -f dist/bundle/main.mjs ] || { echo "dist/bundle/main.mjs is missing: run npm run build first" >&2; exit 1; }

app="$work/app"
mkdir -p "$app"
rsync -a --exclude /.git --exclude /node_modules --exclude /data --exclude /sdk/node_modules ./ "$app/"
cp -al node_modules "$app/node_modules" 2>/dev/null || { rm -rf "$app/node_modules"; cp -a node_modules "$app/node_modules"; }
if [ -f node_modules/.package-lock.json ]; then
  cp --remove-destination node_modules/.package-lock.json "$app/node_modules/.package-lock.json"
fi

(cd "$app" && npm prune --omit=dev --ignore-scripts --offline --no-audit --no-fund)
for dev_only in tsx vite react typescript vitest; do
  if [ -e "$app/node_modules/$dev_only" ]; then
    echo "npm prune --omit=dev left $dev_only installed: is it listed in dependencies?" >&2
    exit 1
  fi
done

log="$work/start.log"
# Its own process group (setsid), so that the cleanup stops npm and the service together.
PORT="$port" HOST=127.0.0.1 DATA_DIR="$work/data" setsid bash -c 'cd "$1" && exec npm start' _ "$app" >"$log" 2>&1 &
pid=$!

ready=""
for _ in $(seq 1 240); do
  if curl -fs -o /dev/null "http://127.0.0.1:$port/ready"; then ready=1; break; fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.5
done
if [ -z "$ready" ]; then
  echo "npm start after npm prune --omit=dev did not become ready; its output:" >&2
  cat "$log" >&2
  exit 1
fi

check() {
  local path="$1" status
  status="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port$path")"
  if [ "$status" != "200" ]; then
    echo "GET $path answered $status after npm prune --omit=dev; the service's output:" >&2
    cat "$log" >&2
    exit 1
  fi
}
check /ready
check /api/v1/destinations
# The legal pages read their Markdown templates from legal/ at run time (and render with marked).
check /api/v1/legal/terms
check /docs/
check /api/public/v1/openapi.json
[ -f "$app/web/dist/index.html" ] && check /

echo "npm prune --omit=dev: npm start answers /ready, the catalog, a legal page, /docs and the web app"
