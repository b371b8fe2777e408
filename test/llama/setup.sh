#!/usr/bin/env bash
# Builds a REAL third-party inference server, llama.cpp's `llama-server`, and generates the GGUF test
# models it serves, idempotently, from the npm registry and Debian's packages only:
#   npm:    node-llama-cpp@$NLC_VERSION (pinned) ships the full llama.cpp source as llama/gitRelease.bundle;
#           `npm pack` fetches just that one tarball (~36 MB), none of its 700 MB of optional GPU prebuilts.
#   Debian: cmake, g++, make, git (already on the node image) and, when no numpy is importable,
#           python3-numpy.
# Output goes to a cache folder OUTSIDE the repo, $CADENZA_LLAMA_HOME (default ~/.cache/cadenza-llama):
#   bin/llama-server (+ its .so files, RPATH'd in the same folder)
#   models/chat-scripted.gguf  deterministic "bigram machine": "Hello!", tool calls, JSON (see genModels.py)
#   models/chat-thinking.gguf  the same machine thinking first: "<think>…</think>Hello!", Qwen3's template
#   models/mmproj-tiny.gguf    random vision+audio projector, so images and audio go through real decoding
#   models/embed-minilm.gguf   all-MiniLM-L6-v2-shaped BERT with the real WordPiece vocabulary
#   models/chat-qwen05b.gguf   only with `setup.sh bench`: Qwen2.5-0.5B-shaped, Q8_0, 531 MB, for bench/client/e2e
# Stamp files named after the inputs' hash (version, CMake flags, generator sources) make a warm run a
# no-op in well under a second; changing any input redoes just that part.
#
#   bash test/llama/setup.sh [bench]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
L="${CADENZA_LLAMA_HOME:-$HOME/.cache/cadenza-llama}"
# Each node-llama-cpp release bundles a different llama.cpp, and its tool-call parsing changes often:
# the tests' expectations hold for this one (llama.cpp de3ff81, "0.5.0-dev").
NLC_VERSION=3.22.1
# CPU flags that run on any x86-64 with AVX2. Never GGML_NATIVE: -march=native turned on AMX on the
# Xeon this was measured on, and llama-server then died with SIGILL on Q8_0 weights (real-server-peer.md).
# AVX-512 stays off because CI may land on a CPU without it. LLAMA_USE_PREBUILT_UI defaults to ON and
# downloads the web UI at configure time; OPENSSL is not needed on 127.0.0.1.
CMAKE_FLAGS=(-DCMAKE_BUILD_TYPE=Release
  -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=ON
  -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON
  -DGGML_AVX512=OFF -DGGML_AVX512_VBMI=OFF -DGGML_AVX512_VNNI=OFF -DGGML_AVX512_BF16=OFF
  -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF
  -DGGML_OPENMP=ON)
PRESETS=(chat-scripted chat-thinking embed-minilm)
[ "${1:-}" = bench ] && PRESETS+=(chat-qwen05b)

T0=$(date +%s)
say() { echo "[llama-setup +$(( $(date +%s) - T0 ))s] $*"; }
# A line every 15 s while a long silent step runs (the build), so a first run never looks stuck.
TICKER=""
tick_start() { ( while sleep 15; do say "… $1"; done ) & TICKER=$!; }
tick_stop() { [ -z "$TICKER" ] || { kill "$TICKER" 2>/dev/null; wait "$TICKER" 2>/dev/null || true; TICKER=""; }; }
trap tick_stop EXIT
hash_of() { printf '%s\n' "$@" | sha256sum | cut -c1-16; }
BUILD_STAMP="$L/.build-$(hash_of "$NLC_VERSION" "${CMAKE_FLAGS[@]}")"
mkdir -p "$L"

# --- 0. fast path: everything already there -------------------------------------------------------
models_stamp() { echo "$L/models/.ok-$1-$(cat "$HERE/genModels.py" "$HERE/genMmproj.py" | sha256sum | cut -c1-16)"; }
all_models_ok() { for p in "${PRESETS[@]}" mmproj-tiny; do [ -f "$(models_stamp "$p")" ] || return 1; done; }
if [ -f "$BUILD_STAMP" ] && [ -x "$L/bin/llama-server" ] && all_models_ok; then
  say "ready (warm): $L/bin/llama-server, models: ${PRESETS[*]} mmproj-tiny"
  exit 0
fi

# --- 1. toolchain from Debian, only what is missing ----------------------------------------------
PY=python3
missing=()
for tool in cmake g++ make git; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if ! "$PY" -c 'import numpy' 2>/dev/null; then
  # The machine's own python3 has no numpy: use Debian's interpreter with Debian's numpy.
  PY=/usr/bin/python3
  /usr/bin/python3 -c 'import numpy' 2>/dev/null || missing+=(python3-numpy)
fi
if [ ${#missing[@]} -gt 0 ]; then
  say "apt-get install ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  APT=($SUDO apt-get -o DPkg::Lock::Timeout=600)   # other work may hold the dpkg lock: wait for it
  "${APT[@]}" update -qq
  DEBIAN_FRONTEND=noninteractive "${APT[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- 2. llama.cpp source from the pinned npm package --------------------------------------------
SRC="$L/src-$NLC_VERSION"
if [ ! -f "$SRC/.ok" ]; then
  say "npm pack node-llama-cpp@$NLC_VERSION (llama.cpp source bundle)"
  rm -rf "$SRC" "$L/pack"; mkdir -p "$L/pack"
  (cd "$L/pack" && npm pack "node-llama-cpp@$NLC_VERSION" --silent --loglevel=error >/dev/null \
     && tar xzf "node-llama-cpp-$NLC_VERSION.tgz" package/llama/gitRelease.bundle package/llama/llama.cpp.info.json)
  git -c advice.detachedHead=false clone -q "$L/pack/package/llama/gitRelease.bundle" "$SRC"
  cp "$L/pack/package/llama/llama.cpp.info.json" "$SRC/"
  rm -rf "$L/pack"
  touch "$SRC/.ok"
fi

# --- 3. build just the llama-server target (CPU only) --------------------------------------------
if [ ! -f "$BUILD_STAMP" ] || [ ! -x "$L/bin/llama-server" ]; then
  say "building llama-server ($(nproc) jobs; ~5 min on 2 idle cores)"
  rm -f "$L"/.build-*
  cmake -S "$SRC" -B "$SRC/build" "${CMAKE_FLAGS[@]}" > "$L/cmake-configure.log" 2>&1 \
    || { tail -30 "$L/cmake-configure.log"; exit 1; }
  tick_start "still compiling llama-server ($(nproc) jobs; log: $L/cmake-build.log)"
  cmake --build "$SRC/build" --target llama-server -j"$(nproc)" > "$L/cmake-build.log" 2>&1 \
    || { tick_stop; tail -40 "$L/cmake-build.log"; exit 1; }
  tick_stop
  # Copy the binary and its libraries (RPATH $ORIGIN) out of the tree, so bin/ is all the tests need.
  rm -rf "$L/bin.new"; mkdir -p "$L/bin.new"
  cp -a "$SRC/build/bin/." "$L/bin.new/"
  rm -rf "$L/bin"; mv "$L/bin.new" "$L/bin"
  "$L/bin/llama-server" --version 2>&1 | tail -2
  touch "$BUILD_STAMP"
  say "llama-server built"
fi

# --- 4. test models: real tokenizers and chat templates from the tree, generated weights ----------
mkdir -p "$L/models"
todo=()
for p in "${PRESETS[@]}"; do [ -f "$(models_stamp "$p")" ] || todo+=("$p"); done
if [ ${#todo[@]} -gt 0 ]; then
  # One run for all of them: reading a vocabulary is most of a chat model's time, and the two chat models
  # share theirs (genModels.py reads each vocabulary once).
  say "generating models ${todo[*]}"
  for p in "${todo[@]}"; do rm -f "$L/models/.ok-$p-"*; done
  PYTHONPATH="$SRC/gguf-py" "$PY" "$HERE/genModels.py" "$SRC" "$L/models" "${todo[@]}" 2>&1 | { grep -v "Duplicated key" || true; }
  for p in "${todo[@]}"; do touch "$(models_stamp "$p")"; done
fi
if [ ! -f "$(models_stamp mmproj-tiny)" ]; then
  say "generating mmproj-tiny"
  rm -f "$L/models/.ok-mmproj-tiny-"*
  # The projection width must equal the chat model's n_embd (64 for chat-scripted).
  PYTHONPATH="$SRC/gguf-py" "$PY" "$HERE/genMmproj.py" "$L/models/mmproj-tiny.gguf" 64
  touch "$(models_stamp mmproj-tiny)"
fi
say "ready: $L/bin/llama-server, models: ${PRESETS[*]} mmproj-tiny"
