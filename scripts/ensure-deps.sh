#!/usr/bin/env bash
# Installs what building HiGHS (through the highs-sys crate) needs, when it is
# missing: cmake, a C++ compiler and libclang (for bindgen). Debian/Ubuntu.
set -euo pipefail

missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v c++ >/dev/null 2>&1 || missing+=(g++)
# bindgen needs libclang; trust LIBCLANG_PATH when it is set.
if [ -z "${LIBCLANG_PATH:-}" ] && command -v dpkg >/dev/null 2>&1 \
    && ! dpkg -s libclang-dev >/dev/null 2>&1; then
    missing+=(libclang-dev)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

echo "ttr-opt: installing build dependencies: ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "ttr-opt: please install ${missing[*]} (apt-get install ${missing[*]}) and retry" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
