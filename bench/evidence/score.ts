/**
 * Scoring of the evidence benchmark: per-kind accuracy, the issue's targets, and ALCE-style
 * citation precision and recall, from the verdict each labelled claim got.
 */
import { table } from '../../recipes/support/script.js';
import { CLAIM_KINDS, FALSE_KINDS } from './claims.js';
import type { ClaimKind, LabelledClaim } from './claims.js';

/** The verdict one claim got. `verdict` is a plain string so verdicts added later still score. */
export interface ClaimResult {
  claim: LabelledClaim;
  verdict: string;
  right: boolean;
  reason: string;
  method: string | null;
  score: number | null;
  quote: string | null;
  /** What conflicts, when the checker reports it (`contradicted`): `{ kind, claim, page }` each. */
  conflicts: unknown[];
}

/** One row of the per-kind table. */
export interface KindRow {
  kind: ClaimKind;
  n: number;
  right: number;
  /** Shares in 0..1, `null` when `n` is 0. */
  rightShare: number | null;
  supportedShare: number | null;
  contradictedShare: number | null;
  notFoundShare: number | null;
  /** Of the contradicted verdicts, the share whose conflicts name this kind (number, negation...). */
  kindNamedShare: number | null;
  devRightShare: number | null;
  testRightShare: number | null;
}

/** One target of the issue, measured on all claims and per split. */
export interface TargetRow {
  measure: string;
  all: number | null;
  dev: number | null;
  test: number | null;
  /** Human form of the target, e.g. `>= 85%`. */
  target: string;
  met: boolean | null;
}

const share = (hits: number, n: number): number | null => (n === 0 ? null : hits / n);
const count = <T>(items: readonly T[], pred: (t: T) => boolean): number =>
  items.filter(pred).length;

/** True when one of the result's conflicts has the claim's kind (`number` for a number claim). */
function namesKind(r: ClaimResult): boolean {
  return r.conflicts.some((c) => (c as { kind?: unknown } | null)?.kind === r.claim.kind);
}

/** Right, supported, contradicted and not_found shares per kind, with the split columns. */
export function scoreKinds(results: readonly ClaimResult[]): KindRow[] {
  return CLAIM_KINDS.map((kind) => {
    const rs = results.filter((r) => r.claim.kind === kind);
    const dev = rs.filter((r) => r.claim.split === 'dev');
    const test = rs.filter((r) => r.claim.split === 'test');
    const n = rs.length;
    const contradicted = rs.filter((r) => r.verdict === 'contradicted');
    return {
      kind,
      n,
      right: count(rs, (r) => r.right),
      rightShare: share(
        count(rs, (r) => r.right),
        n,
      ),
      supportedShare: share(
        count(rs, (r) => r.verdict === 'supported'),
        n,
      ),
      contradictedShare: share(
        count(rs, (r) => r.verdict === 'contradicted'),
        n,
      ),
      notFoundShare: share(
        count(rs, (r) => r.verdict === 'not_found'),
        n,
      ),
      kindNamedShare: share(count(contradicted, namesKind), contradicted.length),
      devRightShare: share(
        count(dev, (r) => r.right),
        dev.length,
      ),
      testRightShare: share(
        count(test, (r) => r.right),
        test.length,
      ),
    };
  }).filter((row) => row.n > 0);
}

/**
 * ALCE-style citation scores, with the labels as the judge: each citation either truly supports
 * its sentence (verbatim, paraphrase) or not (the false kinds). Recall: of the citations that
 * support their sentence, the share judged `supported`. Precision: of the citations judged
 * `supported`, the share that support their sentence. Walls and dead links count in neither.
 */
export function citationScores(results: readonly ClaimResult[]): {
  precision: number | null;
  recall: number | null;
} {
  const judged = results.filter(
    (r) => r.claim.kind !== 'blocked' && r.claim.kind !== 'unreachable',
  );
  const truly = (r: ClaimResult) => r.claim.expected === 'supported';
  const saidSupported = judged.filter((r) => r.verdict === 'supported');
  const trulySupported = judged.filter(truly);
  return {
    precision: share(count(saidSupported, truly), saidSupported.length),
    recall: share(
      count(trulySupported, (r) => r.verdict === 'supported'),
      trulySupported.length,
    ),
  };
}

function measures(rs: readonly ClaimResult[]): Record<string, number | null> {
  const of = (kinds: readonly ClaimKind[]) => rs.filter((r) => kinds.includes(r.claim.kind));
  const rate = (items: readonly ClaimResult[], pred: (r: ClaimResult) => boolean) =>
    share(count(items, pred), items.length);
  const supported = (r: ClaimResult) => r.verdict === 'supported';
  const cites = citationScores(rs);
  return {
    verbatim: rate(of(['verbatim']), supported),
    paraphrase: rate(of(['paraphrase']), supported),
    falseSupported: rate(of(FALSE_KINDS), supported),
    contradicted: rate(of(['number', 'negation']), (r) => r.verdict === 'contradicted'),
    walls: rate(of(['blocked', 'unreachable']), (r) => r.right),
    precision: cites.precision,
    recall: cites.recall,
  };
}

/** The issue's targets on all claims and per split; `claimsPerSecond` is the run's rate. */
export function scoreTargets(
  results: readonly ClaimResult[],
  claimsPerSecond: number,
): TargetRow[] {
  const all = measures(results);
  const dev = measures(results.filter((r) => r.claim.split === 'dev'));
  const test = measures(results.filter((r) => r.claim.split === 'test'));
  const row = (
    key: string,
    measure: string,
    target: string,
    ok: ((v: number) => boolean) | null,
  ): TargetRow => {
    const v = all[key] ?? null;
    return {
      measure,
      all: v,
      dev: dev[key] ?? null,
      test: test[key] ?? null,
      target,
      met: ok && v !== null ? ok(v) : null,
    };
  };
  return [
    row('verbatim', 'verbatim judged supported', '100%', (v) => v >= 1),
    row('paraphrase', 'paraphrase judged supported', '>= 85%', (v) => v >= 0.85),
    row('falseSupported', 'false claims judged supported', '<= 5%', (v) => v <= 0.05),
    row('contradicted', 'number+negation judged contradicted', '>= 80%', (v) => v >= 0.8),
    row('walls', 'blocked/unreachable right', '100%', (v) => v >= 1),
    row('precision', 'citation precision (ALCE-style)', '-', null),
    row('recall', 'citation recall (ALCE-style)', '-', null),
    {
      measure: 'claims checked per second',
      all: claimsPerSecond,
      dev: null,
      test: null,
      target: '>= 3.5',
      met: claimsPerSecond >= 3.5,
    },
  ];
}

const pct = (v: number | null): string => (v === null ? '-' : `${(v * 100).toFixed(1)}%`);

/** The per-kind table and the targets, as printed text. */
export function renderScores(kinds: readonly KindRow[], targets: readonly TargetRow[]): string {
  const kindTable = table([
    [
      'kind',
      'n',
      'right',
      'right %',
      'supported %',
      'contradicted %',
      'not_found %',
      'kind named %',
      'dev right %',
      'test right %',
    ],
    ...kinds.map((k) => [
      k.kind,
      k.n,
      k.right,
      pct(k.rightShare),
      pct(k.supportedShare),
      pct(k.contradictedShare),
      pct(k.notFoundShare),
      FALSE_KINDS.includes(k.kind) && k.kind !== 'wrong_page' ? pct(k.kindNamedShare) : '',
      pct(k.devRightShare),
      pct(k.testRightShare),
    ]),
  ]);
  const targetTable = table([
    ['target', 'all', 'dev', 'test', 'wanted', 'met'],
    ...targets.map((t) => {
      const fmt = (v: number | null) =>
        t.measure.startsWith('claims') ? (v === null ? '-' : v.toFixed(2)) : pct(v);
      return [
        t.measure,
        fmt(t.all),
        fmt(t.dev),
        fmt(t.test),
        t.target,
        t.met === null ? '' : t.met ? 'yes' : 'NO',
      ];
    }),
  ]);
  return `${kindTable}\n\n${targetTable}`;
}

/** One wrong verdict per block: the claim, the cited page, the deciding quote, the conflicts. */
export function renderWrong(results: readonly ClaimResult[]): string {
  return results
    .filter((r) => !r.right)
    .map((r) => {
      const c = r.claim;
      const lines = [
        `${c.id} [${c.kind}${c.change ? `: ${c.change}` : ''}] expected ${c.accepted.join(' or ')}, got ${r.verdict}: ${r.reason}`,
        `  claim: ${c.claim}`,
        `  cited: ${c.cited}`,
      ];
      if (r.quote) lines.push(`  quote: ${r.quote}`);
      if (r.conflicts.length > 0) lines.push(`  conflicts: ${JSON.stringify(r.conflicts)}`);
      return lines.join('\n');
    })
    .join('\n\n');
}
