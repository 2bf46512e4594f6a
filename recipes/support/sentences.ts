/** Splitting an answer into sentences and the `[n]` citation markers each one carries. */
import { isCodeIndex } from '../../src/index.js';

/** One sentence of an answer. */
export interface AnswerSentence {
  /** Position in the answer, from 0. */
  index: number;
  /** The sentence as written, markers included. */
  text: string;
  /** The sentence without markers or Markdown decoration: what a page should support. */
  claim: string;
  /** Marker numbers in order of appearance, duplicates removed (`[2][3]` -> `[2, 3]`). */
  markers: number[];
}

/** Words that open sentences, never a name after an initial. */
const OPENERS =
  /^(?:The|This|That|These|Those|Then|There|It|Its|In|If|A|An|And|But|Or|So|For|When|While|With|To|On|As|At|By|Of|We|You|They|He|She|I|Each|Every|All|No|Not|Use|See|Note)$/;

/** Abbreviations whose period does not end a sentence. */
const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'etc',
  'vs',
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'fig',
  'no',
  'approx',
  'cf',
]);

const MARKER = /\[(\d{1,3})\]/g;

/** Removes `<think>...</think>` blocks that reasoning models put before the answer. */
export function stripReasoning(answer: string): string {
  return answer.replace(/<think>[\s\S]*?(<\/think>|$)/g, '').trim();
}

/** Text of a sentence with markers and Markdown decoration removed. */
export function claimText(sentence: string): string {
  return sentence
    .replace(/(?:\s*\[\d{1,3}\])+/g, (markers, at: number) =>
      markers.startsWith('[') && isCodeIndex(sentence, at) ? markers : '',
    )
    .replace(/^\s*(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)/, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Splits an answer into sentences. A sentence ends at `.`, `!` or `?` followed by whitespace (a
 * marker right before the punctuation, as in `Claim [2].`, stays inside), or at a line break;
 * common abbreviations, decimals, and an ellipsis or a lone mark before a lower-case word do not
 * end one. Reasoning blocks are dropped first.
 * @example splitSentences('A is B [1]. C is D [2][3].').map((s) => s.markers) // [[1], [2, 3]]
 */
export function splitSentences(answer: string): AnswerSentence[] {
  const text = stripReasoning(answer);
  const pieces: string[] = [];
  for (const line of text.split(/\n+/)) {
    let start = 0;
    const end = /[.!?]+(?:["')\]]*)(?:\s*\[\d{1,3}\])*(?=\s|$)/g;
    for (let m = end.exec(line); m; m = end.exec(line)) {
      const before = line.slice(start, m.index);
      const lastWord = /([A-Za-z.]+)$/.exec(before)?.[1]?.toLowerCase() ?? '';
      if (m[0].startsWith('.') && m[0].length === 1 && ABBREVIATIONS.has(lastWord)) continue;
      // An ellipsis before a lower-case word elides inside the sentence ("xmlns:... attributes",
      // "setTypeParser(20, ...) with").
      if (/^\.{3}["')\]]*$/.test(m[0]) && /^\s+\p{Ll}/u.test(line.slice(m.index + m[0].length)))
        continue;
      // A mark standing alone as a word before a lower-case word is named, not ending anything
      // ("unless the pattern contains a . or options.dot is true").
      if (/^[.!?]$/.test(m[0]) && /\s$/.test(before) && /^\s+\p{Ll}/u.test(line.slice(m.index + 1)))
        continue;
      // An initial before a name ends no sentence ("maintained by C. Scott Ananian"); a letter
      // before a word that opens sentences does ("use plan B. Then ...").
      const next = /^\s+(\p{Lu}(?:\p{Ll}+|\.))/u.exec(line.slice(m.index + 1))?.[1];
      if (m[0] === '.' && /(?:^|\s)\p{Lu}$/u.test(before) && next && !OPENERS.test(next)) continue;
      pieces.push(line.slice(start, m.index + m[0].length));
      start = m.index + m[0].length;
    }
    pieces.push(line.slice(start));
  }
  const out: AnswerSentence[] = [];
  for (const piece of pieces) {
    const sentence = piece.trim();
    if (!sentence || !/[\p{L}\p{N}]/u.test(sentence)) continue;
    const markers: number[] = [];
    for (const m of sentence.matchAll(MARKER)) {
      if (isCodeIndex(sentence, m.index)) continue;
      const n = Number(m[1]);
      if (n > 0 && !markers.includes(n)) markers.push(n);
    }
    out.push({ index: out.length, text: sentence, claim: claimText(sentence), markers });
  }
  return out;
}
