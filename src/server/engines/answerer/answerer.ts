import { randomUUID } from 'node:crypto';
import { computeChatCost, countTokens } from '../../../protocol/index.js';
import type {
  ChatCompletionRequestParsed,
  ChatCompletionResponse,
  ImageResult,
  SearchResult,
  UsageInfo,
} from '../../../protocol/index.js';
import { BadRequest } from '../../errors.js';
import { renderSentences, selectSentences } from './compose.js';
import type { CitedSentence, Passage } from './compose.js';
import { decompose } from './decompose.js';
import { fillJsonSchema } from './json-fill.js';
import { streamLlmAnswer } from './llm.js';
import type { LlmConfig } from './llm.js';
import type { FinishReason } from './output-limiter.js';
import { MODEL_PROFILES } from './profiles.js';
import { lastUserText, terms } from './text.js';

/** What a search for the answerer is asked: one query, how many sources, and the request's filters. */
export interface RetrieveOptions {
  query: string;
  maxResults: number;
  request: ChatCompletionRequestParsed;
  signal?: AbortSignal | undefined;
}

/** Finds sources for a query, honouring every search filter of the request. */
export type RetrieveFn = (options: RetrieveOptions) => Promise<Passage[]>;

/** Fetches and reads a `file_url` / `pdf_url` attachment into a source. */
export type FetchAttachmentFn = (
  url: string,
  kind: 'file' | 'pdf',
  signal?: AbortSignal,
) => Promise<Passage>;

/** The sources of one answer, numbered by position (`[n]` is `passages[n - 1]`). */
export interface Retrieval {
  passages: Passage[];
  /** Searches made (counted as `num_search_queries`). */
  queries: string[];
  /** Deep research: which passages each sub-question found. */
  sections: { query: string; passages: Passage[] }[];
}

/** Dependencies of the answerer. */
export interface AnswererDeps {
  retrieve: RetrieveFn;
  fetchAttachment?: FetchAttachmentFn;
  /** When set, answers are written by this OpenAI-compatible model from the numbered sources. */
  llm?: LlmConfig | undefined;
  clock?: () => number;
}

/**
 * Answers chat requests from retrieved sources: retrieval honouring every filter, then either the
 * extractive composer (selected sentences with `[n]` markers matching `search_results`) or a
 * grounded prompt to an external model. Retrieval and generation are separate steps so a stream
 * can send its sources before the first word.
 */
export class Answerer {
  private readonly clock: () => number;

  constructor(private readonly deps: AnswererDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  /** Step 1: attachments, then searches (several for deep research). */
  async retrieve(request: ChatCompletionRequestParsed, signal?: AbortSignal): Promise<Retrieval> {
    const attachments = await this.readAttachments(request, signal);
    const question = lastUserText(request.messages);
    if (request.disable_search || question.trim() === '') {
      return { passages: attachments, queries: [], sections: [] };
    }
    const profile = MODEL_PROFILES[request.model];
    const size = request.web_search_options?.search_context_size ?? 'low';
    const maxResults = profile.sources[size];
    const first = await this.deps.retrieve({ query: question, maxResults, request, signal });
    const effort = request.reasoning_effort ?? 'medium';
    const queries = decompose(question, profile.subQueries[effort], first);
    const sections = [{ query: question, passages: first }];
    for (const query of queries.slice(1)) {
      sections.push({
        query,
        passages: await this.deps.retrieve({ query, maxResults, request, signal }),
      });
    }
    const byUrl = new Map<string, Passage>();
    for (const p of [...attachments, ...sections.flatMap((s) => s.passages)]) {
      if (!byUrl.has(p.url)) byUrl.set(p.url, p);
    }
    return { passages: [...byUrl.values()], queries, sections };
  }

  /** Step 2: the answer text, in pieces (sentences, or model deltas). Limits are applied by the caller. */
  async *generate(
    request: ChatCompletionRequestParsed,
    retrieval: Retrieval,
    signal?: AbortSignal,
  ): AsyncGenerator<string> {
    if (this.deps.llm) {
      yield* streamLlmAnswer(this.deps.llm, request, retrieval.passages, signal);
      return;
    }
    const question = lastUserText(request.messages);
    const profile = MODEL_PROFILES[request.model];
    const cited = this.cite(request, retrieval, question);
    if (profile.thinks) yield `<think>\n${reasoningText(question, retrieval, cited)}\n</think>\n\n`;
    const format = request.response_format;
    if (format?.type === 'json_schema') {
      yield JSON.stringify(
        fillJsonSchema(format.json_schema.schema, question, retrieval.passages, cited),
      );
      return;
    }
    if (cited.length === 0) {
      yield request.disable_search && retrieval.passages.length === 0
        ? 'Search is disabled for this request, and this answerer only states what sources support, so it has no answer.'
        : 'None of the indexed sources answers this question.';
      return;
    }
    if (request.model === 'core-deep-research') {
      for (const section of groupBySection(retrieval, cited)) {
        yield `## ${section.title}\n\n`;
        for (const s of section.sentences) yield renderSentences([s]) + ' ';
        yield '\n\n';
      }
      return;
    }
    for (const [i, s] of cited.entries()) yield (i > 0 ? ' ' : '') + renderSentences([s]);
  }

  /** Step 3: the whole response object for the final content. */
  buildResponse(
    request: ChatCompletionRequestParsed,
    retrieval: Retrieval,
    content: string,
    finishReason: FinishReason,
    id = `chatcmpl-${randomUUID()}`,
  ): ChatCompletionResponse {
    const response: ChatCompletionResponse = {
      id,
      model: request.model,
      created: Math.floor(this.clock() / 1000),
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          finish_reason: finishReason,
          message: { role: 'assistant', content },
          delta: { role: 'assistant', content: '' },
        },
      ],
      usage: this.usage(request, retrieval, content),
      citations: retrieval.passages.map((p) => p.url),
      search_results: toSearchResults(retrieval.passages),
    };
    if (request.return_images) response.images = collectImages(request, retrieval.passages);
    if (request.return_related_questions) {
      response.related_questions = relatedQuestions(
        lastUserText(request.messages),
        retrieval.passages,
      );
    }
    return response;
  }

  /** Token counts with the project tokenizer, and the cost from the price table. */
  usage(request: ChatCompletionRequestParsed, retrieval: Retrieval, content: string): UsageInfo {
    const prompt = request.messages
      .map((m) =>
        typeof m.content === 'string' ? m.content : (m.content ?? []).map(chunkText).join(' '),
      )
      .join('\n');
    const think = /^<think>([\s\S]*?)<\/think>/.exec(content)?.[1];
    const counts = {
      prompt_tokens: countTokens(prompt),
      completion_tokens: countTokens(content),
      num_search_queries: retrieval.queries.length,
      ...(think !== undefined && { reasoning_tokens: countTokens(think) }),
      ...(request.model === 'core-deep-research' && {
        citation_tokens: retrieval.passages.reduce((n, p) => n + countTokens(p.text), 0),
      }),
    };
    const size = request.web_search_options?.search_context_size ?? 'low';
    return {
      ...counts,
      total_tokens: counts.prompt_tokens + counts.completion_tokens,
      search_context_size: size,
      cost: computeChatCost(request.model, counts, size),
    };
  }

  private cite(
    request: ChatCompletionRequestParsed,
    retrieval: Retrieval,
    question: string,
  ): CitedSentence[] {
    const profile = MODEL_PROFILES[request.model];
    const limits = { maxSentences: profile.sentences, maxPerSource: profile.perSource };
    if (request.model !== 'core-deep-research')
      return selectSentences(question, retrieval.passages, limits);
    const seen = new Set<string>();
    return retrieval.sections.flatMap((section) => {
      const picked = selectSentences(section.query, retrieval.passages, limits).filter(
        (s) => !seen.has(s.text),
      );
      for (const s of picked) seen.add(s.text);
      return picked;
    });
  }

  private async readAttachments(
    request: ChatCompletionRequestParsed,
    signal?: AbortSignal,
  ): Promise<Passage[]> {
    const urls: { url: string; kind: 'file' | 'pdf' }[] = [];
    for (const message of request.messages) {
      if (!Array.isArray(message.content)) continue;
      for (const chunk of message.content) {
        if (chunk.type === 'file_url') urls.push({ url: urlOf(chunk.file_url), kind: 'file' });
        if (chunk.type === 'pdf_url') urls.push({ url: urlOf(chunk.pdf_url), kind: 'pdf' });
      }
    }
    if (urls.length === 0) return [];
    const fetch = this.deps.fetchAttachment;
    if (!fetch) throw new BadRequest('Attachments are not supported by this server');
    return Promise.all(urls.map((u) => fetch(u.url, u.kind, signal)));
  }
}

const urlOf = (value: string | { url: string }): string =>
  typeof value === 'string' ? value : value.url;

function chunkText(chunk: { type: string; text?: string }): string {
  return chunk.type === 'text' && typeof chunk.text === 'string' ? chunk.text : '';
}

/** The `search_results` entries of passages, in order (`[n]` is entry `n - 1`). */
export function toSearchResults(passages: readonly Passage[]): SearchResult[] {
  return passages.map((p) => ({
    title: p.title,
    url: p.url,
    date: p.date,
    last_updated: p.lastUpdated,
    snippet: p.snippet,
    source: p.source,
  }));
}

function reasoningText(
  question: string,
  retrieval: Retrieval,
  cited: readonly CitedSentence[],
): string {
  const lines = [
    `The question asks about: ${[...new Set(terms(question))].join(', ') || question}.`,
  ];
  if (retrieval.queries.length > 0)
    lines.push(`Searches: ${retrieval.queries.map((q) => `"${q}"`).join('; ')}.`);
  lines.push(
    retrieval.passages.length === 0
      ? 'No sources were found.'
      : `Read ${retrieval.passages.length} sources: ${retrieval.passages.map((p, i) => `[${i + 1}] ${p.title}`).join('; ')}.`,
  );
  lines.push(
    cited.length === 0
      ? 'No sentence of the sources covers enough of the question, so nothing is asserted.'
      : `Kept ${cited.length} sentences that share the most terms with the question, from sources ${[...new Set(cited.map((c) => `[${c.marker}]`))].join(', ')}.`,
  );
  return lines.join('\n');
}

function groupBySection(retrieval: Retrieval, cited: readonly CitedSentence[]) {
  // Sentences were selected section by section, in order; cite() kept that order.
  const sections: { title: string; sentences: CitedSentence[] }[] = [];
  let i = 0;
  for (const section of retrieval.sections) {
    const limit = MODEL_PROFILES['core-deep-research'].sentences;
    const sentences = cited.slice(i, i + limit).filter((s) => s !== undefined);
    i += sentences.length;
    if (sentences.length > 0) sections.push({ title: section.query, sentences });
  }
  if (i < cited.length) sections.push({ title: 'Further findings', sentences: cited.slice(i) });
  return sections;
}

const IMAGE_FORMATS: Record<string, string> = { jpeg: 'jpg' };

function collectImages(
  request: ChatCompletionRequestParsed,
  passages: readonly Passage[],
): ImageResult[] {
  const domains = request.image_domain_filter ?? [];
  const include = domains.filter((d) => !d.startsWith('-')).map((d) => d.toLowerCase());
  const exclude = domains.filter((d) => d.startsWith('-')).map((d) => d.slice(1).toLowerCase());
  const formats = (request.image_format_filter ?? []).map((f) => {
    const ext = f.toLowerCase().replace(/^\./, '');
    return IMAGE_FORMATS[ext] ?? ext;
  });
  const matches = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);
  const out: ImageResult[] = [];
  const seen = new Set<string>();
  for (const p of passages) {
    for (const img of p.images ?? []) {
      if (seen.has(img.url)) continue;
      let url: URL;
      try {
        url = new URL(img.url);
      } catch {
        continue; // an unparsable image URL cannot be shown; skip it
      }
      const host = url.hostname.toLowerCase();
      if (include.length > 0 && !include.some((d) => matches(host, d))) continue;
      if (exclude.some((d) => matches(host, d))) continue;
      const ext = /\.([a-z0-9]+)$/i.exec(url.pathname)?.[1]?.toLowerCase();
      if (formats.length > 0 && !formats.includes(IMAGE_FORMATS[ext ?? ''] ?? ext ?? '')) continue;
      seen.add(img.url);
      out.push({
        image_url: img.url,
        origin_url: p.url,
        title: img.alt || p.title,
        width: img.width,
        height: img.height,
      });
    }
  }
  return out.slice(0, 10);
}

function relatedQuestions(question: string, passages: readonly Passage[]): string[] {
  const topic = question.replace(/[?.!]+$/, '').trim();
  const out = new Set<string>();
  for (const p of passages) {
    const heading = p.headingPath?.at(-1);
    if (heading && heading.toLowerCase() !== p.title.toLowerCase())
      out.add(`What does "${p.title}" say about ${heading}?`);
    else out.add(`What else does "${p.title}" say beyond "${topic}"?`);
    if (out.size >= 4) break;
  }
  return [...out];
}
