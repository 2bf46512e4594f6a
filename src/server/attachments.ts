import { BadRequest } from './errors.js';
import type { FetchAttachmentFn, Passage } from './engines/answerer/index.js';
import { readDocx, readHtml, readPdf, readText } from './engines/index/index.js';
import type { ExtractedDocument } from './engines/index/index.js';

/** Limits of attachment fetching. */
export const ATTACHMENT_DEFAULTS = {
  /** Largest attachment read. */
  maxBytes: 20 * 1024 * 1024,
  /** Time for the whole download. */
  timeoutMs: 20_000,
} as const;

/**
 * Fetches a `file_url` / `pdf_url` attachment (http and https only, size and time limited), reads
 * PDF, DOCX, HTML or plain text, and returns it as a source cited with `source: "attachment"`.
 * @throws BadRequest naming the URL for a refused scheme, an oversize body, a timeout or an
 *   unreadable document
 */
export function createAttachmentFetcher(limits = ATTACHMENT_DEFAULTS): FetchAttachmentFn {
  return async (url, kind, signal) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw fail(url, 'not a valid URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw fail(url, `scheme ${parsed.protocol} is not allowed; use http or https`);
    }
    const timeout = AbortSignal.timeout(limits.timeoutMs);
    let response: Response;
    try {
      response = await fetch(parsed, {
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        redirect: 'follow',
      });
    } catch (error) {
      throw fail(
        url,
        timeout.aborted ? `no answer within ${limits.timeoutMs} ms` : (error as Error).message,
      );
    }
    if (!response.ok || !response.body) throw fail(url, `HTTP ${response.status}`);
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > limits.maxBytes) throw fail(url, `larger than ${limits.maxBytes} bytes`);
    const bytes = await readLimited(response.body, limits.maxBytes, url);
    const type = response.headers.get('content-type') ?? '';
    const name = decodeURIComponent(parsed.pathname.split('/').pop() || parsed.hostname);
    let doc: ExtractedDocument;
    try {
      doc = await read(bytes, type, name, kind, parsed.href);
    } catch (error) {
      throw fail(url, `unreadable document: ${(error as Error).message}`);
    }
    const text = doc.blocks.flatMap((b) => (b.kind === 'image' ? [] : [b.text])).join('\n\n');
    const passage: Passage = {
      url: parsed.href,
      title: doc.title || name,
      date: doc.publishedAt ? doc.publishedAt.toISOString().slice(0, 10) : null,
      lastUpdated: doc.updatedAt ? doc.updatedAt.toISOString().slice(0, 10) : null,
      snippet: text.slice(0, 300),
      text,
      source: 'attachment',
    };
    return passage;
  };
}

async function read(
  bytes: Uint8Array,
  type: string,
  name: string,
  kind: 'file' | 'pdf',
  url: string,
) {
  const lower = name.toLowerCase();
  const isPdf =
    kind === 'pdf' ||
    type.includes('application/pdf') ||
    lower.endsWith('.pdf') ||
    startsWith(bytes, '%PDF');
  if (isPdf) return readPdf(bytes, name);
  if (
    type.includes('officedocument.wordprocessingml') ||
    lower.endsWith('.docx') ||
    startsWith(bytes, 'PK')
  ) {
    return readDocx(bytes, name);
  }
  const text = new TextDecoder().decode(bytes);
  if (type.includes('html') || /^\s*<(!doctype|html)/i.test(text))
    return readHtml(text, { baseUrl: url });
  return readText(text, name);
}

function startsWith(bytes: Uint8Array, magic: string): boolean {
  return [...magic].every((ch, i) => bytes[i] === ch.charCodeAt(0));
}

async function readLimited(
  body: ReadableStream<Uint8Array>,
  max: number,
  url: string,
): Promise<Uint8Array> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw fail(url, `larger than ${max} bytes`);
    }
    parts.push(value);
  }
  return Buffer.concat(parts);
}

function fail(url: string, why: string): BadRequest {
  return new BadRequest(`Attachment could not be read: ${url}: ${why}`, {
    code: 'attachment_unreadable',
  });
}
