/**
 * The labelled claim sets of the evidence benchmark (`claims.json` beside this file, and the other
 * `claims-*.json` sets): claims about documents, each with the verdict a trustworthy checker gives
 * it. A document is either a file shipped in an installed npm package, named by package-relative
 * path (`undici/docs/docs/api/Client.md`) with the package version the labels were written against,
 * or a page committed under `pages/` beside this file (`pages/libffi/The-Basics.html`) with where it
 * came from, so every set is reproducible.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** How a claim relates to its cited page. */
export type ClaimKind =
  /** A sentence copied from the page. */
  | 'verbatim'
  /** Hand-written, same meaning as the page, other words. */
  | 'paraphrase'
  /** A true claim with a number or unit changed. */
  | 'number'
  /** A true claim with a negation added or removed (or an enabled/disabled style antonym). */
  | 'negation'
  /** A true claim with a key term swapped for a plausible other (option, class, name). */
  | 'term'
  /** A true claim with a comparative flipped (more/less, before/after, at least/at most). */
  | 'comparative'
  /** A true claim cited to another document of the collection. */
  | 'wrong_page'
  /** A claim cited to a challenge or login wall, or a 403/429 answer. */
  | 'blocked'
  /** A claim cited to a dead port or a 404/500 answer. */
  | 'unreachable';

/** Every kind, in table order. */
export const CLAIM_KINDS: readonly ClaimKind[] = [
  'verbatim',
  'paraphrase',
  'number',
  'negation',
  'term',
  'comparative',
  'wrong_page',
  'blocked',
  'unreachable',
];

/** Kinds whose claim is false on its cited page: a checker must never call them `supported`. */
export const FALSE_KINDS: readonly ClaimKind[] = [
  'number',
  'negation',
  'term',
  'comparative',
  'wrong_page',
];

/** Verdicts the benchmark knows (`contradicted` included, whether the checker has it yet or not). */
export const KNOWN_VERDICTS = [
  'supported',
  'contradicted',
  'not_found',
  'blocked',
  'unreachable',
] as const;

/** One verdict name. */
export type ExpectedVerdict = (typeof KNOWN_VERDICTS)[number];

/** A file shipped in an installed npm package; its key is `<package>/<path>`. */
export interface PackageDoc {
  /** npm package holding the file. */
  package: string;
  /** Version of the package the labels were written against. */
  version: string;
  /** Path inside the package. */
  path: string;
}

/** A page committed beside this file; its key is `file`. */
export interface RepoDoc {
  /** Path relative to this folder, under `pages/` (`pages/zlib/zlib_how.html`). */
  file: string;
  /** Where the page was copied from, byte for byte (package, version, original path). */
  origin: string;
}

/** A document of the collection. */
export type ClaimDoc = PackageDoc | RepoDoc;

/** True for a page committed under `pages/`, false for a file of an npm package. */
export const isRepoDoc = (doc: ClaimDoc): doc is RepoDoc => 'file' in doc;

/** One labelled claim. */
export interface LabelledClaim {
  /** Stable id, `<kind>-<nnn>`. */
  id: string;
  kind: ClaimKind;
  /** One sentence, as an answer would state it. */
  claim: string;
  /** The document the claim (or the true claim it derives from) comes from: a key of `docs`. */
  source: string;
  /**
   * What the claim cites: a key of `docs`, `fixture:/<path>` (a page of the fixture site) or
   * `dead-port:/` (a loopback port nobody listens on).
   */
  cited: string;
  /** The verdict a trustworthy checker gives. */
  expected: ExpectedVerdict;
  /** Every verdict counted right (`expected` first). */
  accepted: ExpectedVerdict[];
  /** `dev` claims may be used to tune a checker; `test` claims only to measure it. */
  split: 'dev' | 'test';
  /** Id of the true claim a false variant (or a wall citation) was made from. */
  derivedFrom?: string;
  /** What was changed, e.g. `5 -> 3`. */
  change?: string;
}

/** The whole file. */
export interface ClaimSet {
  schema: 1;
  description: string;
  docs: Record<string, ClaimDoc>;
  claims: LabelledClaim[];
}

/** Where the committed claim set lives. */
export const CLAIMS_FILE = fileURLToPath(new URL('./claims.json', import.meta.url));

/** The folder repo docs are resolved against (this file's folder). */
export const DOCS_ROOT = path.dirname(CLAIMS_FILE);

/** Keys under this prefix name repo docs; no npm package key may start with it. */
const PAGES_PREFIX = 'pages/';

const fail = (where: string, what: string): never => {
  throw new Error(`Invalid claim set: ${where}: ${what}`);
};

const nonEmpty = (value: unknown): boolean => typeof value === 'string' && value !== '';

/** Checks one entry of `docs`: either a package doc or a repo doc, keyed as its kind requires. */
function checkDoc(key: string, doc: ClaimDoc): void {
  const at = `docs["${key}"]`;
  if (!doc || typeof doc !== 'object') fail(at, 'expected an object');
  if ('file' in doc || 'origin' in doc) {
    for (const field of ['file', 'origin'] as const) {
      if (!nonEmpty((doc as RepoDoc)[field])) fail(`${at}.${field}`, 'missing');
    }
    const { file } = doc as RepoDoc;
    if (key !== file) fail(at, 'key of a repo doc is not its file');
    const normal = path.posix.normalize(file);
    if (!normal.startsWith(PAGES_PREFIX) || normal !== file) {
      fail(`${at}.file`, `expected a normalised path under ${PAGES_PREFIX}, got ${file}`);
    }
    return;
  }
  for (const field of ['package', 'version', 'path'] as const) {
    if (!nonEmpty((doc as PackageDoc)[field])) fail(`${at}.${field}`, 'missing (or file + origin)');
  }
  const pkg = doc as PackageDoc;
  if (key !== `${pkg.package}/${pkg.path}`) fail(at, 'key is not package/path');
  if (key.startsWith(PAGES_PREFIX)) fail(at, `package keys may not start with ${PAGES_PREFIX}`);
}

/**
 * Reads and checks a claim set: every field present and typed, each doc a package doc
 * (`package`, `version`, `path`) or a repo doc (`file` under `pages/`, `origin`), ids unique, kinds
 * and verdicts known, every cited and source document declared, false kinds never accepting
 * `supported`.
 * @default file CLAIMS_FILE
 * @throws Error naming the offending claim and field
 * @example const { claims } = loadClaimSet();
 */
export function loadClaimSet(file: string = CLAIMS_FILE): ClaimSet {
  const set = JSON.parse(readFileSync(file, 'utf8')) as ClaimSet;
  if (set.schema !== 1) fail('schema', `expected 1, got ${String(set.schema)}`);
  if (!set.docs || typeof set.docs !== 'object') fail('docs', 'missing');
  for (const [key, doc] of Object.entries(set.docs)) checkDoc(key, doc);
  if (!Array.isArray(set.claims)) fail('claims', 'missing');
  const ids = new Set<string>();
  for (const [i, c] of set.claims.entries()) {
    const at = `claims[${i}]${typeof c.id === 'string' ? ` (${c.id})` : ''}`;
    for (const field of ['id', 'claim', 'source', 'cited', 'expected'] as const) {
      if (typeof c[field] !== 'string' || !c[field]) fail(`${at}.${field}`, 'missing');
    }
    if (ids.has(c.id)) fail(`${at}.id`, 'duplicate');
    ids.add(c.id);
    if (!CLAIM_KINDS.includes(c.kind)) fail(`${at}.kind`, `unknown kind ${String(c.kind)}`);
    if (c.split !== 'dev' && c.split !== 'test') fail(`${at}.split`, 'expected dev or test');
    if (!Array.isArray(c.accepted) || c.accepted[0] !== c.expected) {
      fail(`${at}.accepted`, 'must start with expected');
    }
    for (const v of c.accepted) {
      if (!KNOWN_VERDICTS.includes(v)) fail(`${at}.accepted`, `unknown verdict ${String(v)}`);
    }
    if (FALSE_KINDS.includes(c.kind) && c.accepted.includes('supported')) {
      fail(`${at}.accepted`, 'a false claim can never be supported');
    }
    if (!set.docs[c.source]) fail(`${at}.source`, `undeclared doc ${c.source}`);
    const external = /^(fixture:\/|dead-port:\/)/.test(c.cited);
    if (!external && !set.docs[c.cited]) fail(`${at}.cited`, `undeclared doc ${c.cited}`);
    if (external !== (c.kind === 'blocked' || c.kind === 'unreachable')) {
      fail(`${at}.cited`, 'only blocked and unreachable claims cite fixtures or dead ports');
    }
  }
  return set;
}

/**
 * Absolute path of a doc of a set: a repo doc (key under `pages/`) under {@link DOCS_ROOT}, a
 * package doc under `nodeModules`.
 * @default nodeModules path.resolve('node_modules')
 */
export function docFile(key: string, nodeModules = path.resolve('node_modules')): string {
  if (key.startsWith(PAGES_PREFIX)) return path.resolve(DOCS_ROOT, key);
  return path.join(nodeModules, key);
}

/**
 * Docs whose file differs from the one the labels were written against: a package doc whose
 * installed package version differs (or that is not installed), a repo doc whose file is missing.
 * @default nodeModules path.resolve('node_modules')
 */
export function versionDrift(
  set: ClaimSet,
  nodeModules = path.resolve('node_modules'),
): { package: string; labelled: string; installed: string | null }[] {
  const seen = new Map<string, string>();
  const drift: { package: string; labelled: string; installed: string | null }[] = [];
  for (const [key, doc] of Object.entries(set.docs)) {
    if (!isRepoDoc(doc)) seen.set(doc.package, doc.version);
    else if (!existsSync(docFile(key, nodeModules))) {
      drift.push({ package: key, labelled: doc.origin, installed: null });
    }
  }
  for (const [pkg, labelled] of seen) {
    const file = path.join(nodeModules, pkg, 'package.json');
    const installed = existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
      : null;
    if (installed !== labelled) drift.push({ package: pkg, labelled, installed });
  }
  return drift;
}
