#!/usr/bin/env bash
# Builds the npm package of crates/wasm into OUT (default:
# target/wasm-pkg): the crate for wasm32-unknown-unknown in release, the
# JavaScript bindings and TypeScript types by wasm-bindgen (the CLI at the
# version of the wasm-bindgen crate in Cargo.lock), then the package's own
# JavaScript, package.json, README and licences.
#
#   scripts/wasm/build.sh [OUT]
#
# Needs: rustup target add wasm32-unknown-unknown;
#        cargo install wasm-bindgen-cli --version <the lock's version>.
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${CARGO_TARGET_DIR:-target}
out=${1:-$target/wasm-pkg}

want=$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"/\1/p}' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
    echo "wasm-bindgen CLI ${have:-missing}, the crate is $want: cargo install wasm-bindgen-cli --version $want" >&2
    exit 1
fi

cargo build -q -p fianchetto-wasm --release --target wasm32-unknown-unknown
rm -rf "$out"
wasm-bindgen --target web --out-dir "$out" "$target/wasm32-unknown-unknown/release/fianchetto_wasm.wasm"
cp crates/wasm/js/*.js crates/wasm/js/*.d.ts crates/wasm/README.md crates/wasm/LICENSE-MIT crates/wasm/LICENSE-APACHE "$out/"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
sed "s/\"VERSION\"/\"$version\"/" crates/wasm/js/package.json >"$out/package.json"
echo "$out: $(wc -c <"$out/fianchetto_wasm_bg.wasm") bytes of wasm, $(gzip -9c "$out/fianchetto_wasm_bg.wasm" | wc -c) gzipped"
