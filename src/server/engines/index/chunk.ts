import type { Block, ChunkRecord, IndexImage } from './types.js';
import { countTokens } from '../../../protocol/tokens.js';

/** Chunk size targets, in tokens of the project tokenizer. */
export const CHUNK_DEFAULTS = {
  /** A chunk is closed at a paragraph boundary once it holds at least this many tokens. @default 120 */
  minTokens: 120,
  /** A chunk never grows past this unless a single sentence is longer. @default 250 */
  maxTokens: 250,
} as const;

/** One chunk before storage: offsets index into {@link LaidOutText.text}. */
export type DraftChunk = Omit<ChunkRecord, 'id' | 'docId'>;

/** The document text laid out from blocks, with its chunks and image positions. */
export interface LaidOutText {
  text: string;
  chunks: DraftChunk[];
  images: IndexImage[];
}

interface Piece {
  start: number;
  end: number;
  tokens: number;
  /** A heading piece always opens a new chunk. */
  headingLevel: number;
  headingPath: string[];
}

// Sentence ends: terminal punctuation (optionally closed by a quote or bracket) then whitespace,
// or a paragraph break (a heading has no final punctuation).
const SENTENCE_END = /[.!?…。！？]["'”’)\]]?\s+|\n\s*\n/gu;

/** Splits `text` into sentence spans `[start, end)` covering it exactly. */
export function sentenceSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let start = 0;
  for (const m of text.matchAll(SENTENCE_END)) {
    const end = m.index + m[0].length;
    spans.push([start, end]);
    start = end;
  }
  if (start < text.length) spans.push([start, text.length]);
  return spans;
}

/**
 * The rule under a pipe table's header row, as the readers keep a table (its lines joined by
 * spaces); the chunker cuts such a table between rows and the renderer reads it back.
 */
export const TABLE_RULE = /\|(?:\s*:?-{3,}:?\s*\|)+/;

/**
 * Splits a pipe table paragraph (`| a | b | | --- | --- | | 1 | 2 | | 3 | 4 |`) into spans
 * `[start, end)` covering it exactly, one per body row, the header and rule with the first: a
 * span after the first starts at the closing pipe of the row before it (`| | 3 | 4 |`), the form
 * the renderer reads as the continuation of a cut table. `null` when the paragraph is no table or
 * its cells do not line up with the header (`\|` is a pipe inside a cell).
 */
export function rowSpans(text: string): Array<[number, number]> | null {
  const rule = text.startsWith('|') ? TABLE_RULE.exec(text) : null;
  if (!rule) return null;
  const columns = rule[0].split('|').length - 2;
  const pipes = (from: number, to: number): number[] => {
    const out: number[] = [];
    for (let i = from; i < to; i++) if (text[i] === '|' && text[i - 1] !== '\\') out.push(i);
    return out;
  };
  if (pipes(0, rule.index).length !== columns + 1) return null;
  const body = pipes(rule.index + rule[0].length, text.length);
  if (body.length === 0 || body.length % (columns + 1) !== 0) return null;
  const spans: Array<[number, number]> = [];
  let start = 0;
  for (let r = 1; r < body.length / (columns + 1); r++) {
    const cut = body[r * (columns + 1) - 1]!;
    spans.push([start, cut]);
    start = cut;
  }
  spans.push([start, text.length]);
  return spans;
}

/** Splits a span at word boundaries into parts of at most `max` tokens (only for over-long sentences). */
function splitWords(text: string, base: number, max: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = 0;
  let lastBreak = -1;
  for (const m of text.matchAll(/\s+/g)) {
    const candidate = m.index;
    if (countTokens(text.slice(start, candidate)) > max && lastBreak > start) {
      out.push([base + start, base + lastBreak]);
      start = lastBreak;
    }
    lastBreak = m.index + m[0].length;
  }
  out.push([base + start, base + text.length]);
  return out.filter(([s, e]) => e > s);
}

/**
 * Lays blocks out as one text (blocks separated by a blank line) and cuts it into chunks: a heading
 * always starts a chunk; paragraphs accumulate until `minTokens`, never past `maxTokens`; a paragraph
 * over `maxTokens` is cut between sentences, and only a single over-long sentence is cut mid-sentence.
 *
 * @param blocks - Blocks from a format reader, in document order.
 * @param options - Token targets; see {@link CHUNK_DEFAULTS}.
 * @returns Text, chunks (whose `text` equals `text.slice(charStart, charEnd)`) and images with offsets.
 */
export function layoutAndChunk(
  blocks: readonly Block[],
  options: { minTokens?: number; maxTokens?: number } = {},
): LaidOutText {
  const minTokens = options.minTokens ?? CHUNK_DEFAULTS.minTokens;
  const maxTokens = options.maxTokens ?? CHUNK_DEFAULTS.maxTokens;
  let text = '';
  const pieces: Piece[] = [];
  const images: IndexImage[] = [];
  const headings: Array<{ level: number; text: string }> = [];

  for (const block of blocks) {
    if (block.kind === 'image') {
      images.push({ ...block.image, offset: text.length });
      continue;
    }
    const body = block.text.trim();
    if (body.length === 0) continue;
    if (text.length > 0) text += '\n\n';
    const start = text.length;
    text += body;
    if (block.kind === 'heading') {
      while (headings.length > 0 && headings[headings.length - 1]!.level >= block.level)
        headings.pop();
      headings.push({ level: block.level, text: body });
    }
    const headingPath = headings.map((h) => h.text);
    const tokens = countTokens(body);
    if (block.kind === 'heading' || tokens <= maxTokens) {
      const headingLevel = block.kind === 'heading' ? block.level : 0;
      pieces.push({ start, end: text.length, tokens, headingLevel, headingPath });
      continue;
    }
    // Over-long paragraph: sentence pieces, each still a unit the chunker never splits; a table's
    // rows, so that a cut never falls inside a cell.
    for (const [s, e] of rowSpans(body) ?? sentenceSpans(body)) {
      const sentence = body.slice(s, e);
      const t = countTokens(sentence);
      const parts =
        t > maxTokens ? splitWords(sentence, s, maxTokens) : [[s, e] as [number, number]];
      for (const [ps, pe] of parts) {
        const trimmedEnd = ps + body.slice(ps, pe).trimEnd().length;
        if (trimmedEnd <= ps) continue;
        const pieceTokens = countTokens(body.slice(ps, trimmedEnd));
        pieces.push({
          start: start + ps,
          end: start + trimmedEnd,
          tokens: pieceTokens,
          headingLevel: 0,
          headingPath,
        });
      }
    }
  }

  const chunks: DraftChunk[] = [];
  let current: Piece[] = [];
  let currentTokens = 0;
  const flush = (): void => {
    const first = current[0];
    const last = current[current.length - 1];
    if (!first || !last) return;
    // A run of leading headings (h1 then h2) carries the innermost one's path.
    let lead = first;
    for (const p of current) {
      if (p.headingLevel === 0) break;
      lead = p;
    }
    chunks.push({
      ordinal: chunks.length,
      headingPath: lead.headingPath,
      headingLevel: first.headingLevel,
      charStart: first.start,
      charEnd: last.end,
      text: text.slice(first.start, last.end),
      tokens: currentTokens,
    });
    current = [];
    currentTokens = 0;
  };
  for (const piece of pieces) {
    const onlyHeadings = current.every((p) => p.headingLevel > 0);
    if (piece.headingLevel > 0 && !onlyHeadings) flush();
    else if (
      current.length > 0 &&
      !onlyHeadings &&
      (currentTokens >= minTokens || currentTokens + piece.tokens > maxTokens)
    ) {
      flush();
    }
    current.push(piece);
    currentTokens += piece.tokens;
  }
  flush();
  return { text, chunks, images };
}
