#!/usr/bin/env bash
# Writes the static web app into DIR: the page of scripts/wasm/page (Play,
# Analyse, Learn; the engine in a Web Worker) and the package beside it in
# DIR/pkg, built by scripts/wasm/build.sh. Any static host serves it, e.g.
#
#   scripts/wasm/export.sh site && python3 -m http.server -d site 8000
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: scripts/wasm/export.sh DIR" >&2
    exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
out=$1
mkdir -p "$out"
"$here/build.sh" "$out/pkg"
cp "$here/page/index.html" "$here/page/page.js" "$out/"
echo "$out: open index.html through a web server (python3 -m http.server -d $out)"
