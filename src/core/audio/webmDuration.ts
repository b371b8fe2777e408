// WebM/Matroska duration: Segment/Info/Duration times TimecodeScale. Recorders that stream (a browser's
// MediaRecorder, ffmpeg to a pipe) never write Duration; then the last Cluster's timecode plus its
// last block's offset, found by scanning the tail, gives it instead (an estimate within one frame).

import { type ByteSource } from './byteSource';
import { type DurationInfo } from './durationInfo';
import { readId, readVint } from './ebml';

const idSegment = 0x18538067;
const idInfo = 0x1549a966;
const idTimecodeScale = 0x2ad7b1;
const idDuration = 0x4489;
const idCluster = 0x1f43b675;
const idTracks = 0x1654ae6b;
const idTimecode = 0xe7;
const idSimpleBlock = 0xa3;
const idBlockGroup = 0xa0;
const idBlock = 0xa1;
const idBlockDuration = 0x9b;
const idTrackEntry = 0xae;
const idDefaultDuration = 0x23e383;

interface Element {
  readonly id: number;
  readonly data: number;
  /** Byte length of the data, or `undefined` when the writer left it unknown. */
  readonly size: number | undefined;
}

function readElement(b: Uint8Array, o: number): Element | undefined {
  const id = readId(b, o);
  if (id === undefined) return undefined;
  const size = readVint(b, o + id.length);
  if (size === undefined) return undefined;
  return { id: id.value, data: o + id.length + size.length, size: size.unknown ? undefined : size.value };
}

function readUint(b: Uint8Array, o: number, size: number): number | undefined {
  if (size < 1 || size > 7 || o + size > b.length) return undefined;
  let v = 0;
  for (let i = 0; i < size; i++) v = v * 256 + (b[o + i] ?? 0);
  return v;
}

function readFloat(b: Uint8Array, o: number, size: number): number | undefined {
  if (o + size > b.length) return undefined;
  const view = new DataView(b.buffer, b.byteOffset + o, size);
  if (size === 4) return view.getFloat32(0);
  if (size === 8) return view.getFloat64(0);
  return undefined;
}

interface SegmentFacts {
  scale: number;
  duration: number | undefined;
  /** Nanoseconds per frame of the first track that declares it, to finish off the last block. */
  frameNs: number;
  segmentEnd: number | undefined;
}

/** Duration of a WebM/Matroska file from its known parts. */
export function webmDuration(src: ByteSource): DurationInfo | undefined {
  const head = src.headBytes;
  const ebml = readElement(head, 0);
  if (ebml?.id !== 0x1a45dfa3 || ebml.size === undefined) return undefined;
  const segment = readElement(head, ebml.data + ebml.size);
  if (segment?.id !== idSegment) return undefined;
  const facts = segmentFacts(head, segment);
  const truncated = facts.segmentEnd !== undefined && facts.segmentEnd > src.size;
  if (facts.duration !== undefined && facts.duration > 0 && !truncated) {
    return { seconds: (facts.duration * facts.scale) / 1e9, estimated: false, truncated: false };
  }
  const last = lastBlockTime(src.tailBytes);
  if (last === undefined) return undefined;
  return { seconds: (last * facts.scale + facts.frameNs) / 1e9, estimated: true, truncated };
}

function segmentFacts(head: Uint8Array, segment: Element): SegmentFacts {
  const facts: SegmentFacts = {
    scale: 1_000_000,
    duration: undefined,
    frameNs: 0,
    segmentEnd: segment.size === undefined ? undefined : segment.data + segment.size,
  };
  let o = segment.data;
  for (let i = 0; i < 64; i++) {
    const el = readElement(head, o);
    // Top-level elements before the first Cluster have known sizes; stop at anything else.
    if (el === undefined || el.size === undefined || el.id === idCluster) break;
    const end = el.data + el.size;
    if (el.id === idInfo) readInfo(head, el.data, Math.min(end, head.length), facts);
    if (el.id === idTracks) readTracks(head, el.data, Math.min(end, head.length), facts);
    o = end;
  }
  return facts;
}

function readInfo(b: Uint8Array, from: number, to: number, facts: SegmentFacts): void {
  for (let o = from, i = 0; o < to && i < 64; i++) {
    const el = readElement(b, o);
    if (el === undefined || el.size === undefined) return;
    if (el.id === idTimecodeScale) facts.scale = readUint(b, el.data, el.size) || facts.scale;
    if (el.id === idDuration) facts.duration = readFloat(b, el.data, el.size);
    o = el.data + el.size;
  }
}

function readTracks(b: Uint8Array, from: number, to: number, facts: SegmentFacts): void {
  for (let o = from, i = 0; o < to && i < 64; i++) {
    const el = readElement(b, o);
    if (el === undefined || el.size === undefined) return;
    if (el.id === idTrackEntry) {
      const end = Math.min(to, el.data + el.size);
      for (let p = el.data, k = 0; p < end && k < 64; k++) {
        const child = readElement(b, p);
        if (child === undefined || child.size === undefined) break;
        if (child.id === idDefaultDuration && facts.frameNs === 0) facts.frameNs = readUint(b, child.data, child.size) ?? 0;
        p = child.data + child.size;
      }
    }
    o = el.data + el.size;
  }
}

/** Timecode (in TimecodeScale units) of the last block in the last Cluster that starts in `tail`. */
function lastBlockTime(tail: Uint8Array): number | undefined {
  for (let o = tail.length - 8; o >= 0; o--) {
    if (tail[o] !== 0x1f || tail[o + 1] !== 0x43 || tail[o + 2] !== 0xb6 || tail[o + 3] !== 0x75) continue;
    const cluster = readElement(tail, o);
    if (cluster === undefined) continue;
    const found = clusterLastTime(tail, cluster);
    if (found !== undefined) return found;
  }
  return undefined;
}

function clusterLastTime(b: Uint8Array, cluster: Element): number | undefined {
  const end = Math.min(b.length, cluster.size === undefined ? b.length : cluster.data + cluster.size);
  let base: number | undefined;
  let last: number | undefined;
  let o = cluster.data;
  for (let i = 0; o < end && i < 100_000; i++) {
    const el = readElement(b, o);
    if (el === undefined || el.size === undefined || el.data + el.size > end) break;
    if (el.id === idTimecode) base = readUint(b, el.data, el.size);
    else if (base === undefined)
      return undefined; // Timecode comes first in every real cluster.
    else if (el.id === idSimpleBlock) last = Math.max(last ?? 0, base + blockOffset(b, el.data));
    else if (el.id === idBlockGroup) last = Math.max(last ?? 0, base + groupEnd(b, el.data, el.data + el.size));
    else if (el.id === idCluster) break;
    o = el.data + el.size;
  }
  return last ?? base;
}

/** Signed 16-bit timecode of a block relative to its cluster, after the track-number vint. */
function blockOffset(b: Uint8Array, data: number): number {
  const track = readVint(b, data);
  if (track === undefined) return 0;
  const p = data + track.length;
  if (p + 2 > b.length) return 0;
  const raw = ((b[p] ?? 0) << 8) | (b[p + 1] ?? 0);
  return raw >= 0x8000 ? raw - 0x10000 : raw;
}

function groupEnd(b: Uint8Array, from: number, to: number): number {
  let offset = 0;
  let duration = 0;
  for (let o = from, i = 0; o < to && i < 16; i++) {
    const el = readElement(b, o);
    if (el === undefined || el.size === undefined) break;
    if (el.id === idBlock) offset = blockOffset(b, el.data);
    if (el.id === idBlockDuration) duration = readUint(b, el.data, el.size) ?? 0;
    o = el.data + el.size;
  }
  return offset + duration;
}
