"""Embeds texts with WordLlama (l2_supercat, 256 dimensions), the real trained model bench/teamIndex/teamIndexRealModel.ts
uses. Reads one JSON array of texts per line on stdin; writes, per line, the L2-normalised float32 vectors
(little-endian, 256 per text) in base64. The wheel ships the weights and the tokenizer, but looks for the
tokenizer in `tokenizer/` while shipping `tokenizers/`; the caller copies it to the cache directory given
as the first argument, and downloads stay off."""
import base64
import json
import sys

import numpy as np
from wordllama import WordLlama

model = WordLlama.load(cache_dir=sys.argv[1], disable_download=True)
print("ready", flush=True)
for line in sys.stdin:
    texts = json.loads(line)
    vectors = np.asarray(model.embed(texts, norm=False), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    # A text without a known token has no direction: zeros would give NaN cosines, so it gets a fixed unit vector.
    vectors = np.where(norms > 1e-12, vectors / np.maximum(norms, 1e-12), np.float32(1.0 / 16.0))
    sys.stdout.write(base64.b64encode(vectors.astype("<f4").tobytes()).decode("ascii") + "\n")
    sys.stdout.flush()
