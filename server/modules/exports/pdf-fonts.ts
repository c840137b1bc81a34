// The fonts of the PDF reports, and text drawn with them so that creators' titles in any script we can show come
// out as written.
//
// DejaVu Sans Condensed, regular and bold, from the `dejavu-fonts-ttf` package, is embedded in every PDF (pdfkit
// subsets it: only the glyphs a document uses are written). Its licence (node_modules/dejavu-fonts-ttf/LICENSE: the
// Bitstream Vera licence, Arev additions under the same terms, DejaVu changes public domain) allows the fonts to be
// reproduced and distributed, alone or inside other software, so embedding subsets in our PDFs is fine. It covers
// Latin (Vietnamese, Polish, Turkish included), Greek, Cyrillic, Armenian, Georgian and many symbols. The condensed
// faces have exactly the same characters as DejaVu Sans (5,918 and 5,898 code points) but are about 10% narrower,
// close to the Helvetica the reports were laid out with: with DejaVu Sans itself, the summary cards' numbers and
// "Connected Platforms", and the YouTube table's "Watch (min)" header, no longer fit their boxes.
//
// No CJK font: the npm packages that hold one as a single file fontkit can read are far larger than the ~20 MB we
// allow for it (@expo-google-fonts/noto-sans-sc: 96 MB, nine weights of ~10.5 MB; Japanese- and Korean-only ones
// alike), and the others (@fontsource/*) split each font into many WOFF2 subsets by Unicode range. Chinese, Japanese
// and Korean characters are shown as "?", as are other characters no font has.
//
// Hebrew and Arabic (and the other right-to-left scripts) stay "?" too, although DejaVu has their letters: pdfkit
// does no bidirectional reordering, so their words would be printed backwards.
//
// Emoji are dropped rather than shown as "?": a title "Trip 🌴🔥" reads "Trip". Symbols a font has (©, ™, ☀, ❤)
// are drawn, in black.
//
// Text is split into runs by the first font of the role's chain (FONT_CHAINS) that has every character of each
// grapheme; one-line texts with more than one run are laid out here, run by run, so they keep their box's width
// and the ellipsis. Wrapped text is drawn in the single font that covers the most of it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

type Doc = PDFKit.PDFDocument;

export type FontRole = 'regular' | 'bold';

const FONT_FILES = {
  'DejaVuSansCondensed': 'dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf',
  'DejaVuSansCondensed-Bold': 'dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf',
} as const;
type FontName = keyof typeof FONT_FILES;
const FONT_NAMES = Object.keys(FONT_FILES) as FontName[];

/**
 * The fonts that draw each role, first choice first: a character the first lacks is looked up in the next. Bold
 * falls back to regular for the few characters only regular has (mathematical sans-serif letters). The fonts of a
 * chain must share their ascent (these do), or the runs of one line would not sit on one baseline.
 */
const FONT_CHAINS: Record<FontRole, readonly FontName[]> = {
  regular: ['DejaVuSansCondensed'],
  bold: ['DejaVuSansCondensed-Bold', 'DejaVuSansCondensed'],
};

/** Never below this share of the asked size when a one-line text is shrunk to fit its box. */
const MIN_SHRINK = 0.75;
const ELLIPSIS = '…';

let fontFiles: Map<FontName, Buffer> | undefined;

/** The TTF files, read once per process. */
function fontFile(name: FontName): Buffer {
  if (!fontFiles) {
    const require = createRequire(import.meta.url);
    fontFiles = new Map(FONT_NAMES.map((font) => [font, readFileSync(require.resolve(FONT_FILES[font]))]));
  }
  return fontFiles.get(name)!;
}

type HasGlyph = (codePoint: number) => boolean;
const glyphLookups = new WeakMap<Doc, Record<FontName, HasGlyph>>();

/**
 * Which characters pdfkit's font has: its fontkit font, which pdfkit keeps as `font` on the current font object.
 * pdfkit declares fontkit as its own dependency, so this reaches it without importing a package we do not declare.
 */
function currentGlyphLookup(doc: Doc): HasGlyph {
  const font = (doc as unknown as { _font?: { font?: { hasGlyphForCodePoint?: HasGlyph } } })._font?.font;
  if (typeof font?.hasGlyphForCodePoint !== 'function') throw new Error('pdfkit no longer exposes its fontkit font (_font.font): update pdf-fonts.ts');
  return (codePoint) => font.hasGlyphForCodePoint!(codePoint);
}

/** Registers the report fonts on a new document; drawText needs them. */
export function registerPdfFonts(doc: Doc): void {
  const lookups = {} as Record<FontName, HasGlyph>;
  for (const name of FONT_NAMES) {
    doc.registerFont(name, fontFile(name));
    lookups[name] = currentGlyphLookup(doc.font(name));
  }
  glyphLookups.set(doc, lookups);
}

export interface TextRun {
  /** The index of the font in the chain the runs were made for. */
  font: number;
  text: string;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
// Invisible characters (joiners, variation selectors, bidi marks, soft hyphens, tags): never drawn nor replaced.
const IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;
// A grapheme that is (part of) an emoji: pictographs, flags, skin tones, keycaps.
const EMOJI = /[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\u20E3]/u;
// The right-to-left scripts of Unicode still in use; pdfkit would draw them in reverse.
const RIGHT_TO_LEFT = /^[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}\p{Script=Yezidi}\p{Script=Mende_Kikakui}]$/u;
// C0 and C1 controls and the Unicode line and paragraph separators: shown as spaces, as a line break in a cell would
// push the rest of the text out of it.
const CONTROL = /[\p{Cc}\u2028\u2029]/gu;
const WHITESPACE = /^\s+$/u;

type Piece = TextRun | 'dropped';

/** One grapheme: drawn in a font of the chain, shown as "?", left out (invisible) or dropped (an emoji). */
function pieceOf(grapheme: string, chain: readonly HasGlyph[]): Piece | null {
  const visible = [...grapheme].filter((char) => !IGNORABLE.test(char));
  const fontFor = (chars: readonly string[]) => chain.findIndex((hasGlyph) => chars.every((char) => hasGlyph(char.codePointAt(0)!)));
  if (EMOJI.test(grapheme)) {
    // A lone symbol a font has (©, ™, ☀ with or without its emoji selector) is drawn; any other emoji is dropped.
    const font = visible.length === 1 ? fontFor(visible) : -1;
    return font === -1 ? 'dropped' : { font, text: visible[0]! };
  }
  if (visible.length === 0) return null;
  if (RIGHT_TO_LEFT.test(visible[0]!)) return { font: 0, text: '?' };
  const font = fontFor(visible);
  return font === -1 ? { font: 0, text: '?' } : { font, text: visible.join('') };
}

/**
 * `value` as runs of text, each to be drawn in one font of `chain` (which characters each font has): every grapheme
 * in the first font that has all its characters. Graphemes no font has become "?", emoji are dropped along with the
 * spaces they leave doubled or at either end, and control characters become spaces.
 */
export function fallbackRuns(value: string, chain: readonly HasGlyph[]): TextRun[] {
  const pieces: Piece[] = [];
  for (const { segment } of graphemes.segment(value.normalize('NFC').replace(CONTROL, ' '))) {
    const piece = pieceOf(segment, chain);
    if (piece) pieces.push(piece);
  }
  const runs: TextRun[] = [];
  const append = (piece: TextRun) => {
    const last = runs.at(-1);
    if (last?.font === piece.font) last.text += piece.text;
    else runs.push({ ...piece });
  };
  const isSpace = (piece: Piece | undefined) => piece !== undefined && piece !== 'dropped' && WHITESPACE.test(piece.text);
  for (let index = 0; index < pieces.length; index += 1) {
    const piece = pieces[index]!;
    if (piece !== 'dropped' && !isSpace(piece)) {
      append(piece);
      continue;
    }
    // A stretch of spaces and dropped emoji: kept as it is without emoji; with them, one space between two words and
    // nothing at either end.
    let end = index;
    while (end < pieces.length && (pieces[end] === 'dropped' || isSpace(pieces[end]))) end += 1;
    const stretch = pieces.slice(index, end);
    if (!stretch.includes('dropped')) for (const space of stretch) append(space as TextRun);
    else if (stretch.some(isSpace) && runs.length > 0 && end < pieces.length) append({ font: 0, text: ' ' });
    index = end - 1;
  }
  return runs;
}

function chainOf(doc: Doc, role: FontRole): { names: readonly FontName[]; lookups: HasGlyph[] } {
  const lookups = glyphLookups.get(doc);
  if (!lookups) throw new Error('registerPdfFonts(doc) was not called on this document');
  const names = FONT_CHAINS[role];
  return { names, lookups: names.map((name) => lookups[name]) };
}

export interface DrawTextOptions {
  font: FontRole;
  size: number;
  color?: string;
  width?: number;
  height?: number;
  align?: 'left' | 'right' | 'center';
  /** false: one line. With a width, a text too wide is shrunk (to 75% at most), then cut with "…". */
  lineBreak?: boolean;
  /** With lineBreak false: cut a text too wide with "…" at once, without shrinking it (table cells). */
  ellipsis?: boolean;
}

/**
 * Draws `value` at (x, y) in the role's fonts, each character in the first font of the role's chain that has it (see
 * the top of this file for what happens to the others). Answers the document, like pdfkit's own `text`.
 */
export function drawText(doc: Doc, value: string, x: number, y: number, options: DrawTextOptions): Doc {
  const { font: role, size, color, lineBreak, width, ellipsis, ...layout } = options;
  const { names, lookups } = chainOf(doc, role);
  if (color) doc.fillColor(color);
  doc.fontSize(size);

  if (lineBreak !== false) {
    // pdfkit wraps and cuts each `continued` run on its own (its ellipsis only sees the run being drawn), so a text
    // that wraps is drawn in the one font that draws the most of it; the rest falls back as described above.
    const counts = names.map(() => 0);
    for (const run of fallbackRuns(value, lookups)) counts[run.font]! += [...run.text].length;
    const best = counts.indexOf(Math.max(...counts));
    const text = fallbackRuns(value, [lookups[best]!]).map((run) => run.text).join('');
    return doc.font(names[best]!).text(text, x, y, { ...layout, width, ellipsis });
  }

  let runs = fallbackRuns(value, lookups);
  if (runs.length === 0) return doc;
  const widthOf = (text: string, font: number) => doc.font(names[font]!).widthOfString(text);
  const measure = (parts: readonly TextRun[]) => parts.reduce((sum, run) => sum + widthOf(run.text, run.font), 0);
  let textWidth = measure(runs);
  if (width !== undefined && !ellipsis && textWidth > width) {
    // One-line labels and numbers never wrap: shrink first, as long as the text stays readable.
    doc.fontSize(Math.max(size * MIN_SHRINK, (size * width) / textWidth));
    textWidth = measure(runs);
  }
  if (runs.length === 1 && (width === undefined || textWidth <= width || ellipsis)) {
    // pdfkit's own layout, as before fonts were embedded: a cell too wide is cut at a word with "…".
    const options: PDFKit.Mixins.TextOptions = { ...layout, width, lineBreak: false, ellipsis };
    if (width !== undefined && textWidth > width) options.height ??= doc.currentLineHeight(true);
    return doc.font(names[runs[0]!.font]!).text(runs[0]!.text, x, y, options);
  }
  if (width !== undefined && textWidth > width) {
    runs = truncated(runs, width, widthOf);
    textWidth = measure(runs);
  }
  // Run by run, from where the whole line starts in its box.
  let runX = x;
  if (width !== undefined && options.align === 'right') runX += width - textWidth;
  else if (width !== undefined && options.align === 'center') runX += (width - textWidth) / 2;
  for (const run of runs) {
    doc.font(names[run.font]!).text(run.text, runX, y, { lineBreak: false });
    runX += widthOf(run.text, run.font);
  }
  return doc;
}

/** The longest start of `runs` that fits `width` with "…" after it: whole words if one fits, trailing spaces trimmed. */
function truncated(runs: readonly TextRun[], width: number, widthOf: (text: string, font: number) => number): TextRun[] {
  const pieces = runs.flatMap((run) => [...graphemes.segment(run.text)].map(({ segment }) => ({ font: run.font, text: segment, width: widthOf(segment, run.font) })));
  let kept = pieces.length;
  let used = pieces.reduce((sum, piece) => sum + piece.width, 0);
  const ellipsisWidth = () => widthOf(ELLIPSIS, pieces[Math.max(0, kept - 1)]!.font);
  const cutAt = (count: number) => {
    while (kept > count) {
      kept -= 1;
      used -= pieces[kept]!.width;
    }
  };
  while (kept > 0 && used + ellipsisWidth() > width) cutAt(kept - 1);
  // At the end of a word when one fits, as pdfkit cuts a one-font cell.
  if (kept < pieces.length && !WHITESPACE.test(pieces[kept]!.text)) {
    const wordStart = pieces.slice(0, kept).findLastIndex((piece) => WHITESPACE.test(piece.text));
    if (wordStart > 0) cutAt(wordStart);
  }
  while (kept > 0 && WHITESPACE.test(pieces[kept - 1]!.text)) cutAt(kept - 1);
  const result: TextRun[] = [];
  for (const piece of [...pieces.slice(0, kept), { font: pieces[Math.max(0, kept - 1)]!.font, text: ELLIPSIS }]) {
    const last = result.at(-1);
    if (last?.font === piece.font) last.text += piece.text;
    else result.push({ font: piece.font, text: piece.text });
  }
  return result;
}
