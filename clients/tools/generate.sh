#!/usr/bin/env bash
# Generates both clients from docs/openapi.json into OUT (make clients: OUT=clients;
# make clients-check: a temporary directory, then compared with clients/):
#   OUT/python/                  openapi-python-client (config clients/openapi-python-client.yaml)
#   OUT/typescript/schema.d.ts   openapi-typescript
# The generators are the pinned ones make installs: openapi-python-client and ruff in
# the venv (VENV), openapi-typescript in clients/typescript/node_modules.
# Usage: clients/tools/generate.sh OUT   (from the repository root)
set -euo pipefail
out=${1:?usage: clients/tools/generate.sh OUT}
venv=${VENV:-.venv}
doc=docs/openapi.json
ts_flags=(${OPENAPI_TS_FLAGS:---default-non-nullable false})
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out/typescript"
out=$(cd "$out" && pwd)

# Python. openapi-python-client drops any schema holding a `$ref` into another
# component (EventBatchResults refers to EventAccepted/properties/deliveries), so it
# reads a copy of the document with such references inlined.
"$venv/bin/python" clients/tools/inline_deep_refs.py "$doc" "$work/openapi.json"
# Its post hooks run ruff (pinned beside it) in the output directory.
(cd "$work" && PATH="$root/$venv/bin:$PATH" "$root/$venv/bin/openapi-python-client" generate \
  --path "$work/openapi.json" --config "$root/clients/openapi-python-client.yaml" \
  --meta uv --output-path "$work/python" --overwrite --fail-on-warning) >"$work/python.log" 2>&1 \
  || { cat "$work/python.log" >&2; exit 1; }
rm -rf "$out/python"
cp -R "$work/python" "$out/python"

# TypeScript: the types only; the wrapper (index.js, index.d.ts) is written by hand.
clients/typescript/node_modules/.bin/openapi-typescript "$doc" "${ts_flags[@]}" \
  --output "$work/schema.d.ts" >"$work/typescript.log" 2>&1 \
  || { cat "$work/typescript.log" >&2; exit 1; }
cp "$work/schema.d.ts" "$out/typescript/schema.d.ts"
