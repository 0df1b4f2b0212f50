// Reading what the browser tests download: the text of a PDF made by pdf-lib, and RFC 4180 CSV.
import zlib from 'node:zlib';

/** The text drawn on a PDF's pages (pdf-lib writes each line as a WinAnsi hex string in a Flate stream). */
export function pdfText(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const out: string[] = [];
  const pattern = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(raw))) {
    const start = match.index + match[0].length;
    const dict = raw.slice(Math.max(0, raw.lastIndexOf('<<', match.index)), match.index);
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1] ?? 0);
    if (!dict.includes('FlateDecode') || !length) continue;
    try {
      const text = zlib.inflateSync(bytes.subarray(start, start + length)).toString('latin1');
      for (const hex of text.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)) out.push(Buffer.from(hex[1], 'hex').toString('latin1'));
    } catch {
      // Font programs and other streams that are not page text.
    }
  }
  return out.join('\n');
}

/** RFC 4180 fields, with quotes, commas and line breaks inside quoted fields (rows end in CRLF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i += 1; }
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(field); field = ''; }
    else if (ch === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i += 1; }
    else field += ch;
  }
  return rows;
}
