#!/usr/bin/env bash
# Deliberately rewrites tests/golden/<case>.json from tests/golden/cases.tsv with the native CLI.
# Run by `make goldens` only; review the diff before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=build/native/pipesim
while IFS=$'\t' read -r name config; do
  result=$(printf '%s' "$config" | "$cli" simulate --input - --format json)
  printf '{"config":%s,\n"result":%s}\n' "$config" "$result" > "tests/golden/$name.json"
  echo "wrote tests/golden/$name.json"
done < tests/golden/cases.tsv
