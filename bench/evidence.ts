// Evidence verdicts you can trust: `npx tsx bench/evidence.ts [--split dev|test|all] [--throughput]`.
//
// Work: the labelled claim set in bench/evidence/claims.json (claims about the Markdown docs shipped
// in installed packages: verbatim sentences, hand-written paraphrases, and false variants with a
// changed number, a flipped negation, a swapped term, a flipped comparative, or a true sentence
// cited to the wrong page; plus claims citing challenge/login walls, error statuses and a dead port).
// `--claims` runs another set: claims-holdout.json (twelve other READMEs), claims-fresh.json (five
// more READMEs and five real HTML pages committed under bench/evidence/pages/) or claims-unseen.json
// (five more READMEs and five more real HTML pages: the Valgrind FAQ, the GNU time, Ninja and bzip2
// manuals and base-passwd's users-and-groups document) or claims-novel.json (four more READMEs and
// four more real HTML pages, each from another generator: fontconfig's DocBook man page, libxslt's
// internals page, the X Transport Interface, the Expat reference) or claims-sixth.json (four
// pages of the Node.js API docs and four more READMEs, written by annotators who never saw the
// checker) or claims-seventh.json (two more Node.js API pages, the bc manual, a chapter of the
// shared MIME-info spec and four more READMEs, written the same way) or claims-eighth.json (two
// more Node.js API pages, two chapters of the Valgrind manual and four more READMEs, written the
// same way) or claims-ninth.json (the zlib and worker_threads API pages, Cachegrind's chapter of
// the Valgrind manual, the xsltproc man page and four more READMEs, written the same way) or
// claims-tenth.json (the console and cluster API pages, the GCC 12 release notes, libxslt's
// extended tutorial and four more READMEs, written the same way) or claims-eleventh.json (the repl
// and https API pages, Helgrind's chapter of the Valgrind manual, libxslt's first tutorial and four
// more READMEs, written the same way) or claims-twelfth.json (the diagnostics_channel and v8 API
// pages, libxslt's page on writing extensions, the Nettle manual and four more READMEs, written the
// same way) or claims-thirteenth.json (the async_context and vm API pages, libtasn1's API
// reference, SQLite's release history and four more READMEs, written the same way) or
// claims-fourteenth.json (the report and single-executable-applications API pages, the git-gc
// manual page, PostgreSQL's numeric types section and four more READMEs, written the same way)
// or claims-fifteenth.json (the net and child_process API pages, the "Invoking diff" chapter of
// the GNU Diffutils manual, Python's tempfile page and four more READMEs, written the same way)
// or claims-sixteenth.json (the perf_hooks and url API pages, Apache httpd's mod_deflate page,
// the retry chapter of the Exim specification and four more READMEs, written the same way) or
// claims-seventeenth.json (the events and modules API pages, NTPsec's rate management page, the
// Zsh manual's arithmetic chapter and four more READMEs, written the same way) or
// claims-eighteenth.json (Python's logging.handlers and hashlib pages, Postfix's tuning and
// postscreen guides and four more READMEs, written the same way) or claims-nineteenth.json
// (HAProxy's starter guide, plain text in <pre> blocks; rsyslog's imfile page, FFmpeg's protocols
// manual, Knot DNS's configuration reference and the zod-to-json-schema, obug, source-map-js and
// @tootallnate/quickjs-emscripten READMEs, written the same way) or claims-twentieth.json (Lynx's
// Options Menu help, the Fetchmail FAQ, the ncurses(3x) man page, BIND 9.18's release notes and
// the ip-address, linkedom, @isaacs/nonrecursive-glob-match and unpdf READMEs, written the same
// way) or claims-twentyfirst.json (the Debian FAQ's chapter on package management, Jinja's
// changelog, the xmllint(1) man page, Go's assembler guide and the uri-js, type-check,
// pg-connection-string and htmlparser2 READMEs, written the same way) or
// claims-twentysecond.json (Privoxy's FAQ section on configuration, MIT Kerberos's features page,
// Flask's configuration page, the varnishd(1) man page and the eventsource, entities, wink-nlp and
// @xmldom/xmldom READMEs, written the same way) or claims-twentythird.json (the Mutt manual's
// chapter on optional features, the GNU gettext FAQ, the Advanced Usage page of the Requests
// documentation, the Mail Variables node of the GNU Mailutils manual and the ajv, type-is, jose and
// @jridgewell/sourcemap-codec READMEs, written the same way) or claims-twentyfourth.json (the
// cupsd.conf(5) man page, the nano FAQ, the pam_namespace section of the Linux-PAM guide, Click's
// Options page and the express, expect-type, eslint and fast-check READMEs, written the same way)
// or claims-twentyfifth.json (the Vim user manual's chapter on settings, the Docutils FAQ, the
// sphinx-build man page, GLib's GVariant Text Format page and the chromium-bidi,
// typed-query-selector, @modelcontextprotocol/sdk and @eslint/plugin-kit READMEs, written the same
// way) or claims-twentysixth.json (the Table of Contents page of the Python-Markdown documentation,
// the Graphviz command-line page, the Serving WSGI Applications page of the Werkzeug documentation,
// the Developer's Duties chapter of the Debian Developer's Reference and the lop,
// @eslint/object-schema, bare-stream and ast-types READMEs, written the same way) or
// claims-twentyseventh.json (the Limits control section of the GNU M4 manual, the Interface To
// [gt]roff chapter of Making Pictures With GNU PIC, the Serialization Interface page of the
// ItsDangerous documentation, The Interface chapter of the APT User's Guide and the finalhandler,
// file-entry-cache, convert-source-map and negotiator READMEs, written the same way) or
// claims-twentyeighth.json (the Options for Scanner Speed and Size section of the flex manual, the
// dbus-send manual page, the Hashing page of the attrs documentation, the w3m FAQ and the
// get-stream, pgpass, cross-spawn and on-finished READMEs, written the same way) or
// claims-twentyninth.json (the recover help file of the Vim reference manual, the Running GLib
// Applications page of the GLib Reference Manual, the Installation page of the watchdog
// documentation, the Lunr.js README page and the tar-fs, async-exit-hook, mitt and glob-parent
// READMEs, written the same way) or claims-thirtieth.json (the Notes on the Different Suggestion
// Modes section of the GNU Aspell manual, the Understanding and managing package trust section of
// the aptitude user's manual, the Quickstart guide of the Cyrus SASL documentation, the tig(1)
// manual page and the split2, imurmurhash, encodeurl and flatted READMEs, written the same way) or
// claims-thirtyfirst.json (the Installation on Unix section of the FFTW manual, the File system
// limits and control section of the Securing Debian Manual, the PuTTY download keys appendix, the
// Command Line Interface page of the Pygments documentation and the brace-expansion,
// @mixmark-io/domino, webidl-conversions and pg-types READMEs, written the same way) or
// claims-thirtysecond.json (the Reporting and handling bugs chapter of the Debian Linux Kernel
// Handbook, the Resources page of the ImageMagick documentation, the cmake-policies(7) manual of
// CMake, the Description of the Self-Tests appendix of the Libgcrypt Reference Manual and the
// mime-db, punycode, html-escaper and esutils READMEs, written the same way; its test split is the
// one nobody has looked at).
// The embedded service is started and indexes the docs the set cites, exactly as `npm run demo`
// does; each claim becomes one sentence "claim [n]." of a single answer whose citations are the
// docs' signed URLs (found through search, as a user would get them), and verifyAnswer checks the
// whole answer: every page loaded once, all of its claims looked up on it.
//
// Prints one report: per kind, the claims judged right (the expected verdict; for term and
// comparative `contradicted` or `not_found`; never `supported` for a false claim) and the shares
// judged supported / contradicted / not_found, per split; then the targets:
// - verbatim and paraphrase judged supported; false claims (number, negation, term, comparative,
//   wrong_page) judged supported; number + negation judged contradicted; walls and dead links right;
// - ALCE-style citation precision and recall, with the labels as the judge: recall = of the
//   citations whose page supports the sentence (verbatim, paraphrase), the share judged supported;
//   precision = of the citations judged supported, the share whose page supports the sentence
//   (walls and dead links in neither);
// - claims checked per second (screenshots off, `--pool`, browsers launched inside the timing).
// `--throughput` adds claims per second with screenshots off and on at pools 1, 2 and 4.
// A claim whose check timed out (a busy machine) is checked once more outside the timing, and the
// report says how many (`--no-retry` keeps the first verdicts).
// `--out` writes the wrong verdicts per split (wrong-dev.txt, wrong-test.txt).
// `--record FILE` also keeps every page's candidate passages (see recipes/support/locate.ts);
// `--replay FILE...` then judges those candidates again with the current code, without a browser,
// and prints per record: claims judged right, verbatim and paraphrase supported, false claims
// supported, number+negation contradicted, supported true claims still supported once negated by
// rule (bench/evidence/negate.ts), verdicts changed since the recording (`--changes` lists the dev
// ones). A change of the verifier is measured on every claim set in seconds; a change of
// what the page step finds (reading, passage units, search, statement splitting) needs a new
// recording.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { verifyAnswer } from '../recipes/index.js';
import type { AnswerInput, CitationCheck } from '../recipes/index.js';
import { table } from '../recipes/support/script.js';
import { LOCATE_CHANNEL } from '../recipes/support/locate.js';
import type { LocateRecord } from '../recipes/support/locate.js';
import { splitSentences } from '../recipes/support/sentences.js';
import type { Client } from '../src/index.js';
import type { RunningServer } from '../src/server/index.js';
import { deadPort, startFixtureServer } from '../test/support/fixture-server.js';
import { startBenchService } from './support/service.js';
import {
  CLAIM_KINDS,
  CLAIMS_FILE,
  docFile,
  loadClaimSet,
  versionDrift,
} from './evidence/claims.js';
import type { ClaimKind, LabelledClaim } from './evidence/claims.js';
import { renderScores, renderWrong, scoreKinds, scoreTargets } from './evidence/score.js';
import type { ClaimResult } from './evidence/score.js';
import { readRecord, renderChanges, renderReplays, replayRecord } from './evidence/replay.js';
import type { EvidenceRecord, Replay } from './evidence/replay.js';

const HELP = `usage: npx tsx bench/evidence.ts [options]
  --split dev|test|all   claims to run (default all; the table has per-split columns)
  --kind k1,k2           only these kinds (${CLAIM_KINDS.join(', ')})
  --ids id1,id2          only these claims
  --pool N               browsers at once for the accuracy run (default 2)
  --throughput           also claims/s with screenshots off and on at pools --pools
  --pools 1,2,4          pool sizes of --throughput (default 1,2,4)
  --throughput-claims N  claims per throughput run, every kind kept (default 60; 0 = all)
  --no-retry             keep verdicts that came after a timeout (default: check those claims again)
  --claims FILE          claim set (default bench/evidence/claims.json)
  --json FILE            write the report as JSON to FILE
  --out DIR              write latest.txt, latest.json, wrong-dev.txt and wrong-test.txt to DIR
  --record FILE          write the candidates of every page to FILE, for --replay
  --replay FILE...       judge the recorded candidates again with the current code (no browser);
                         --split counts those claims only
  --changes              with --replay, list the dev claims whose verdict changed
  --wrong                with --replay, list the dev claims judged wrong
  --help                 this text`;

interface Options {
  split: 'dev' | 'test' | 'all';
  kinds: ClaimKind[] | null;
  ids: string[] | null;
  pool: number;
  throughput: boolean;
  pools: number[];
  throughputClaims: number;
  retryTimeouts: boolean;
  claimsFile: string | undefined;
  json: string | undefined;
  out: string | undefined;
  record: string | undefined;
  /** Record files to replay; `null`: a real run. */
  replay: string[] | null;
  changes: boolean;
  wrong: boolean;
}

function parseOptions(): Options | null {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      split: { type: 'string', default: 'all' },
      kind: { type: 'string' },
      ids: { type: 'string' },
      pool: { type: 'string', default: '2' },
      throughput: { type: 'boolean', default: false },
      pools: { type: 'string', default: '1,2,4' },
      'throughput-claims': { type: 'string', default: '60' },
      'no-retry': { type: 'boolean', default: false },
      claims: { type: 'string' },
      json: { type: 'string' },
      out: { type: 'string' },
      record: { type: 'string' },
      replay: { type: 'boolean', default: false },
      changes: { type: 'boolean', default: false },
      wrong: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return null;
  if (values.replay !== positionals.length > 0) {
    throw new Error(
      values.replay
        ? 'Invalid option --replay: expected one or more record files'
        : `Unexpected argument ${positionals[0]}: record files come after --replay`,
    );
  }
  const split = values.split;
  if (split !== 'dev' && split !== 'test' && split !== 'all') {
    throw new Error(`Invalid option --split: expected dev, test or all, got ${split}`);
  }
  const kinds = values.kind ? (values.kind.split(',') as ClaimKind[]) : null;
  for (const k of kinds ?? []) {
    if (!CLAIM_KINDS.includes(k)) throw new Error(`Invalid option --kind: unknown kind ${k}`);
  }
  const positive = (name: string, s: string): number => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 1) throw new Error(`Invalid option --${name}: got ${s}`);
    return n;
  };
  return {
    split,
    kinds,
    ids: values.ids ? values.ids.split(',') : null,
    pool: positive('pool', values.pool),
    throughput: values.throughput,
    pools: values.pools.split(',').map((s) => positive('pools', s)),
    throughputClaims:
      values['throughput-claims'] === '0'
        ? 0
        : positive('throughput-claims', values['throughput-claims']),
    retryTimeouts: !values['no-retry'],
    claimsFile: values.claims,
    json: values.json,
    out: values.out,
    record: values.record,
    replay: values.replay ? positionals : null,
    changes: values.changes,
    wrong: values.wrong,
  };
}

/**
 * The signed URL of each indexed doc, as search gives it to a user: queries made of the doc's
 * claims and title until a result points at the doc's id.
 */
async function docUrls(
  client: Client,
  server: RunningServer,
  ids: ReadonlyMap<string, string>,
  claims: readonly LabelledClaim[],
): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  for (const [key, id] of ids) {
    const title = server.engines.index.getDocument(id)?.title ?? '';
    const [first, ...rest] = claims
      .filter((c) => c.source === key)
      .map((c) => `${title} ${c.claim}`);
    const queries = [first ?? title, title, ...rest].slice(0, 8);
    for (const query of queries) {
      const { results } = await client.search.create({ query, max_results: 20 });
      const hit = results.flat().find((r) => r.url.includes(`/docs/${id}?`));
      if (hit) {
        urls.set(key, hit.url);
        break;
      }
    }
    if (!urls.has(key)) throw new Error(`No search result points at ${key} (doc ${id})`);
  }
  return urls;
}

/** One sentence per claim, each citing its own page; citations deduplicated. */
function buildAnswer(claims: readonly LabelledClaim[], urlOf: (cited: string) => string) {
  const citations: string[] = [];
  const lines = claims.map((c) => {
    const url = urlOf(c.cited);
    let n = citations.indexOf(url) + 1;
    if (n === 0) n = citations.push(url);
    return `${c.claim.replace(/[.!?]+$/, '')} [${n}].`;
  });
  const answer: AnswerInput = { answer: lines.join('\n'), citations };
  return answer;
}

/** True when the verdict came after a step of the check ran out of time (not a claim's word). */
const timedOut = (r: ClaimResult): boolean =>
  /took longer than \d+ ?ms|timed out|timeout \d+ ?ms exceeded/i.test(r.reason);

function toResult(claim: LabelledClaim, check: CitationCheck | undefined): ClaimResult {
  // The verdict type may not list every verdict the checker gives: compare as strings.
  const verdict: string = check?.verdict ?? 'missing';
  // `conflicts` only exists once the checker reports contradictions: read it without its type.
  const raw = (check as unknown as { conflicts?: unknown } | undefined)?.conflicts;
  const conflicts = Array.isArray(raw) ? (raw as unknown[]) : [];
  return {
    claim,
    verdict,
    right: (claim.accepted as string[]).includes(verdict),
    reason: check?.reason ?? 'no check for this claim',
    method: check?.passage?.method ?? null,
    score: check?.passage?.score ?? null,
    quote: check?.passage?.quote ?? null,
    conflicts,
  };
}

async function check(
  client: Client,
  answer: AnswerInput,
  claims: readonly LabelledClaim[],
  poolSize: number,
  screenshots: boolean,
): Promise<{ results: ClaimResult[]; checks: (CitationCheck | undefined)[]; seconds: number }> {
  const started = performance.now();
  const r = await verifyAnswer(answer, {
    client,
    poolSize,
    provider: 'local',
    screenshots,
    report: false,
  });
  const seconds = (performance.now() - started) / 1000;
  const bySentence = new Map(r.citations.map((c) => [c.sentenceIndex, c]));
  // Each claim is one line of the answer and must read as one sentence: a claim read as two
  // would be checked in part, and every claim after it matched to its neighbour's check.
  answer.answer.split('\n').forEach((line, i) => {
    const n = splitSentences(line).length;
    if (n !== 1) throw new Error(`Claim ${claims[i]!.id} reads as ${n} sentences: ${line}`);
  });
  if (r.citations.length !== claims.length) {
    throw new Error(`Expected ${claims.length} checks, got ${r.citations.length}: a claim split`);
  }
  const checks = claims.map((_, i) => bySentence.get(i));
  return { results: claims.map((c, i) => toResult(c, checks[i])), checks, seconds };
}

/** Every `n / size`-th claim, so a smaller run keeps every kind; `size` 0 keeps all. */
function sampleClaims(claims: readonly LabelledClaim[], size: number): LabelledClaim[] {
  if (size === 0 || size >= claims.length) return [...claims];
  const step = claims.length / size;
  return Array.from({ length: size }, (_, i) => claims[Math.floor(i * step)]!);
}

interface ThroughputRow {
  screenshots: boolean;
  pool: number;
  seconds: number;
  rate: number;
}

/** Claims checked per second with screenshots off, then on, at each pool size. */
async function measureThroughput(
  client: Client,
  answer: AnswerInput,
  claims: readonly LabelledClaim[],
  pools: readonly number[],
): Promise<ThroughputRow[]> {
  const rows: ThroughputRow[] = [];
  for (const screenshots of [false, true]) {
    for (const pool of pools) {
      const run = await check(client, answer, claims, pool, screenshots);
      rows.push({ screenshots, pool, seconds: run.seconds, rate: claims.length / run.seconds });
    }
  }
  return rows;
}

/**
 * Writes what `--replay` reads: each claim with the page and the text it was
 * looked up as, and the candidates of every page (a page checked again after a timeout appears
 * twice; the later record counts).
 */
function writeRecord(
  file: string,
  claimsFile: string,
  results: readonly ClaimResult[],
  checks: readonly (CitationCheck | undefined)[],
  pages: readonly LocateRecord[],
): void {
  const record: EvidenceRecord = {
    schema: 1,
    claimsFile: path.relative(process.cwd(), path.resolve(claimsFile)),
    recordedAt: new Date().toISOString(),
    claims: results.map((r, i) => ({
      id: r.claim.id,
      text: checks[i]?.claim ?? null,
      url: checks[i]?.page?.finalUrl ?? null,
      verdict: r.verdict,
    })),
    pages: [...pages],
  };
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, `${JSON.stringify(record)}\n`);
}

async function main(): Promise<number> {
  const options = parseOptions();
  if (!options) {
    console.log(HELP);
    return 0;
  }
  if (options.replay) {
    const replays: Replay[] = [];
    for (const file of options.replay) replays.push(await replayRecord(readRecord(file)));
    console.log(
      `evidence replay: ${replays.length} record(s), split ${options.split}\n\n` +
        renderReplays(replays, options.split),
    );
    if (options.changes) console.log(`\n${renderChanges(replays)}`);
    if (options.wrong) {
      const dev = replays.flatMap((r) => r.results.filter((c) => c.claim.split === 'dev'));
      console.log(`\n${renderWrong(dev)}`);
    }
    return 0;
  }
  const set = loadClaimSet(options.claimsFile);
  const claims = set.claims.filter(
    (c) =>
      (options.split === 'all' || c.split === options.split) &&
      (!options.kinds || options.kinds.includes(c.kind)) &&
      (!options.ids || options.ids.includes(c.id)),
  );
  if (claims.length === 0) throw new Error('No claim matches --split, --kind and --ids');
  const drift = versionDrift(set);
  for (const d of drift) {
    console.warn(
      `note: ${d.package} is ${d.installed ?? 'not installed'}, the labels were written against ${d.labelled}`,
    );
  }
  const keys = [...new Set(claims.flatMap((c) => [c.source, c.cited]))].filter((k) => set.docs[k]);
  const sites = await startFixtureServer();
  const dead = await deadPort();
  // Sessions come from the local provider, so the service's own warm pool would only compete.
  const { server, client, dataDir } = await startBenchService('evidence');
  try {
    const indexed = await server.engines.index.indexPaths(keys.map((k) => docFile(k)));
    if (indexed.failed.length > 0) {
      throw new Error(
        `Indexing failed: ${indexed.failed.map((f) => `${f.path} (${f.error})`).join(', ')}`,
      );
    }
    const ids = new Map<string, string>();
    for (const d of indexed.documents) {
      const k = keys.find((key) => docFile(key) === d.path);
      if (k && d.docId) ids.set(k, d.docId);
    }
    const urls = await docUrls(client, server, ids, claims);
    const urlOf = (cited: string): string => {
      if (cited.startsWith('fixture:/')) return `${sites.url}${cited.slice('fixture:'.length)}`;
      if (cited.startsWith('dead-port:/')) return `http://127.0.0.1:${dead}/`;
      const url = urls.get(cited);
      if (!url) throw new Error(`No URL for ${cited}`);
      return url;
    };
    const answer = buildAnswer(claims, urlOf);
    const pages: LocateRecord[] = [];
    const keep = (record: unknown): void => void pages.push(record as LocateRecord);
    if (options.record) subscribe(LOCATE_CHANNEL, keep);
    const { results, checks, seconds } = await check(client, answer, claims, options.pool, false);
    const rate = claims.length / seconds;
    // A step that ran out of time on a busy machine says nothing about the page: such claims are
    // checked once more (outside the timing) so the accuracy figures do not depend on the load.
    const late = results.flatMap((r, i) => (timedOut(r) ? [i] : []));
    let stillLate = 0;
    if (late.length > 0 && options.retryTimeouts) {
      const again = late.map((i) => claims[i]!);
      const rerun = await check(client, buildAnswer(again, urlOf), again, options.pool, false);
      late.forEach((i, j) => {
        results[i] = rerun.results[j]!;
        checks[i] = rerun.checks[j];
      });
      stillLate = rerun.results.filter(timedOut).length;
    }
    if (options.record) {
      unsubscribe(LOCATE_CHANNEL, keep);
      writeRecord(options.record, options.claimsFile ?? CLAIMS_FILE, results, checks, pages);
    }
    const kinds = scoreKinds(results);
    const targets = scoreTargets(results, rate);
    const load = os.loadavg().map((l) => l.toFixed(2));
    const head =
      `evidence verdicts: ${claims.length} claims (split ${options.split}${options.kinds ? `, kinds ${options.kinds.join(',')}` : ''}), ` +
      `${urls.size} docs + walls, pool ${options.pool}, screenshots off, ${seconds.toFixed(1)} s, ` +
      `${os.cpus().length} cores, load ${load.join(' ')}`;
    const lateNote = options.retryTimeouts
      ? `${late.length} claim(s) checked again after a step timed out; ${stillLate} timed out again`
      : `${late.length} verdict(s) came after a step timed out`;
    let text =
      `${head}\n\n${renderScores(kinds, targets)}` + (late.length > 0 ? `\n\n${lateNote}` : '');
    let throughput: ThroughputRow[] | null = null;
    if (options.throughput) {
      const sample = sampleClaims(claims, options.throughputClaims);
      throughput = await measureThroughput(
        client,
        buildAnswer(sample, urlOf),
        sample,
        options.pools,
      );
      text +=
        `\n\nthroughput: ${sample.length} claims (every kind) in one answer, browsers launched inside the timing\n\n` +
        table([
          ['screenshots', 'pool', 'claims', 'seconds', 'claims/s'],
          ...throughput.map((t) => [
            t.screenshots ? 'on' : 'off',
            t.pool,
            sample.length,
            t.seconds.toFixed(2),
            t.rate.toFixed(2),
          ]),
        ]);
    }
    console.log(`\n${text}`);
    const dev = results.filter((r) => r.claim.split === 'dev');
    const report = {
      generatedAt: new Date().toISOString(),
      machine: { cores: os.cpus().length, loadavg: os.loadavg() },
      claimSet: { claims: claims.length, split: options.split, kinds: options.kinds, drift },
      pool: options.pool,
      seconds,
      claimsPerSecond: rate,
      timedOut: { firstPass: late.length, afterRetry: options.retryTimeouts ? stillLate : null },
      kinds,
      targets,
      throughput,
      // Per-claim verdicts of the dev split only: the test split is for measuring, not tuning.
      devResults: dev.map((r) => ({
        id: r.claim.id,
        kind: r.claim.kind,
        accepted: r.claim.accepted,
        verdict: r.verdict,
        right: r.right,
        reason: r.reason,
        method: r.method,
        score: r.score,
        quote: r.quote,
        conflicts: r.conflicts,
      })),
    };
    const json = `${JSON.stringify(report, null, 2)}\n`;
    if (options.json) writeFileSync(options.json, json);
    if (options.out) {
      mkdirSync(options.out, { recursive: true });
      writeFileSync(path.join(options.out, 'latest.txt'), `${text}\n`);
      writeFileSync(path.join(options.out, 'latest.json'), json);
      writeFileSync(path.join(options.out, 'wrong-dev.txt'), `${renderWrong(dev)}\n`);
      const test = results.filter((r) => r.claim.split === 'test');
      writeFileSync(path.join(options.out, 'wrong-test.txt'), `${renderWrong(test)}\n`);
    }
    return 0;
  } finally {
    await client.close();
    await server.close();
    await sites.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
