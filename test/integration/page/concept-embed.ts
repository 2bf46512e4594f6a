/**
 * A real, deterministic embedding for tests: words are stemmed, mapped to concepts through a small
 * synonym table, and hashed into a 64-dimension bag of concepts. Paraphrases that share concepts
 * but no words land close together; unrelated text does not.
 */
import type { EmbedFn } from '../../../src/page/index.js';

const CONCEPTS: Record<string, string> = {
  drink: 'consume',
  drinking: 'consume',
  consuming: 'consume',
  consume: 'consume',
  java: 'coffee',
  coffee: 'coffee',
  breakfast: 'morning',
  morning: 'morning',
  improves: 'better',
  sharper: 'better',
  focus: 'attention',
  attention: 'attention',
  pupils: 'learner',
  students: 'learner',
  undergraduates: 'learner',
};

const DIMENSIONS = 64;

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Embeds one text as a normalised bag of hashed concepts. */
export function embedText(text: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    if (word.length < 3) continue;
    const concept = CONCEPTS[word] ?? word;
    v[fnv1a(concept) % DIMENSIONS]! += 1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

/** An {@link EmbedFn} over {@link embedText}; records the documents it was given. */
export function conceptEmbed(calls: string[][][] = []): EmbedFn {
  return async (documents) => {
    calls.push(documents);
    return documents.map((doc) => doc.map(embedText));
  };
}
