import { TABLE_RULE } from './chunk.js';
import { escapeHtml } from './formats/plain.js';
import type { ChunkRecord, IndexImage, IndexedDocument } from './types.js';

const STYLE = `body{font:17px/1.6 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#222}
header dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;color:#555;font-size:.9rem}
section{scroll-margin-top:1rem}section:target{background:#fff8d6}img{max-width:100%;height:auto}
figure{margin:1rem 0}figcaption{color:#555;font-size:.9rem}`;

function imageHtml(img: IndexImage): string {
  const size =
    (img.width ? ` width="${img.width}"` : '') + (img.height ? ` height="${img.height}"` : '');
  // No figcaption: a page's caption is already part of the extracted text next to the image.
  return `<figure><img src="${escapeHtml(img.url)}" alt="${escapeHtml(img.alt)}"${size} loading="lazy"></figure>`;
}

/**
 * How many of a chunk's first paragraphs are headings: the chunker starts a chunk with its run of
 * headings (h2 then h3 with nothing between), the innermost of which ends its heading path.
 */
function leadingHeadings(chunk: ChunkRecord, paras: readonly string[]): number {
  if (chunk.headingLevel === 0) return 0;
  const path = chunk.headingPath;
  for (let k = Math.min(paras.length, path.length); k > 1; k--) {
    if (paras.slice(0, k).every((p, i) => p === path[path.length - k + i])) return k;
  }
  return 1;
}

/** The header of the last pipe table rendered: a long table's rows continue in later chunks. */
interface TableState {
  header: string[] | null;
}

/**
 * The rows of a pipe table paragraph (`| a | b | | --- | --- | | 1 | 2 |`), header row first; or of
 * the continuation of the last table (a long table is cut between sentences into several
 * paragraphs: `| | 3 | 4 |`, same header). `null` when the cells do not line up with the header.
 */
function pipeTable(para: string, state: TableState): string[][] | null {
  if (!para.startsWith('|')) return null;
  const cellsOf = (row: string): string[] =>
    row
      .trim()
      .replace(/^\|/, '')
      .replace(/(?<!\\)\|$/, '')
      .split(/(?<!\\)\|/)
      // `\|` is a pipe inside a cell.
      .map((c) => c.trim().replace(/\\\|/g, '|'));
  const rule = TABLE_RULE.exec(para);
  let header: string[];
  let body: string;
  if (rule) {
    header = cellsOf(para.slice(0, rule.index));
    body = para.slice(rule.index + rule[0].length).trim();
    if (header.length !== rule[0].split('|').length - 2) return null;
  } else if (state.header) {
    header = state.header;
    // The first pipe closes the row cut before this paragraph.
    body = para.replace(/^\|\s*(?=\|)/, '');
  } else return null;
  const columns = header.length;
  const rows: string[][] = [];
  if (body) {
    // Rows joined by a space: `| 1 | 2 | | 3 | 4 |` splits into cells with a blank between rows.
    const cells = cellsOf(body);
    if ((cells.length + 1) % (columns + 1) !== 0) return null;
    for (let i = 0; i < cells.length; i += columns + 1) {
      if (i > 0 && cells[i - 1] !== '') return null;
      rows.push(cells.slice(i, i + columns));
    }
  }
  state.header = header;
  return [header, ...rows];
}

/**
 * One paragraph of a chunk as HTML: code (a block whose line breaks the reader kept) in `<pre>`, a
 * pipe table as a `<table>` (each row a block of its own under its header), else `<p>`.
 */
function paragraphHtml(para: string, tables: TableState): string {
  if (para.includes('\n')) return `<pre><code>${escapeHtml(para)}</code></pre>`;
  const table = pipeTable(para, tables);
  if (!table) {
    tables.header = null;
    return `<p>${escapeHtml(para)}</p>`;
  }
  const row = (cells: string[], tag: 'th' | 'td'): string =>
    `<tr>${cells.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join('')}</tr>`;
  const [head, ...rows] = table;
  return `<table><thead>${row(head!, 'th')}</thead><tbody>${rows.map((r) => row(r, 'td')).join('')}</tbody></table>`;
}

function chunkHtml(
  chunk: ChunkRecord,
  images: IndexImage[],
  tables: TableState,
  titles: ReadonlySet<string>,
): string {
  const parts: string[] = [];
  let pos = chunk.charStart;
  const pending = [...images];
  const emitImagesUpTo = (offset: number): void => {
    while (pending.length > 0 && pending[0]!.offset <= offset)
      parts.push(imageHtml(pending.shift()!));
  };
  const paras = chunk.text.split('\n\n');
  const headings = leadingHeadings(chunk, paras);
  // The depth in the heading path of the chunk's first heading, not counting a level-1 heading
  // at its top (a Markdown "# Title"): that one is h2, as are the sections under it.
  const top = titles.has(chunk.headingPath[0] ?? '') ? 1 : 0;
  const depth = chunk.headingPath.length - headings - top;
  paras.forEach((para, i) => {
    emitImagesUpTo(pos);
    if (i < headings) {
      // Levels follow the heading path, whatever levels the source used or skipped: h1 is the
      // document title, so a top-level section is h2, and each heading is one level below the
      // one it stands under. A run of headings ("Flags" then the term "-G") and the next term
      // alone ("-o") so nest alike. Below h6 the level is given as `aria-level`.
      const level = Math.max(2, 2 + depth + i);
      const open = level > 6 ? `<h6 aria-level="${level}">` : `<h${level}>`;
      parts.push(`${open}${escapeHtml(para)}</h${Math.min(level, 6)}>`);
    } else {
      parts.push(paragraphHtml(para, tables));
    }
    pos += para.length + 2;
  });
  emitImagesUpTo(Number.POSITIVE_INFINITY);
  return parts.join('\n');
}

const isoDate = (d: Date | null): string | null => (d ? d.toISOString() : null);

/**
 * Renders a stored document as a standalone readable HTML page: title, metadata, then each chunk in
 * `<section id="c{ordinal}" data-char-start data-char-end>` so `#c3` addresses chunk 3, with the
 * document's images placed where they appeared. All text is escaped.
 *
 * @param doc - A document from {@link IndexStore.get}.
 */
export function renderDocumentHtml(doc: IndexedDocument): string {
  const byChunk = new Map<number, IndexImage[]>();
  const sorted = [...doc.images].sort((a, b) => a.offset - b.offset);
  for (const img of sorted) {
    // An image belongs to the chunk in which its offset falls (or the last one before it).
    let target = doc.chunks[0];
    for (const c of doc.chunks) if (c.charStart <= img.offset) target = c;
    if (!target) continue;
    const list = byChunk.get(target.ordinal) ?? [];
    list.push(img);
    byChunk.set(target.ordinal, list);
  }
  const meta: Array<[string, string | null]> = [
    ['Source', doc.url],
    ['Local file', doc.sourceKind === 'url' ? null : doc.source],
    ['Domain', doc.domain || null],
    ['Published', isoDate(doc.publishedAt)],
    ['Updated', isoDate(doc.updatedAt)],
    ['Language', doc.language],
  ];
  const dl = meta
    .filter((m): m is [string, string] => m[1] !== null)
    .map(([k, v]) => {
      const value =
        k === 'Source' && /^https?:/.test(v)
          ? `<a href="${escapeHtml(v)}">${escapeHtml(v)}</a>`
          : escapeHtml(v);
      return `<dt>${k}</dt><dd>${value}</dd>`;
    })
    .join('');
  const tables: TableState = { header: null };
  // A level-1 heading always stands first in its heading path.
  const titles = new Set(
    doc.chunks.filter((c) => c.headingLevel === 1).map((c) => c.headingPath[0]!),
  );
  const sections = doc.chunks
    .map(
      (c) =>
        `<section id="c${c.ordinal}" data-char-start="${c.charStart}" data-char-end="${c.charEnd}">\n${chunkHtml(c, byChunk.get(c.ordinal) ?? [], tables, titles)}\n</section>`,
    )
    .join('\n');
  // The file it was indexed from, for reports that cite this page (see `visit` in src/page).
  const localSource =
    doc.sourceKind === 'url'
      ? ''
      : `\n<meta name="svc:source" content="${escapeHtml(doc.source)}">`;
  const lang = doc.language ? ` lang="${escapeHtml(doc.language)}"` : '';
  const dates = [
    doc.publishedAt
      ? `<meta property="article:published_time" content="${isoDate(doc.publishedAt)}">`
      : '',
    doc.updatedAt
      ? `<meta property="article:modified_time" content="${isoDate(doc.updatedAt)}">`
      : '',
  ].join('');
  return `<!doctype html>
<html${lang}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.title)}</title>
<meta name="svc:doc-id" content="${escapeHtml(doc.id)}">${localSource}${dates}
<style>${STYLE}</style>
</head>
<body>
<article>
<header><h1>${escapeHtml(doc.title)}</h1><dl>${dl}</dl></header>
${sections}
</article>
</body>
</html>
`;
}
