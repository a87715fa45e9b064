#!/usr/bin/env bash
# Writes the web app of `fianchetto gui` into DIR as static files: the
# same Play, Analyse and Learn pages (crates/gui/web), with the app's
# requests answered by the app itself in a Web Worker instead of a server
# (the package's gui-page.js, loaded before the page's script), and the
# package beside them in DIR/pkg, built by scripts/wasm/build.sh. Any
# static host serves it, e.g.
#
#   scripts/wasm/export.sh site && python3 -m http.server -d site 8000
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: scripts/wasm/export.sh DIR" >&2
    exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
web="$here/../../crates/gui/web"
out=$1
mkdir -p "$out"
"$here/build.sh" "$out/pkg"
cp "$web/app.js" "$web/style.css" "$out/"
# The page's one change: the worker's transport before the app's script.
tag='<script src="app.js" defer></script>'
grep -qF "$tag" "$web/index.html" || { echo "$web/index.html has no $tag" >&2; exit 1; }
sed "s|$tag|<script src=\"pkg/gui-page.js\" defer></script>\n$tag|" "$web/index.html" >"$out/index.html"
echo "$out: open index.html through a web server (python3 -m http.server -d $out)"
