// A real, minimal PDF (one page, Helvetica, text only) for an invoice's `invoice_pdf` URL, written by hand so the
// sandbox needs no PDF library. Byte offsets in the cross-reference table must be exact, hence the bookkeeping.

export interface PdfLine {
  text: string;
  size?: number;
  /** Extra space above the line, in points. */
  gapBefore?: number;
}

/** PDF strings are bytes in parentheses: escape the delimiters, and fall back to ASCII for the standard font. */
function pdfString(text: string): string {
  const ascii = text
    .replaceAll('—', '-')
    .replaceAll('–', '-')
    .replaceAll('×', 'x')
    .replaceAll('•', '*')
    .replace(/[^\x20-\x7e]/g, '?');
  return `(${ascii.replace(/[\\()]/g, (character) => `\\${character}`)})`;
}

export function renderPdf(lines: PdfLine[]): Buffer {
  let y = 740;
  const textOps = lines
    .map(({ text, size = 11, gapBefore = 0 }) => {
      y -= gapBefore + size * 1.5;
      return `BT /F1 ${size} Tf 72 ${y} Td ${pdfString(text)} Tj ET`;
    })
    .join('\n');

  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(textOps, 'latin1')} >>\nstream\n${textOps}\nendstream`,
  ];

  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefOffset = Buffer.byteLength(body, 'latin1');
  // Each cross-reference entry must be exactly 20 bytes: a 10-digit offset, a 5-digit generation, the type, and a
  // two-byte line end (space + LF).
  const entries = ['0000000000 65535 f \n', ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`)];
  body += `xref\n0 ${objects.length + 1}\n${entries.join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
