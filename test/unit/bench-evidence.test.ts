import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CLAIM_KINDS,
  CLAIMS_FILE,
  FALSE_KINDS,
  docFile,
  loadClaimSet,
} from '../../bench/evidence/claims.js';
import type { ClaimSet } from '../../bench/evidence/claims.js';
import { negateClaim, swapNames } from '../../bench/evidence/negate.js';
import { replayRecord, tally } from '../../bench/evidence/replay.js';
import type { EvidenceRecord } from '../../bench/evidence/replay.js';
import { citationScores, scoreKinds } from '../../bench/evidence/score.js';
import type { ClaimResult } from '../../bench/evidence/score.js';
import { splitSentences } from '../../recipes/index.js';

const set = loadClaimSet();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-evidence-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Markdown source as running text: the decoration a renderer drops removed, spaces collapsed. */
const plain = (markdown: string): string =>
  markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*|__|`|^\s*>\s?|^\s*[-*+]\s+|^#+\s+/gm, '')
    .replace(/\*([^*\n]+)\*|\b_([^_\n]+)_\b/g, '$1$2')
    .replace(/\s+/g, ' ');

describe('the other claim sets', () => {
  const names = readdirSync(path.dirname(CLAIMS_FILE)).filter((n) => /^claims-.+\.json$/.test(n));

  it('load, name only documents that exist (npm docs and committed pages), and keep both splits', () => {
    expect(names.length).toBeGreaterThanOrEqual(6);
    for (const name of names) {
      const other = loadClaimSet(path.join(path.dirname(CLAIMS_FILE), name));
      for (const key of Object.keys(other.docs)) {
        expect(existsSync(docFile(key)), `${name}: ${key}`).toBe(true);
      }
      expect(other.claims.some((c) => c.split === 'dev')).toBe(true);
      expect(other.claims.some((c) => c.split === 'test')).toBe(true);
    }
  });

  it('hold claims that each read as one sentence of an answer, as the benchmark asks', () => {
    for (const name of [path.basename(CLAIMS_FILE), ...names]) {
      const other = loadClaimSet(path.join(path.dirname(CLAIMS_FILE), name));
      other.claims.forEach((c, i) => {
        const line = `${c.claim.replace(/[.!?]+$/, '')} [${i + 1}].`;
        expect(splitSentences(line), `${name}: ${c.id}`).toHaveLength(1);
      });
    }
  });
});

describe('the evidence claim set', () => {
  it('holds at least 150 claims, 30 of them hand-written paraphrases', () => {
    expect(set.claims.length).toBeGreaterThanOrEqual(150);
    expect(set.claims.filter((c) => c.kind === 'paraphrase').length).toBeGreaterThanOrEqual(30);
  });

  it('has every kind in both splits, each split holding about half of each kind', () => {
    for (const kind of CLAIM_KINDS) {
      const of = set.claims.filter((c) => c.kind === kind);
      const dev = of.filter((c) => c.split === 'dev').length;
      const test = of.filter((c) => c.split === 'test').length;
      expect(dev, `${kind} in dev`).toBeGreaterThan(0);
      expect(test, `${kind} in test`).toBeGreaterThan(0);
      expect(Math.abs(dev - test), `${kind} balance`).toBeLessThanOrEqual(Math.ceil(of.length / 4));
    }
  });

  it('names only documents that exist in node_modules', () => {
    for (const key of Object.keys(set.docs)) expect(existsSync(docFile(key)), key).toBe(true);
    for (const c of set.claims) {
      expect(set.docs[c.source], `${c.id} source`).toBeDefined();
      if (!/^(fixture|dead-port):/.test(c.cited)) expect(set.docs[c.cited], c.id).toBeDefined();
    }
  });

  it('copies each verbatim claim from its source document', () => {
    const text = new Map<string, string>();
    for (const c of set.claims.filter((x) => x.kind === 'verbatim')) {
      const doc = text.get(c.source) ?? plain(readFileSync(docFile(c.source), 'utf8'));
      text.set(c.source, doc);
      expect(doc.includes(c.claim), c.id).toBe(true);
    }
  });

  it('makes every claim exactly one sentence of an answer, looked up as written', () => {
    for (const c of set.claims) {
      const sentences = splitSentences(`${c.claim.replace(/[.!?]+$/, '')} [1].`);
      expect(sentences, c.id).toHaveLength(1);
      expect(sentences[0]!.claim, c.id).toBe(c.claim.replace(/[.!?]+$/, '.'));
    }
  });

  it('derives each false claim from a true claim of the same document, and changes it', () => {
    const byId = new Map(set.claims.map((c) => [c.id, c]));
    for (const c of set.claims.filter((x) => FALSE_KINDS.includes(x.kind))) {
      const base = byId.get(c.derivedFrom ?? '');
      expect(base?.expected, c.id).toBe('supported');
      expect(base?.source, c.id).toBe(c.source);
      if (c.kind === 'wrong_page') expect(c.cited, c.id).not.toBe(c.source);
      else expect(c.claim, c.id).not.toBe(base?.claim);
    }
  });

  it('rejects a set where a false claim accepts supported, naming the claim and field', () => {
    const bad: ClaimSet = JSON.parse(readFileSync(CLAIMS_FILE, 'utf8')) as ClaimSet;
    const i = bad.claims.findIndex((c) => c.kind === 'number');
    bad.claims[i]!.accepted.push('supported');
    const file = path.join(tmp, 'bad.json');
    writeFileSync(file, JSON.stringify(bad));
    expect(() => loadClaimSet(file)).toThrow(
      `claims[${i}] (${bad.claims[i]!.id}).accepted: a false claim can never be supported`,
    );
  });
});

describe('evidence scoring', () => {
  const claim = (kind: ClaimResult['claim']['kind'], split: 'dev' | 'test') =>
    set.claims.find((c) => c.kind === kind && c.split === split)!;
  const result = (
    c: ClaimResult['claim'],
    verdict: string,
    conflicts: unknown[] = [],
  ): ClaimResult => ({
    claim: c,
    verdict,
    right: (c.accepted as string[]).includes(verdict),
    reason: '',
    method: null,
    score: null,
    quote: null,
    conflicts,
  });

  it('counts contradicted as right for a changed number, and whether the conflict names a number', () => {
    const rows = scoreKinds([
      result(claim('number', 'dev'), 'contradicted', [{ kind: 'number', claim: '3', page: '5' }]),
      result(claim('number', 'test'), 'contradicted', [{ kind: 'term', claim: 'a', page: 'b' }]),
      result(claim('negation', 'dev'), 'supported'),
    ]);
    expect(rows).toMatchObject([
      { kind: 'number', n: 2, right: 2, contradictedShare: 1, kindNamedShare: 0.5 },
      { kind: 'negation', n: 1, right: 0, supportedShare: 1, kindNamedShare: null },
    ]);
  });

  it('scores ALCE-style precision over supported verdicts and recall over true claims', () => {
    const scores = citationScores([
      result(claim('verbatim', 'dev'), 'supported'),
      result(claim('paraphrase', 'dev'), 'not_found'),
      result(claim('number', 'dev'), 'supported'),
      result(claim('negation', 'dev'), 'contradicted'),
      result(claim('blocked', 'dev'), 'supported'),
    ]);
    expect(scores).toEqual({ precision: 0.5, recall: 0.5 });
  });
});

describe('evidence replay', () => {
  const find = (kind: ClaimResult['claim']['kind']) => set.claims.find((c) => c.kind === kind)!;
  const at = (quote: string) => ({
    method: 'exact' as const,
    score: 1,
    quote,
    domPath: 'p',
    rect: { x: 0, y: 0, width: 1, height: 1 },
    range: { start: { node: 0, offset: 0 }, end: { node: 0, offset: quote.length } },
  });

  it('judges recorded candidates again, and keeps the recorded verdict of a claim without any', async () => {
    const verbatim = set.claims.find((c) => c.kind === 'verbatim' && negateClaim(c.claim))!;
    const negation = find('negation');
    const wall = find('blocked');
    const url = 'http://127.0.0.1:1/docs/a';
    const record: EvidenceRecord = {
      schema: 1,
      claimsFile: CLAIMS_FILE,
      recordedAt: new Date().toISOString(),
      claims: [
        { id: verbatim.id, text: verbatim.claim, url, verdict: 'not_found' },
        { id: negation.id, text: negation.claim, url, verdict: 'supported' },
        { id: wall.id, text: wall.claim, url: 'http://127.0.0.1:1/wall', verdict: 'blocked' },
      ],
      pages: [
        {
          url,
          context: '',
          claims: [verbatim.claim, negation.claim],
          semantic: false,
          searches: [
            {
              claim: verbatim.claim,
              methods: ['exact', 'fuzzy'],
              scrolled: false,
              matches: [at(verbatim.claim)],
            },
            { claim: negation.claim, methods: ['exact', 'fuzzy'], scrolled: false, matches: [] },
          ],
        },
      ],
    };
    const replay = await replayRecord(record);
    // The verbatim claim, supported, is negated by rule and judged against its candidates.
    expect(negateClaim(verbatim.claim)).not.toBeNull();
    expect(replay.results[0]!.negated).toBe('contradicted');
    expect(replay.results.map((r) => [r.claim.id, r.recorded, r.verdict])).toEqual([
      [verbatim.id, 'not_found', 'supported'],
      [negation.id, 'supported', 'not_found'],
      [wall.id, 'blocked', 'blocked'],
    ]);
    // After scrolling, the negation claim's search is answered by the one made before.
    expect(replay.misses).toBe(0);
    expect(tally(replay.results)).toMatchObject({
      claims: 3,
      // A negation claim is right only when contradicted.
      right: 2,
      verbatim: [1, 1],
      falseSupported: [0, 1],
      negatedSupported: [0, 1],
      changed: 2,
    });
  });

  it('negates a claim by rule: a denial dropped, or the first verb phrase denied', () => {
    expect(negateClaim('The limit is 1 MiB.')).toBe('The limit is not 1 MiB.');
    expect(negateClaim("It doesn't gunzip for you.")).toBe('It does gunzip for you.');
    expect(negateClaim('tar-fs cannot do it.')).toBe('tar-fs can do it.');
    expect(negateClaim("Pako won't work.")).toBe('Pako will work.');
    expect(negateClaim('The pool keeps idle sockets open.')).toBe(
      'The pool does not keep idle sockets open.',
    );
    // "not only" is a limit, not a denial; "does nothing" has no verb phrase to deny.
    expect(negateClaim('It is not only fast.')).toBeNull();
    expect(negateClaim('-Cr does nothing here.')).toBeNull();
  });

  it('swaps two names the claim writes once each and its passage states', () => {
    const quote =
      'obug picks up enabled namespaces from the DEBUG environment variable in Node.js.';
    expect(swapNames('obug reads namespaces from the DEBUG variable in Node.js.', quote)).toBe(
      'obug reads namespaces from the Node.js variable in DEBUG.',
    );
    // A name the passage writes only inside another ("DEBUG" in "DEBUG_COLORS") is not stated.
    expect(
      swapNames('DEBUG_COLORS and DEBUG are read in Node.js.', 'DEBUG_COLORS in Node.js.'),
    ).toBe('Node.js and DEBUG are read in DEBUG_COLORS.');
    // A name the passage does not state, or that the claim writes twice, is left alone.
    expect(swapNames('Node.js reads DEBUG.', 'It reads DEBUG.')).toBeNull();
    expect(swapNames('DEBUG sets DEBUG in Node.js.', 'DEBUG sets DEBUG in Node.js.')).toBeNull();
  });
});
