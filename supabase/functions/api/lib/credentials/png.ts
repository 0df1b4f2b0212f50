// The badge image: a plain round badge drawn here as a PNG (no image is fetched), and baking, the
// Open Badges 3.0 way (section "Baking": an iTXt chunk with the keyword `openbadgecredential`, no
// compression, holding the credential's JSON, before IEND).
import { unzlibSync, zlibSync } from 'fflate';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
export const BAKED_KEYWORD = 'openbadgecredential';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  const typeAndData = new Uint8Array(4 + data.length);
  typeAndData.set(new TextEncoder().encode(type), 0);
  typeAndData.set(data, 4);
  out.set(typeAndData, 4);
  view.setUint32(8 + data.length, crc32(typeAndData));
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A size x size RGBA badge: a filled disc in `rgb` with a lighter ring, transparent outside. */
export function badgePng(rgb: [number, number, number], size = 256): Uint8Array<ArrayBuffer> {
  const raw = new Uint8Array(size * (size * 4 + 1));
  const centre = (size - 1) / 2;
  const radius = size / 2 - 2;
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - centre, y - centre);
      const at = row + 1 + x * 4;
      if (d > radius) continue;
      const ring = d > radius * 0.82 && d < radius * 0.9;
      const [r, g, b] = ring ? rgb.map((v) => Math.round(v + (255 - v) * 0.6)) : rgb;
      raw.set([r, g, b, 255], at);
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, deflate, no filter method, no interlace
  return concat([
    new Uint8Array(SIGNATURE),
    chunk('IHDR', header),
    chunk('IDAT', zlibSync(raw)),
    chunk('IEND', new Uint8Array()),
  ]);
}

function chunks(png: Uint8Array): { type: string; data: Uint8Array; start: number; end: number }[] {
  if (!SIGNATURE.every((b, i) => png[i] === b)) throw new Error('Not a PNG');
  const list = [];
  let at = 8;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  while (at + 12 <= png.length) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
    list.push({ type, data: png.subarray(at + 8, at + 8 + length), start: at, end: at + 12 + length });
    at += 12 + length;
  }
  return list;
}

/** The PNG with the credential baked in (any earlier baked credential taken out). */
export function bakePng(png: Uint8Array, credential: unknown): Uint8Array<ArrayBuffer> {
  const all = chunks(png).filter((c) => !(c.type === 'iTXt' && readITxt(c.data)?.keyword === BAKED_KEYWORD));
  const iend = all.findIndex((c) => c.type === 'IEND');
  const encoder = new TextEncoder();
  // keyword NUL, compression flag 0, compression method 0, language tag "" NUL, translated keyword "" NUL, text
  const data = concat([encoder.encode(BAKED_KEYWORD), new Uint8Array([0, 0, 0, 0, 0]), encoder.encode(JSON.stringify(credential))]);
  const parts = [new Uint8Array(SIGNATURE), ...all.slice(0, iend).map((c) => png.subarray(c.start, c.end)), chunk('iTXt', data),
    ...all.slice(iend).map((c) => png.subarray(c.start, c.end))];
  return concat(parts);
}

function readITxt(data: Uint8Array): { keyword: string; text: string } | null {
  const end = data.indexOf(0);
  if (end < 0) return null;
  const keyword = new TextDecoder().decode(data.subarray(0, end));
  const compressed = data[end + 1] === 1;
  let at = end + 3;
  at = data.indexOf(0, at) + 1; // language tag
  at = data.indexOf(0, at) + 1; // translated keyword
  const body = data.subarray(at);
  return { keyword, text: new TextDecoder().decode(compressed ? unzlibSync(body) : body) };
}

/** The credential baked into a PNG, or null. */
export function unbakePng(png: Uint8Array): unknown {
  for (const c of chunks(png)) {
    if (c.type !== 'iTXt') continue;
    const entry = readITxt(c.data);
    if (entry?.keyword === BAKED_KEYWORD) return JSON.parse(entry.text);
  }
  return null;
}
