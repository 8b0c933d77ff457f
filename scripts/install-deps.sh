#!/usr/bin/env bash
# Installs what `make` needs on a fresh Debian machine, and nothing when it is all there already.
# Usage: install-deps.sh [native|wasm|browser|all]   (each level includes the ones before it)
#        install-deps.sh sanitize   native plus clang, its sanitizer and libFuzzer runtimes and
#                                   llvm-symbolizer (make test-sanitize, make fuzz)
set -euo pipefail
level=${1:-all}

need=()
want() { dpkg -s "$1" >/dev/null 2>&1 || need+=("$1"); }
want cmake; want g++; want make; want nlohmann-json3-dev; want catch2
want python3  # tests/core/hostile_cli_test.sh writes its inputs with it
command -v node >/dev/null 2>&1 || { want nodejs; want npm; }
if [ "$level" = sanitize ]; then want clang; want libclang-rt-14-dev; want llvm; fi
if [ "$level" != native ] && [ "$level" != sanitize ]; then want emscripten; fi
if [ "$level" = browser ] || [ "$level" = all ]; then want chromium; fi

if [ ${#need[@]} -gt 0 ]; then
  echo "install-deps: installing ${need[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  # chromium without recommends: the browser tests need only the binary.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# npm packages (playwright-core, markdown-it, axe-core...) from the committed lockfile.
if [ "$level" != native ] && [ "$level" != sanitize ] && [ -f package-lock.json ]; then
  # Installed for this lockfile's content, not its mtime: a fresh checkout or a git worktree
  # sharing node_modules has a newer lockfile with the same packages, and npm ci would empty it.
  lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
  if [ "$(cat node_modules/.lock-sha256 2>/dev/null)" != "$lock_hash" ]; then
    npm ci --no-audit --no-fund --loglevel=error
    echo "$lock_hash" > node_modules/.lock-sha256
  fi
fi
