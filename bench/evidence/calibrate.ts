// Calibrates the embedding step of passage finding: `npx tsx bench/evidence/calibrate.ts [--split dev]`.
//
// The threshold `minEmbeddingScore` (src/page/defaults.ts) decides which semantic candidates reach
// the verifier. This script measures, over the labelled claim set, the cosine of the best passage
// the embedding step finds (threshold off) for claims whose page supports them and for claims whose
// page does not:
// - paraphrase: hand-written paraphrases on their own page (the step should find them);
// - wrong_page: true sentences cited to another document of the same collection;
// - unrelated: the paraphrases cited to a document of another package.
// The vectors come exactly as `verifyAnswer` gets them: the embedded service is started, the docs
// are indexed and rendered as the service serves them, and the contextualized embeddings endpoint
// (the service's own sentence encoder, loaded in its worker) embeds the claim and the chunks.
// Prints the distribution per group; how often the chunks preselected for a claim (`maxEmbedChunks`,
// by shared rare words) hold its closest chunk over the whole page; then for each threshold the
// share of each group kept.
import { rmSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { contextualEmbed } from '../../recipes/support/evidence.js';
import { table } from '../../recipes/support/script.js';
import { CHROMIUM_ARGS, findChromium } from '../../src/chromium.js';
import { findPassages } from '../../src/index.js';
import { startBenchService } from '../support/service.js';
import { docFile, loadClaimSet } from './claims.js';
import type { LabelledClaim } from './claims.js';

type Group = 'paraphrase' | 'wrong_page' | 'unrelated';

const THRESHOLDS = [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7];

const pkg = (key: string): string => key.split('/')[0]!;

/** The claims to score, each with the document it is looked up on. */
function trials(claims: readonly LabelledClaim[], docs: readonly string[]) {
  const out: { group: Group; claim: string; doc: string }[] = [];
  for (const c of claims) {
    if (c.kind === 'paraphrase') {
      out.push({ group: 'paraphrase', claim: c.claim, doc: c.cited });
      // Another package's document, chosen by the claim's position so the choice is reproducible.
      const others = docs.filter((d) => pkg(d) !== pkg(c.source));
      const other = others[out.length % others.length];
      if (other) out.push({ group: 'unrelated', claim: c.claim, doc: other });
    } else if (c.kind === 'wrong_page') {
      out.push({ group: 'wrong_page', claim: c.claim, doc: c.cited });
    }
  }
  return out.filter((t) => docs.includes(t.doc));
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { split: { type: 'string', default: 'all' } } });
  const set = loadClaimSet();
  const claims = set.claims.filter((c) => values.split === 'all' || c.split === values.split);
  const docs = Object.keys(set.docs);
  const work = trials(claims, docs);
  const { server, client, dataDir } = await startBenchService('calibrate');
  const browser = await chromium.launch({
    executablePath: (await findChromium()).path,
    args: CHROMIUM_ARGS.filter((a) => !a.startsWith('--remote-debugging')),
  });
  try {
    const indexed = await server.engines.index.indexPaths(docs.map((d) => docFile(d)));
    const idOf = new Map(
      indexed.documents.flatMap((d) => {
        const k = docs.find((doc) => docFile(doc) === d.path);
        return k && d.docId ? [[k, d.docId] as const] : [];
      }),
    );
    const embed = contextualEmbed(client);
    const page = await browser.newPage();
    const scores: Record<Group, number[]> = { paraphrase: [], wrong_page: [], unrelated: [] };
    const preselection: number[] = [];
    const byDoc = new Map<string, typeof work>();
    for (const t of work) byDoc.set(t.doc, [...(byDoc.get(t.doc) ?? []), t]);
    for (const [doc, list] of byDoc) {
      const id = idOf.get(doc);
      if (!id) continue;
      await page.setContent(server.engines.index.renderDocumentHtml(id) ?? '');
      const cache = new Map<string, number[]>();
      for (const t of list) {
        const step = {
          methods: ['embedding'] as const,
          embed,
          cache,
          minEmbeddingScore: -1,
          // A whole page at once on a busy machine: time is not what this script measures.
          embedTimeout: 600_000,
        };
        const [best] = await findPassages(page, t.claim, { ...step, limit: 1 });
        scores[t.group].push(best?.score ?? 0);
        if (t.group !== 'paraphrase') continue;
        // The same claim over every chunk of the page: does the preselection (maxEmbedChunks)
        // keep the closest chunks?
        const top = await findPassages(page, t.claim, { ...step, limit: 3, maxEmbedChunks: 1e6 });
        const rank = top.findIndex((m) => m.quote === best?.quote);
        preselection.push(rank < 0 ? 3 : rank);
      }
    }
    for (const s of Object.values(scores)) s.sort((a, b) => a - b);
    const groups = Object.keys(scores) as Group[];
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(
      `best-passage cosine of the embedding step (${set.claims.length} claims, split ${values.split}, load ${load})\n`,
    );
    console.log(
      table([
        ['group', 'n', 'min', 'p10', 'p25', 'median', 'p75', 'p90', 'max'],
        ...groups.map((g) => [
          g,
          scores[g].length,
          ...[0, 0.1, 0.25, 0.5, 0.75, 0.9, 1].map((q) => quantile(scores[g], q).toFixed(3)),
        ]),
      ]),
    );
    const at = (r: number): number => preselection.filter((x) => x === r).length;
    console.log(
      `\nparaphrases whose best preselected chunk (maxEmbedChunks) ranks 1st / 2nd / 3rd / lower over all the page's chunks: ${at(0)} / ${at(1)} / ${at(2)} / ${at(3)}`,
    );
    console.log('\nshare of claims whose best passage reaches the threshold\n');
    console.log(
      table([
        ['threshold', ...groups],
        ...THRESHOLDS.map((t) => [
          t.toFixed(2),
          ...groups.map((g) => {
            const kept = scores[g].filter((s) => s >= t).length;
            return `${((100 * kept) / Math.max(1, scores[g].length)).toFixed(1)}%`;
          }),
        ]),
      ]),
    );
  } finally {
    await browser.close();
    await client.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
