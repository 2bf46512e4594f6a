/**
 * Text normalisation with a map back to the page's text nodes, sentence splitting and content-word
 * tokens: the node-side half of passage finding. Pure functions, no browser.
 */

/** A place in the page's visible text: text node `node` (walk order), UTF-16 `offset` into it. */
export interface TextPoint {
  node: number;
  offset: number;
}

/** The visible text nodes of a page, in document order, as collected in the page. */
export interface TextSegments {
  /** Raw text of each visible text node. */
  texts: string[];
  /** Id of each node's nearest block ancestor: a change of id is a block boundary. */
  blocks: number[];
}

/** Normalised text plus, for each of its characters, where it came from. */
export interface NormalizedText {
  /** Lower case, one space for any run of whitespace, plain quotes and dashes. */
  text: string;
  /** Source text node of each character of `text`. */
  node: Int32Array;
  /** Source offset of each character of `text` within its node. */
  offset: Int32Array;
  /** Positions in `text` where a block boundary fell (a space stands there). */
  breaks: Set<number>;
}

const SPACE = /[\s\u00a0\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
const SINGLE_QUOTES = /[\u2018\u2019\u201a\u201b\u2032\u0060\u00b4]/;
const DOUBLE_QUOTES = /[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb]/;
const DASHES = /[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]/;
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/;

/** The normalised form of one code point: may be empty (invisible) or longer (ligatures). */
function normalizeCodePoint(ch: string): string {
  if (SPACE.test(ch)) return ' ';
  if (ch.charCodeAt(0) < 128) return ch.toLowerCase();
  if (SINGLE_QUOTES.test(ch)) return "'";
  if (DOUBLE_QUOTES.test(ch)) return '"';
  if (DASHES.test(ch)) return '-';
  if (INVISIBLE.test(ch)) return '';
  if (ch === '\u2026') return '...';
  return ch.normalize('NFKC').toLowerCase();
}

/**
 * Joins text segments into one normalised text (whitespace collapsed, quotes, dashes and case
 * folded), keeping for every character its source node and offset.
 */
export function normalizeSegments(segments: TextSegments): NormalizedText {
  const out: string[] = [];
  const node: number[] = [];
  const offset: number[] = [];
  const breaks = new Set<number>();
  let lastSpace = true;
  let lastBlock: number | undefined;
  segments.texts.forEach((raw, n) => {
    const block = segments.blocks[n];
    if (lastBlock !== undefined && block !== lastBlock && out.length > 0) {
      if (!lastSpace) {
        out.push(' ');
        node.push(n);
        offset.push(0);
        lastSpace = true;
      }
      breaks.add(out.length - 1);
    }
    lastBlock = block;
    let i = 0;
    for (const ch of raw) {
      const norm = normalizeCodePoint(ch);
      for (const c of norm) {
        if (c === ' ') {
          if (lastSpace) continue;
          lastSpace = true;
        } else {
          lastSpace = false;
        }
        // A character outside the Basic Multilingual Plane ("🐘") is two code units of the
        // text: each needs its place, or every index after it points one character early.
        for (let u = 0; u < c.length; u++) {
          out.push(c[u]!);
          node.push(n);
          offset.push(i);
        }
      }
      i += ch.length;
    }
  });
  // A trailing space carries no text; dropping it keeps `text` trimmed at the end.
  if (out[out.length - 1] === ' ') {
    out.pop();
    node.pop();
    offset.pop();
  }
  return {
    text: out.join(''),
    node: Int32Array.from(node),
    offset: Int32Array.from(offset),
    breaks,
  };
}

/** The normalised form of a string, as {@link normalizeSegments} would produce it. */
export function normalizeText(text: string): string {
  return normalizeSegments({ texts: [text], blocks: [0] }).text.trim();
}

/** Collapses whitespace and trims: the form quotes are reported in. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Citation markers an answer engine puts after a claim: `[1]`, `[1, 2]`, `[1-3]`, `【1†source】`. */
const CITATION_MARKERS = /\s*(?:\[\^?\d+(?:\s*[,\u2013-]\s*\d+)*\]|【[^】]*】)/g;

/**
 * True when the `[` at `at` indexes code rather than opening a citation marker: it is glued to a
 * name written as code (`process.argv[1]`, `this_list[0]`, `errorCodes[2]`, `fn()[0]`) or to a
 * word inside backticks. A marker glued to a plain word ("France[1]") or after a space stays a
 * marker.
 * @example isCodeIndex('uses process.argv[1] as exec', 17) // true
 */
export function isCodeIndex(text: string, at: number): boolean {
  // A marker after a space is a marker, whatever surrounds it.
  if (at === 0 || /\s/.test(text[at - 1]!)) return false;
  if ((text.slice(0, at).match(/`/g)?.length ?? 0) % 2 === 1) return true;
  const before = /[\w$.()]+$/.exec(text.slice(0, at))?.[0] ?? '';
  return /\.[A-Za-z_$]|[_$]|[a-z][A-Z]|\)$/.test(before);
}

/** Removes citation markers like `[1]` from a claim and tidies the space they leave. */
export function stripCitationMarkers(claim: string): string {
  const stripped = claim.replace(CITATION_MARKERS, (marker, at: number) =>
    marker.startsWith('[') && isCodeIndex(claim, at) ? marker : '',
  );
  return collapseWhitespace(stripped).replace(/\s+([.,;:!?])/g, '$1');
}

/** A range of the page text as text-node positions, end exclusive. */
export interface TextRange {
  start: TextPoint;
  end: TextPoint;
}

/** A `[start, end)` span of a normalised text. */
export interface Span {
  start: number;
  end: number;
}

/** Words whose period does not end a sentence ("e.g. the pool", "vs. the agent"), lower case. */
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'vs', 'cf', 'approx', 'incl', 'esp', 'fig', 'resp']);

/**
 * Splits normalised text into sentences at `.`, `!`, `?` followed by a space (not after a common
 * abbreviation) and at block boundaries.
 */
export function splitSentences(text: string, breaks: ReadonlySet<number> = new Set()): Span[] {
  const spans: Span[] = [];
  let start = 0;
  const push = (end: number): void => {
    let s = start;
    let e = end;
    while (s < e && text[s] === ' ') s++;
    while (e > s && text[e - 1] === ' ') e--;
    if (e > s) spans.push({ start: s, end: e });
  };
  for (let i = 0; i < text.length; i++) {
    if (breaks.has(i)) {
      push(i);
      start = i + 1;
      continue;
    }
    const c = text[i];
    if ((c === '.' || c === '!' || c === '?') && (i + 1 === text.length || text[i + 1] === ' ')) {
      if (c === '.' && i + 1 < text.length && isAbbreviation(text, i)) continue;
      push(i + 1);
      start = i + 1;
    }
  }
  push(text.length);
  return spans;
}

/** Whether the period at `dot` closes an abbreviation rather than a sentence ("no." before a number). */
function isAbbreviation(text: string, dot: number): boolean {
  const word = /[a-z.]+$/.exec(text.slice(Math.max(0, dot - 10), dot))?.[0] ?? '';
  if (ABBREVIATIONS.has(word)) return true;
  return word === 'no' && /^ \d/.test(text.slice(dot + 1, dot + 3));
}

const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her his how i ' +
    "if in into is it its it's of on or our she so than that the their them then there these they this " +
    'those to was we were what when where which who will with would you your not no also about after ' +
    'over under up out more most other some such only own same too very just s t'
  ).split(' '),
);

/** A light English stemmer: enough to match plurals and common verb forms. */
export function stem(word: string): string {
  let w = word.replace(/'s$/, '');
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith('es') && w.length > 4 && /(?:x|ch|sh|ss|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  else if (w.endsWith('ly') && w.length > 5) w = w.slice(0, -2);
  // Trailing `e` differs between "reduce" and "reduc(ed)": drop it so both stem alike.
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** Small numbers as words, matched to their digits ("one millisecond" and "Default: 1"). */
const NUMBER_WORDS = new Map(
  'zero one two three four five six seven eight nine ten eleven twelve'
    .split(' ')
    .map((w, i) => [w, String(i)]),
);

/**
 * Stemmed content words of a (normalised or raw) text: stop words dropped, numbers kept, small
 * numbers written as words given as digits (outside compounds).
 */
export function contentWords(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  for (const m of lower.matchAll(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu)) {
    const w = m[0];
    if (STOPWORDS.has(w)) continue;
    // A number word in a compound is no number ("zero-filled", "one-time").
    const compound = lower[m.index - 1] === '-' || lower[m.index + w.length] === '-';
    out.push((!compound && NUMBER_WORDS.get(w)) || stem(w));
  }
  return out;
}

/** Maps a span of the normalised text back to text-node positions. */
export function toRange(norm: NormalizedText, segments: TextSegments, span: Span): TextRange {
  const last = span.end - 1;
  const endNode = norm.node[last]!;
  const endOffset = norm.offset[last]!;
  const raw = segments.texts[endNode] ?? '';
  const code = raw.charCodeAt(endOffset);
  // The last character may be a surrogate pair: end after both halves.
  const width = code >= 0xd800 && code <= 0xdbff ? 2 : 1;
  return {
    start: { node: norm.node[span.start]!, offset: norm.offset[span.start]! },
    end: { node: endNode, offset: Math.min(raw.length, endOffset + width) },
  };
}

/** The raw page text of a range, whitespace collapsed, blocks joined by a space. */
export function rawText(segments: TextSegments, range: TextRange): string {
  const parts: string[] = [];
  for (let n = range.start.node; n <= range.end.node; n++) {
    const text = segments.texts[n] ?? '';
    const from = n === range.start.node ? range.start.offset : 0;
    const to = n === range.end.node ? range.end.offset : text.length;
    if (n > range.start.node && segments.blocks[n] !== segments.blocks[n - 1]) parts.push(' ');
    parts.push(text.slice(from, to));
  }
  return collapseWhitespace(parts.join(''));
}

/** Cosine similarity of two vectors (0 when either is all zeros or lengths differ). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
