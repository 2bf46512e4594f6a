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

function chunkHtml(chunk: ChunkRecord, images: IndexImage[]): string {
  const parts: string[] = [];
  let pos = chunk.charStart;
  const pending = [...images];
  const emitImagesUpTo = (offset: number): void => {
    while (pending.length > 0 && pending[0]!.offset <= offset)
      parts.push(imageHtml(pending.shift()!));
  };
  chunk.text.split('\n\n').forEach((para, i) => {
    emitImagesUpTo(pos);
    if (i === 0 && chunk.headingLevel > 0) {
      // h1 is the document title, so section headings are h2 at most.
      const level = Math.min(6, Math.max(2, chunk.headingLevel));
      parts.push(`<h${level}>${escapeHtml(para)}</h${level}>`);
    } else {
      parts.push(`<p>${escapeHtml(para)}</p>`);
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
  const sections = doc.chunks
    .map(
      (c) =>
        `<section id="c${c.ordinal}" data-char-start="${c.charStart}" data-char-end="${c.charEnd}">\n${chunkHtml(c, byChunk.get(c.ordinal) ?? [])}\n</section>`,
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
