#!/usr/bin/env bash
# Builds the npm package of crates/wasm into OUT (default:
# target/wasm-pkg): the crate for wasm32-unknown-unknown in release twice,
# scalar and with WebAssembly SIMD (simd128; in a target folder of its own,
# target/wasm-simd, so that the two flag sets do not rebuild each other),
# the JavaScript bindings and TypeScript types by wasm-bindgen (the CLI at
# the version of the wasm-bindgen crate in Cargo.lock; the bindings of the
# two builds must be the same file, which is checked), then the package's
# own JavaScript, package.json, README and licences.
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

wasm=wasm32-unknown-unknown/release/fianchetto_wasm.wasm
cargo build -q -p fianchetto-wasm --release --target wasm32-unknown-unknown
RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128" CARGO_TARGET_DIR="$target/wasm-simd" \
    cargo build -q -p fianchetto-wasm --release --target wasm32-unknown-unknown
rm -rf "$out"
wasm-bindgen --target web --out-dir "$out" "$target/$wasm"
simd=$(mktemp -d)
trap 'rm -rf "$simd"' EXIT
wasm-bindgen --target web --out-dir "$simd" "$target/wasm-simd/$wasm"
if ! cmp -s "$out/fianchetto_wasm.js" "$simd/fianchetto_wasm.js"; then
    echo "the scalar and SIMD builds have different bindings" >&2
    exit 1
fi
cp "$simd/fianchetto_wasm_bg.wasm" "$out/fianchetto_wasm_simd_bg.wasm"
cp crates/wasm/js/*.js crates/wasm/js/*.d.ts crates/wasm/README.md crates/wasm/LICENSE-MIT crates/wasm/LICENSE-APACHE "$out/"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
sed "s/\"VERSION\"/\"$version\"/" crates/wasm/js/package.json >"$out/package.json"
for f in fianchetto_wasm_bg.wasm fianchetto_wasm_simd_bg.wasm; do
    echo "$out/$f: $(wc -c <"$out/$f") bytes, $(gzip -9c "$out/$f" | wc -c) gzipped"
done
