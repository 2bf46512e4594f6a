/**
 * The report every recipe can write: `report.html`, self-contained (screenshots embedded as data
 * URIs, no script, a CSP that forbids loading anything) with every value escaped, and `report.json`
 * (the same data, screenshots as file paths instead of bytes).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isCodeIndex } from '../src/index.js';
import { splitSentences } from './support/sentences.js';
import type { CitationCheck, EvidenceSummary, Verdict } from './support/types.js';

/** A page shown in a report without a citation (scraped pages, bundles). */
export interface ReportPage {
  title: string;
  url: string;
  /** Short text shown under the title (an excerpt of the Markdown, a note). */
  text?: string | undefined;
  /** A PNG shown with the page. */
  image?: Buffer | undefined;
  /** Key/value facts (status, timings, extracted fields...). */
  facts?: Record<string, unknown> | undefined;
}

/** What a report shows; every part is optional but the title. */
export interface ReportData {
  /** Heading of the report, e.g. the recipe's name. */
  title: string;
  question?: string | null | undefined;
  answer?: string | null | undefined;
  citations?: readonly CitationCheck[] | undefined;
  summary?: EvidenceSummary | null | undefined;
  pages?: readonly ReportPage[] | undefined;
  /** Any further data, shown as JSON (e.g. structured extraction). */
  data?: unknown;
  /** ms per phase. */
  timings?: Record<string, number | null> | undefined;
}

/** Paths of the written report files. */
export interface ReportFiles {
  html: string;
  json: string;
}

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** An `href` only for http(s) URLs; anything else (javascript:, data:) renders as text. */
function link(url: string | null | undefined, label?: string): string {
  if (!url) return '';
  const safe = /^https?:\/\//i.test(url);
  const text = escapeHtml(label ?? url);
  return safe ? `<a href="${escapeHtml(url)}" rel="noreferrer noopener">${text}</a>` : text;
}

const png = (bytes: Buffer, alt: string): string =>
  `<img alt="${escapeHtml(alt)}" src="data:image/png;base64,${bytes.toString('base64')}">`;

const COLORS: Record<Verdict, string> = {
  supported: '#1b7f3b',
  contradicted: '#c92a2a',
  not_found: '#b26a00',
  blocked: '#a3122f',
  unreachable: '#555',
};

const badge = (v: Verdict): string =>
  `<span class="badge" style="background:${COLORS[v]}">${escapeHtml(v)}</span>`;

const anchor = (c: Pick<CitationCheck, 'sentenceIndex' | 'n'>): string =>
  `c-${c.sentenceIndex}-${c.n}`;

function renderAnswer(answer: string, checks: readonly CitationCheck[]): string {
  const byKey = new Map(checks.map((c) => [anchor(c), c]));
  return splitSentences(answer)
    .map((s) => {
      const text = escapeHtml(s.text);
      const body = text.replace(/\[(\d{1,3})\]/g, (whole, n: string, at: number) => {
        const c = isCodeIndex(text, at)
          ? undefined
          : byKey.get(anchor({ sentenceIndex: s.index, n: Number(n) }));
        if (!c) return whole;
        return `<a class="marker" style="color:${COLORS[c.verdict]}" href="#${anchor(c)}" title="${escapeHtml(c.verdict)}">[${escapeHtml(n)}]</a>`;
      });
      return `<span class="sentence">${body}</span>`;
    })
    .join(' ');
}

function renderFacts(facts: Record<string, unknown>): string {
  const rows = Object.entries(facts)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => {
      const value = typeof v === 'string' && /^https?:\/\//i.test(v) ? link(v) : escapeHtml(v);
      return `<tr><th>${escapeHtml(k)}</th><td>${value}</td></tr>`;
    });
  return rows.length ? `<table class="facts">${rows.join('')}</table>` : '';
}

function renderCitation(c: CitationCheck): string {
  const p = c.page;
  const facts = renderFacts({
    'HTTP status': p?.status,
    'final URL': p && p.finalUrl !== c.url ? p.finalUrl : null,
    'local file': p?.localSource,
    'fetch time': p ? `${p.fetchMs} ms` : null,
    'content type': p?.contentType,
    'content hash': p?.contentHash,
    rendered: p?.rendered === 'pdf-text' ? 'PDF text' : null,
    'found by': c.passage
      ? `${MATCH_LABELS[c.passage.method] ?? c.passage.method} (score ${c.passage.score})`
      : null,
  });
  const shots = c.screenshots
    ? `<figure>${png(c.screenshots.passage, `passage for [${c.n}]`)}</figure>
<details><summary>viewport</summary>${png(c.screenshots.viewport, `viewport for [${c.n}]`)}</details>`
    : '';
  return `<section class="citation" id="${anchor(c)}">
<h3>${badge(c.verdict)} [${escapeHtml(c.n)}] ${c.title ? escapeHtml(c.title) : ''}</h3>
<p class="url">${link(c.url) || '<em>no URL</em>'}</p>
<p class="claim">${escapeHtml(c.claim)}</p>
${c.passage ? `<blockquote${c.verdict === 'contradicted' ? ' class="conflict"' : ''}>${escapeHtml(c.passage.quote)}</blockquote><p>${link(c.passage.textFragmentUrl, 'open at the quote')}</p>` : ''}
${renderConflicts(c)}<p class="reason">${escapeHtml(c.reason)}</p>
${renderRecordingLink(c)}${facts}${shots}
</section>`;
}

/** A link to the moment of the session recording where this citation was captured. */
function renderRecordingLink(c: CitationCheck): string {
  if (!c.recording) return '';
  const at = `${(c.recording.offsetMs / 1000).toFixed(1)} s`;
  return `<p class="recording">${link(`${c.recording.url}#t=${Math.round(c.recording.offsetMs)}`, `replay the recording at ${at}`)}</p>
`;
}

/** What a contradicted claim states differently from its page, one line per conflict. */
function renderConflicts(c: CitationCheck): string {
  if (!c.conflicts?.length) return '';
  const rows = c.conflicts.map(
    (x) =>
      `<li>${escapeHtml(x.kind)}: the claim says <b>${escapeHtml(x.claim)}</b>, the page <b>${escapeHtml(x.page)}</b></li>`,
  );
  return `<ul class="conflicts">${rows.join('')}</ul>`;
}

function renderPage(p: ReportPage): string {
  return `<section class="page"><h3>${escapeHtml(p.title)}</h3><p class="url">${link(p.url)}</p>
${p.facts ? renderFacts(p.facts) : ''}${p.text ? `<pre>${escapeHtml(p.text)}</pre>` : ''}
${p.image ? `<details><summary>screenshot</summary>${png(p.image, p.title)}</details>` : ''}</section>`;
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:24px auto;padding:0 16px;color:#222}
.badge{color:#fff;border-radius:4px;padding:1px 6px;font-size:12px;text-transform:uppercase}
.marker{font-weight:600;text-decoration:none}.answer{background:#f6f6f6;padding:12px;border-radius:6px}
.citation,.page{border-top:1px solid #ddd;padding:8px 0}blockquote{border-left:4px solid #ffeb3b;margin:8px 0;padding:4px 12px;background:#fffbe0}
img{max-width:100%;border:1px solid #ccc}.facts th{text-align:left;padding-right:12px;font-weight:500;color:#555}
.facts td{word-break:break-all}pre{white-space:pre-wrap;background:#f6f6f6;padding:8px;max-height:360px;overflow:auto}
blockquote.conflict{border-left-color:#ff8a80;background:#fff0ee}.conflicts{color:#c92a2a;margin:4px 0}
.summary td,.summary th{padding:2px 10px}.reason{color:#555;font-size:13px}.url{font-size:13px;word-break:break-all}`;

const MATCH_LABELS: Record<string, string> = {
  exact: 'exact match',
  fuzzy: 'close match',
  semantic: 'same meaning',
  embedding: 'same meaning',
};

/** `answerMs` -> `answer`, `findPassage` -> `find passage`: the heading already says ms. */
function humanTimings(timings: Record<string, number | null>): Record<string, number | null> {
  return Object.fromEntries(
    Object.entries(timings).map(([key, ms]) => [
      key
        .replace(/Ms$/, '')
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase(),
      ms,
    ]),
  );
}

/** The report as one self-contained HTML document. */
export function renderReportHtml(data: ReportData): string {
  const s = data.summary;
  // A reader looks for the question asked, not the name of the function that asked it.
  const heading = data.question?.trim() || data.title;
  const parts = [
    `<!doctype html><html lang="en"><head><meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`,
    `<title>${escapeHtml(heading)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${escapeHtml(heading)}</h1>`,
    data.answer
      ? `<h2>Answer</h2><div class="answer">${renderAnswer(data.answer, data.citations ?? [])}</div>`
      : '',
    s
      ? `<table class="summary"><tr><th>supported</th><th>contradicted</th><th>not found</th><th>blocked</th><th>unreachable</th><th>score</th></tr><tr><td>${s.supported}</td><td>${s.contradicted ?? 0}</td><td>${s.not_found}</td><td>${s.blocked}</td><td>${s.unreachable}</td><td>${escapeHtml(s.score)}</td></tr></table>`
      : '',
    data.citations?.length
      ? `<h2>Citations</h2>${data.citations.map(renderCitation).join('\n')}`
      : '',
    data.pages?.length ? `<h2>Pages</h2>${data.pages.map(renderPage).join('\n')}` : '',
    data.data !== undefined
      ? `<h2>Data</h2><pre>${escapeHtml(JSON.stringify(data.data, jsonReplacer, 2))}</pre>`
      : '',
    data.timings ? `<h2>Timings (ms)</h2>${renderFacts(humanTimings(data.timings))}` : '',
    '</body></html>',
  ];
  return parts.filter(Boolean).join('\n');
}

/** Drops raw bytes from JSON output: screenshots are referenced by path there. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  const v = value as { type?: unknown; data?: unknown } | null;
  if (v && typeof v === 'object' && v.type === 'Buffer' && Array.isArray(v.data)) return undefined;
  return value;
}

/**
 * Writes `report.html` and `report.json` into `outDir` (created when missing).
 * @throws the file system's errors
 * @example const { html } = await writeReport({ title: 'Evidence', answer, citations }, 'out');
 */
export async function writeReport(data: ReportData, outDir: string): Promise<ReportFiles> {
  await mkdir(outDir, { recursive: true });
  const html = path.join(outDir, 'report.html');
  const json = path.join(outDir, 'report.json');
  await writeFile(html, renderReportHtml(data));
  await writeFile(json, `${JSON.stringify(data, jsonReplacer, 2)}\n`);
  return { html, json };
}
