// TrueType fonts embedded in a PDF, for text the standard 14 fonts cannot draw. Those encode
// WinAnsi only, which has no ŵ, ŷ, Ŵ or Ŷ: a Welsh certificate or learning record, or any name with
// a letter outside WinAnsi, is drawn in the DejaVu fonts of supabase/functions/api/fonts/ (free
// licence in LICENSE.txt there), every letter as it is.
//
// pdf-lib embeds TrueType only through fontkit, which this project does not ship; this file does the
// part it needs itself. Each font is a composite (Type0) font whose character codes are the text's
// Unicode code points (UTF-16BE, Identity-H), a CIDToGIDMap from code point to glyph, a ToUnicode
// map (so the text can be copied and searched) and a subset of the font program: every glyph the
// document does not draw is emptied, so a page carries a few kilobytes of outlines, not the font.
import { CustomFontEmbedder, PDFDocument, PDFFont, PDFHexString, type PDFRef, PDFString, StandardFonts } from 'pdf-lib';

interface Table {
  offset: number;
  length: number;
}

/** What is read of a TrueType font file. */
export interface TrueTypeFont {
  name: string;
  bytes: Uint8Array;
  tables: Map<string, Table>;
  unitsPerEm: number;
  bbox: [number, number, number, number];
  ascent: number;
  descent: number;
  capHeight: number;
  italicAngle: number;
  numGlyphs: number;
  longLoca: boolean;
  /** Unicode code point (BMP) to glyph id. */
  cmap: Map<number, number>;
  advances: Uint16Array;
}

const u16 = (b: Uint8Array, o: number) => (b[o] << 8) | b[o + 1];
const i16 = (b: Uint8Array, o: number) => (u16(b, o) << 16) >> 16;
const u32 = (b: Uint8Array, o: number) => ((b[o] << 24) >>> 0) + ((b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]);

export function parseTrueType(name: string, bytes: Uint8Array): TrueTypeFont {
  const tables = new Map<string, Table>();
  const count = u16(bytes, 4);
  for (let i = 0; i < count; i++) {
    const at = 12 + 16 * i;
    const tag = String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
    tables.set(tag, { offset: u32(bytes, at + 8), length: u32(bytes, at + 12) });
  }
  const need = (tag: string) => {
    const table = tables.get(tag);
    if (!table) throw new Error(`${name}: no ${tag} table`);
    return table.offset;
  };
  const head = need('head');
  const hhea = need('hhea');
  const maxp = need('maxp');
  const hmtx = need('hmtx');
  const numGlyphs = u16(bytes, maxp + 4);
  const hMetrics = u16(bytes, hhea + 34);
  const advances = new Uint16Array(numGlyphs);
  for (let g = 0; g < numGlyphs; g++) advances[g] = u16(bytes, hmtx + 4 * Math.min(g, hMetrics - 1));
  const os2 = tables.get('OS/2');
  const post = tables.get('post');
  const font: TrueTypeFont = {
    name,
    bytes,
    tables,
    unitsPerEm: u16(bytes, head + 18),
    bbox: [i16(bytes, head + 36), i16(bytes, head + 38), i16(bytes, head + 40), i16(bytes, head + 42)],
    ascent: i16(bytes, hhea + 4),
    descent: i16(bytes, hhea + 6),
    capHeight: os2 && u16(bytes, os2.offset) >= 2 ? i16(bytes, os2.offset + 88) : i16(bytes, hhea + 4),
    italicAngle: post ? ((u32(bytes, post.offset + 4) << 0) / 65536) : 0,
    numGlyphs,
    longLoca: i16(bytes, head + 50) === 1,
    cmap: readCmap(bytes, need('cmap')),
    advances,
  };
  return font;
}

/** The Unicode (platform 3, encoding 1, format 4) subtable: the BMP, which is all a code here needs. */
function readCmap(b: Uint8Array, cmap: number): Map<number, number> {
  const map = new Map<number, number>();
  const subtables = u16(b, cmap + 2);
  for (let i = 0; i < subtables; i++) {
    const at = cmap + 4 + 8 * i;
    if (u16(b, at) !== 3 || u16(b, at + 2) !== 1) continue;
    const table = cmap + u32(b, at + 4);
    if (u16(b, table) !== 4) continue;
    const segments = u16(b, table + 6) / 2;
    const ends = table + 14;
    const starts = ends + 2 * segments + 2;
    const deltas = starts + 2 * segments;
    const rangeOffsets = deltas + 2 * segments;
    for (let s = 0; s < segments; s++) {
      const start = u16(b, starts + 2 * s);
      const end = u16(b, ends + 2 * s);
      const delta = u16(b, deltas + 2 * s);
      const rangeOffset = u16(b, rangeOffsets + 2 * s);
      for (let c = start; c <= end && c !== 0xffff; c++) {
        let glyph: number;
        if (rangeOffset === 0) glyph = (c + delta) & 0xffff;
        else {
          const at = rangeOffsets + 2 * s + rangeOffset + 2 * (c - start);
          glyph = u16(b, at);
          if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
        }
        if (glyph !== 0) map.set(c, glyph);
      }
    }
    return map;
  }
  throw new Error('No Unicode cmap');
}

/** A glyph's bytes in glyf. */
function glyphRange(font: TrueTypeFont, glyph: number): [number, number] {
  const loca = font.tables.get('loca')!.offset;
  const glyf = font.tables.get('glyf')!.offset;
  const b = font.bytes;
  const at = (g: number) => font.longLoca ? u32(b, loca + 4 * g) : 2 * u16(b, loca + 2 * g);
  return [glyf + at(glyph), glyf + at(glyph + 1)];
}

/** The glyphs a composite glyph is made of, and theirs. */
function withComponents(font: TrueTypeFont, glyphs: Set<number>): Set<number> {
  const all = new Set(glyphs);
  const queue = [...glyphs];
  const b = font.bytes;
  while (queue.length > 0) {
    const glyph = queue.pop()!;
    const [start, end] = glyphRange(font, glyph);
    if (end - start < 10 || i16(b, start) >= 0) continue;
    let at = start + 10;
    for (;;) {
      const flags = u16(b, at);
      const component = u16(b, at + 2);
      if (!all.has(component)) {
        all.add(component);
        queue.push(component);
      }
      at += 4 + (flags & 0x1 ? 4 : 2) + (flags & 0x8 ? 2 : flags & 0x40 ? 4 : flags & 0x80 ? 8 : 0);
      if (!(flags & 0x20)) break;
    }
  }
  return all;
}

/** The font program with only these glyphs' outlines (glyph ids unchanged), for FontFile2. */
export function subsetFontProgram(font: TrueTypeFont, used: Set<number>): Uint8Array {
  const keep = withComponents(font, new Set([0, ...used]));
  const b = font.bytes;
  const glyphs: Uint8Array[] = [];
  const loca = new Uint8Array(4 * (font.numGlyphs + 1));
  const locaView = new DataView(loca.buffer);
  let size = 0;
  for (let g = 0; g < font.numGlyphs; g++) {
    locaView.setUint32(4 * g, size);
    if (!keep.has(g)) continue;
    const [start, end] = glyphRange(font, g);
    const data = b.subarray(start, end);
    const padded = new Uint8Array((data.length + 3) & ~3);
    padded.set(data);
    glyphs.push(padded);
    size += padded.length;
  }
  locaView.setUint32(4 * font.numGlyphs, size);
  const glyf = new Uint8Array(size);
  let offset = 0;
  for (const g of glyphs) {
    glyf.set(g, offset);
    offset += g.length;
  }
  const copy = (tag: string) => {
    const t = font.tables.get(tag);
    return t ? b.slice(t.offset, t.offset + t.length) : null;
  };
  const head = copy('head')!;
  new DataView(head.buffer).setUint32(8, 0); // checksumAdjustment: recomputed below
  new DataView(head.buffer).setInt16(50, 1); // long loca
  const tables: [string, Uint8Array][] = [['head', head], ['hhea', copy('hhea')!], ['maxp', copy('maxp')!], ['hmtx', copy('hmtx')!],
    ['loca', loca], ['glyf', glyf]];
  for (const tag of ['cvt ', 'fpgm', 'prep']) {
    const t = copy(tag);
    if (t) tables.push([tag, t]);
  }
  tables.sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0));
  return writeFont(tables);
}

function checksum(data: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < data.length; i += 4) {
    sum = (sum + (((data[i] << 24) | ((data[i + 1] ?? 0) << 16) | ((data[i + 2] ?? 0) << 8) | (data[i + 3] ?? 0)) >>> 0)) >>> 0;
  }
  return sum;
}

function writeFont(tables: [string, Uint8Array][]): Uint8Array {
  const n = tables.length;
  const headerSize = 12 + 16 * n;
  let total = headerSize;
  for (const [, data] of tables) total += (data.length + 3) & ~3;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  const power = 2 ** Math.floor(Math.log2(n));
  view.setUint32(0, 0x00010000);
  view.setUint16(4, n);
  view.setUint16(6, power * 16);
  view.setUint16(8, Math.log2(power));
  view.setUint16(10, n * 16 - power * 16);
  let offset = headerSize;
  let headAt = 0;
  tables.forEach(([tag, data], i) => {
    const at = 12 + 16 * i;
    for (let k = 0; k < 4; k++) out[at + k] = tag.charCodeAt(k);
    view.setUint32(at + 4, checksum(data));
    view.setUint32(at + 8, offset);
    view.setUint32(at + 12, data.length);
    out.set(data, offset);
    if (tag === 'head') headAt = offset;
    offset += (data.length + 3) & ~3;
  });
  view.setUint32(headAt + 8, (0xb1b0afba - checksum(out)) >>> 0);
  return out;
}

/** The families the PDFs use, as pdf-lib's standard fonts name them. */
export type FontRole = 'regular' | 'bold' | 'serif' | 'serifBold' | 'serifItalic';

const FILES: Record<FontRole, string> = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  serif: 'DejaVuSerif.ttf',
  serifBold: 'DejaVuSerif-Bold.ttf',
  serifItalic: 'DejaVuSerif-Italic.ttf',
};

const STANDARD: Record<FontRole, StandardFonts> = {
  regular: StandardFonts.Helvetica,
  bold: StandardFonts.HelveticaBold,
  serif: StandardFonts.TimesRoman,
  serifBold: StandardFonts.TimesRomanBold,
  serifItalic: StandardFonts.TimesRomanItalic,
};

const parsed = new Map<FontRole, Promise<TrueTypeFont>>();

/** A font file, read once per function instance. */
function loadFont(role: FontRole): Promise<TrueTypeFont> {
  let font = parsed.get(role);
  if (!font) {
    const file = FILES[role];
    font = Deno.readFile(new URL(`../fonts/${file}`, import.meta.url)).then((bytes) => parseTrueType(file.replace(/\.ttf$/, ''), bytes));
    parsed.set(role, font);
    font.catch(() => parsed.delete(role));
  }
  return font;
}

/** A six-letter subset tag, as PDF names a subset font: from the glyphs it holds. */
function subsetTag(used: Set<number>): string {
  let h = 2166136261;
  for (const g of [...used].sort((a, b) => a - b)) h = Math.imul(h ^ g, 16777619) >>> 0;
  let tag = '';
  for (let i = 0; i < 6; i++) {
    tag += String.fromCharCode(65 + (h % 26));
    h = Math.floor(h / 26) + i * 7;
  }
  return tag;
}

/** The fontkit font CustomFontEmbedder's constructor takes (its type is not exported). */
type FontkitFont = CustomFontEmbedder['font'];

/**
 * pdf-lib's font embedder, for a TrueType font whose codes are Unicode code points. It extends
 * pdf-lib's own (PDFFont accepts no other) and replaces every method that would call fontkit; the
 * base is given only what its constructor reads (the font's units and names, and its characters
 * for PDFFont.getCharacterSet).
 */
class UnicodeFontEmbedder extends CustomFontEmbedder {
  private readonly used = new Set<number>();
  private readonly ttf: TrueTypeFont;

  constructor(ttf: TrueTypeFont) {
    super({ unitsPerEm: ttf.unitsPerEm, postscriptName: ttf.name, characterSet: [...ttf.cmap.keys()] } as unknown as FontkitFont, new Uint8Array());
    this.ttf = ttf;
  }

  private glyphOf(codePoint: number): number {
    return this.ttf.cmap.get(codePoint) ?? 0;
  }

  override encodeText(text: string): PDFHexString {
    let hex = '';
    for (const char of text) {
      const cp = char.codePointAt(0)!;
      // Only the BMP has codes here; drawable() has already replaced what the font lacks.
      const code = cp <= 0xffff && this.ttf.cmap.has(cp) ? cp : 0x3f;
      this.used.add(code);
      hex += code.toString(16).padStart(4, '0');
    }
    return PDFHexString.of(hex.toUpperCase());
  }

  override widthOfTextAtSize(text: string, size: number): number {
    let width = 0;
    for (const char of text) width += this.ttf.advances[this.glyphOf(char.codePointAt(0)!)] ?? 0;
    return (width * size) / this.ttf.unitsPerEm;
  }

  override heightOfFontAtSize(size: number, options: { descender?: boolean } = {}): number {
    const { ascent, descent, unitsPerEm } = this.ttf;
    const height = options.descender === false ? ascent : ascent - descent;
    return (height * size) / unitsPerEm;
  }

  override sizeOfFontAtHeight(height: number): number {
    return (height * this.ttf.unitsPerEm) / (this.ttf.ascent - this.ttf.descent);
  }

  // deno-lint-ignore require-await
  override async embedIntoContext(context: PDFDocument['context'], ref?: PDFRef): Promise<PDFRef> {
    ref ??= context.nextRef();
    const ttf = this.ttf;
    const scale = 1000 / ttf.unitsPerEm;
    const codes = [...this.used].sort((a, b) => a - b);
    const glyphs = new Set(codes.map((c) => this.glyphOf(c)));
    const program = subsetFontProgram(ttf, glyphs);
    const baseFont = `${subsetTag(glyphs)}+${ttf.name}`;
    const fontFile = context.register(context.flateStream(program, { Length1: program.length }));
    const maxCode = codes.at(-1) ?? 0;
    const cidToGid = new Uint8Array(2 * (maxCode + 1));
    for (const code of codes) {
      const glyph = this.glyphOf(code);
      cidToGid[2 * code] = glyph >> 8;
      cidToGid[2 * code + 1] = glyph & 0xff;
    }
    const cidToGidMap = context.register(context.flateStream(cidToGid));
    const flags = (ttf.name.includes('Serif') ? 2 : 0) | 32 | (ttf.italicAngle !== 0 ? 64 : 0);
    const descriptor = context.register(context.obj({
      Type: 'FontDescriptor',
      FontName: baseFont,
      Flags: flags,
      FontBBox: ttf.bbox.map((v) => Math.round(v * scale)),
      ItalicAngle: ttf.italicAngle,
      Ascent: Math.round(ttf.ascent * scale),
      Descent: Math.round(ttf.descent * scale),
      CapHeight: Math.round(ttf.capHeight * scale),
      StemV: ttf.name.includes('Bold') ? 120 : 80,
      FontFile2: fontFile,
    }));
    const widths: (number | number[])[] = [];
    for (const code of codes) widths.push(code, [Math.round(ttf.advances[this.glyphOf(code)] * scale)]);
    const cidFont = context.register(context.obj({
      Type: 'Font',
      Subtype: 'CIDFontType2',
      BaseFont: baseFont,
      CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
      FontDescriptor: descriptor,
      W: widths,
      CIDToGIDMap: cidToGidMap,
    }));
    const toUnicode = context.register(context.flateStream(toUnicodeCMap(codes)));
    context.assign(ref, context.obj({
      Type: 'Font',
      Subtype: 'Type0',
      BaseFont: baseFont,
      Encoding: 'Identity-H',
      DescendantFonts: [cidFont],
      ToUnicode: toUnicode,
    }));
    return ref;
  }
}

/** Codes are code points: each maps to itself. */
function toUnicodeCMap(codes: number[]): string {
  const lines: string[] = [];
  for (let i = 0; i < codes.length; i += 100) {
    const chunk = codes.slice(i, i + 100);
    const hex = (c: number) => `<${c.toString(16).padStart(4, '0').toUpperCase()}>`;
    lines.push(`${chunk.length} beginbfchar`, ...chunk.map((c) => `${hex(c)} ${hex(c)}`), 'endbfchar');
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...lines,
    'endcmap',
    'CMapName currentdict /CMapResource defineresource pop',
    'end',
    'end',
  ].join('\n');
}

/** Embeds one of the DejaVu fonts in the document (its glyphs subset when the document is saved). */
export async function embedUnicodeFont(doc: PDFDocument, role: FontRole): Promise<PDFFont> {
  const embedder = new UnicodeFontEmbedder(await loadFont(role));
  const font = PDFFont.of(doc.context.nextRef(), doc, embedder);
  // pdf-lib embeds the fonts of its list when the document is saved (PDFDocument.flush).
  (doc as unknown as { fonts: PDFFont[] }).fonts.push(font);
  return font;
}

/** The code points WinAnsi (the standard fonts' encoding) can draw. */
let winAnsi: Set<number> | null = null;
async function winAnsiCodePoints(): Promise<Set<number>> {
  if (!winAnsi) {
    const doc = await PDFDocument.create();
    winAnsi = new Set((await doc.embedFont(StandardFonts.Helvetica)).getCharacterSet());
  }
  return winAnsi;
}

/** Whether every letter of these texts is one the standard fonts can draw. */
export async function standardFontsDraw(texts: readonly string[]): Promise<boolean> {
  const supported = await winAnsiCodePoints();
  return texts.every((text) => [...text].every((c) => /\s/.test(c) || supported.has(c.codePointAt(0)!)));
}

/**
 * The fonts of a document: the standard fonts (as every English PDF has always had) when they can
 * draw every text it holds, else (and always when `texts` is null) the embedded DejaVu fonts, so that
 * no letter is dropped or replaced.
 */
export async function pdfFonts<R extends FontRole>(doc: PDFDocument, roles: readonly R[], texts: readonly string[] | null): Promise<Record<R, PDFFont>> {
  const standard = texts !== null && await standardFontsDraw(texts);
  const fonts = {} as Record<R, PDFFont>;
  for (const role of roles) fonts[role] = standard ? await doc.embedFont(STANDARD[role]) : await embedUnicodeFont(doc, role);
  return fonts;
}
