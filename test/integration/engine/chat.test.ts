// POST /chat/completions (JSON) over HTTP against the fixture corpus: citations match markers and
// sources, the four models differ, limits, images, related questions, json_schema, usage and cost,
// and the search filters apply to chat sources.
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeChatCost, countTokens } from '../../../src/protocol/index.js';
import type { ChatModel } from '../../../src/protocol/index.js';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, tempDir } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { corpusServer, locs, openUrl, pageText, postJson, squash } from './helpers.js';

interface Chat {
  model: string;
  choices: { index: number; finish_reason: string; message: { role: string; content: string } }[];
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    reasoning_tokens?: number;
    citation_tokens?: number;
    num_search_queries?: number;
    search_context_size?: string;
    cost: { total_cost: number } & Record<string, number>;
  };
  citations?: string[];
  search_results?: { title: string; url: string; snippet: string; date: string | null }[];
  images?: {
    image_url: string;
    origin_url: string;
    title: string;
    width: number;
    height: number;
  }[];
  related_questions?: string[];
}

let server: TestServer;
beforeAll(async () => {
  server = await corpusServer();
});
afterAll(() => server?.dispose());

const QUESTION = 'How do grid-scale batteries earn revenue from frequency response?';

async function chat(body: Record<string, unknown>): Promise<Chat> {
  const reply = await postJson<Chat>(server, '/chat/completions', {
    model: 'core',
    messages: [{ role: 'user', content: QUESTION }],
    ...body,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}
const content = (c: Chat): string => c.choices[0]!.message.content;

/** Each cited sentence of an extractive answer with its marker: `Claim text [2].` */
function citedSentences(text: string): { sentence: string; marker: number }[] {
  const out: { sentence: string; marker: number }[] = [];
  for (const m of text.matchAll(/([^[\]]+?) \[(\d+)\]([.!?…]*["')\]]*)/g)) {
    out.push({ sentence: (m[1]! + m[3]!).trim(), marker: Number(m[2]) });
  }
  return out;
}

describe('chat answers and citations', () => {
  it('every [n] names a source whose page holds the cited sentence', async () => {
    const answer = await chat({});
    const text = content(answer);
    const markers = [...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(markers.length).toBeGreaterThan(0);
    expect(answer.citations).toEqual(answer.search_results!.map((r) => r.url));
    for (const n of markers) {
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(answer.citations!.length);
    }
    const cited = citedSentences(text);
    expect(cited.length).toBe(markers.length);
    expect(text).toMatch(/Hornsdale/);
    for (const { sentence, marker } of cited) {
      const page = await openUrl(answer.search_results![marker - 1]!.url);
      expect(page.status).toBe(200);
      expect(pageText(page.html)).toContain(squash(sentence));
    }
  });

  it('core-pro reads more sources than core', async () => {
    const q = [{ role: 'user', content: 'battery storage on the grid' }];
    const core = await chat({ model: 'core', messages: q });
    const pro = await chat({ model: 'core-pro', messages: q });
    expect(core.search_results!.length).toBeGreaterThan(0);
    expect(pro.search_results!.length).toBeGreaterThan(core.search_results!.length);
    expect(pro.citations!.slice(0, core.citations!.length)).toEqual(core.citations);
  });

  it('core-reasoning-pro thinks aloud in <think> and counts reasoning_tokens', async () => {
    const answer = await chat({ model: 'core-reasoning-pro' });
    const text = content(answer);
    expect(text.startsWith('<think>')).toBe(true);
    const think = /^<think>([\s\S]*?)<\/think>/.exec(text)![1]!;
    expect(answer.usage.reasoning_tokens).toBe(countTokens(think));
    expect(answer.usage.reasoning_tokens).toBeGreaterThan(0);
    expect(text.slice(text.indexOf('</think>'))).toMatch(/\[\d+\]/);
    expect(content(await chat({ model: 'core' }))).not.toContain('<think>');
  });

  it('core-deep-research searches more as reasoning_effort grows', async () => {
    const counts: number[] = [];
    for (const effort of ['minimal', 'low', 'medium', 'high']) {
      const answer = await chat({
        model: 'core-deep-research',
        reasoning_effort: effort,
        messages: [{ role: 'user', content: 'battery storage markets and safety' }],
      });
      counts.push(answer.usage.num_search_queries!);
      expect(answer.usage.citation_tokens).toBeGreaterThan(0);
    }
    expect(counts[0]).toBe(1);
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThan(counts[i - 1]!);
    expect((await chat({ model: 'core' })).usage.num_search_queries).toBe(1);
  });
});

describe('chat output limits', () => {
  it('max_tokens cuts the answer to exactly that many tokens with finish_reason length', async () => {
    const full = await chat({});
    expect(full.choices[0]!.finish_reason).toBe('stop');
    expect(full.usage.completion_tokens).toBeGreaterThan(12);
    const cut = await chat({ max_tokens: 12 });
    expect(cut.choices[0]!.finish_reason).toBe('length');
    expect(cut.usage.completion_tokens).toBe(12);
    expect(countTokens(content(cut))).toBe(12);
    expect(content(full).startsWith(content(cut))).toBe(true);
  });

  it('stop ends the answer before the first stop sequence', async () => {
    const full = content(await chat({}));
    const at = full.indexOf(' [1]');
    expect(at).toBeGreaterThan(0);
    const stopped = await chat({ stop: [' [1]', 'zzz-never'] });
    expect(content(stopped)).toBe(full.slice(0, at));
    expect(stopped.choices[0]!.finish_reason).toBe('stop');
    expect(content(await chat({ stop: 'Hornsdale' }))).not.toContain('Hornsdale');
  });

  it('disable_search answers without sources', async () => {
    const answer = await chat({ disable_search: true });
    expect(answer.search_results ?? []).toEqual([]);
    expect(answer.citations ?? []).toEqual([]);
    expect(content(answer)).not.toMatch(/\[\d+\]/);
    expect(answer.usage.num_search_queries ?? 0).toBe(0);
  });
});

describe('chat extras', () => {
  const imageQuestion = [{ role: 'user', content: 'grid-scale batteries duck curve Megapack' }];

  it('return_images lists indexed images, honouring the image domain and format filters', async () => {
    const all = await chat({ messages: imageQuestion, return_images: true });
    const urls = all.images!.map((i) => i.image_url);
    expect(urls).toEqual(
      expect.arrayContaining([
        'https://cdn.northwind-journal.com/img/2019/battery-containers.jpg',
        'https://northwind-journal.com/img/2019/duck-curve-chart.png',
      ]),
    );
    const containers = all.images!.find((i) => i.image_url.endsWith('battery-containers.jpg'))!;
    expect([containers.width, containers.height]).toEqual([1200, 675]);
    expect(all.citations).toContain(containers.origin_url);
    expect((await chat({ messages: imageQuestion })).images).toBeUndefined();

    const cdn = await chat({
      messages: imageQuestion,
      return_images: true,
      image_domain_filter: ['cdn.northwind-journal.com'],
    });
    expect(cdn.images!.length).toBeGreaterThan(0);
    for (const i of cdn.images!)
      expect(new URL(i.image_url).host).toBe('cdn.northwind-journal.com');

    const notCdn = await chat({
      messages: imageQuestion,
      return_images: true,
      image_domain_filter: ['-cdn.northwind-journal.com'],
    });
    expect(notCdn.images!.map((i) => i.image_url)).toContain(
      'https://northwind-journal.com/img/2019/duck-curve-chart.png',
    );
    for (const i of notCdn.images!) expect(i.image_url).not.toContain('cdn.northwind');

    const png = await chat({
      messages: imageQuestion,
      return_images: true,
      image_format_filter: ['png'],
    });
    expect(png.images!.map((i) => i.image_url)).toEqual([
      'https://northwind-journal.com/img/2019/duck-curve-chart.png',
    ]);
    const jpeg = await chat({
      messages: imageQuestion,
      return_images: true,
      image_format_filter: ['jpeg'],
    });
    expect(jpeg.images!.length).toBeGreaterThan(0);
    for (const i of jpeg.images!) expect(i.image_url).toMatch(/\.jpe?g$/);
  });

  it('return_related_questions adds follow-up questions about the sources', async () => {
    const answer = await chat({ return_related_questions: true });
    expect(answer.related_questions!.length).toBeGreaterThan(0);
    for (const q of answer.related_questions!) expect(q).toMatch(/\?$/);
    expect((await chat({})).related_questions).toBeUndefined();
  });

  it('json_schema content parses and validates against the given schema', async () => {
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string' },
        summary: { type: 'string', minLength: 10, maxLength: 400 },
        capacity_mwh: { type: 'number', minimum: 0 },
        project_count: { type: 'integer', minimum: 1, maximum: 100 },
        market: { type: 'string', enum: ['frequency', 'capacity', 'retail'] },
        revenue_sources: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
        site: {
          type: 'object',
          properties: { name: { type: 'string' }, country: { type: 'string' } },
          required: ['name', 'country'],
          additionalProperties: false,
        },
      },
      required: [
        'title',
        'summary',
        'capacity_mwh',
        'project_count',
        'market',
        'revenue_sources',
        'site',
      ],
      additionalProperties: false,
    };
    const answer = await chat({
      response_format: { type: 'json_schema', json_schema: { name: 'projects', schema } },
    });
    const value = JSON.parse(content(answer)) as Record<string, unknown>;
    const validate = new Ajv({ strict: true }).compile(schema);
    expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
    // Fields come from the retrieved sources, not from nowhere.
    expect(value.market).toBe('frequency');
    const sources = answer.search_results!.map((r) => r.title);
    expect(sources).toContain(value.title);
    const pages = await Promise.all(answer.search_results!.map((r) => openUrl(r.url)));
    const text = pages.map((p) => pageText(p.html)).join(' ');
    for (const s of value.revenue_sources as string[]) expect(text).toContain(squash(s));
  });
});

describe('chat usage, cost and filters', () => {
  it('usage counts tokens with the project tokenizer and cost follows the price table', async () => {
    const models: ChatModel[] = ['core', 'core-pro', 'core-reasoning-pro', 'core-deep-research'];
    for (const model of models) {
      for (const size of ['low', 'high'] as const) {
        const answer = await chat({ model, web_search_options: { search_context_size: size } });
        const u = answer.usage;
        expect(u.prompt_tokens).toBe(countTokens(QUESTION));
        expect(u.completion_tokens).toBe(countTokens(content(answer)));
        expect(u.total_tokens).toBe(u.prompt_tokens + u.completion_tokens);
        expect(u.search_context_size).toBe(size);
        expect(u.cost).toEqual(computeChatCost(model, u, size));
        expect(u.cost.total_cost).toBeGreaterThan(0);
      }
    }
    const low = await chat({ web_search_options: { search_context_size: 'low' } });
    const high = await chat({ web_search_options: { search_context_size: 'high' } });
    expect(high.usage.cost.total_cost).toBeGreaterThan(low.usage.cost.total_cost);
  });

  it('search filters in the chat request restrict its sources', async () => {
    const q = [{ role: 'user', content: 'battery storage Megapack grid' }];
    const all = await chat({ model: 'core-pro', messages: q });
    const hosts = new Set(all.search_results!.map((r) => r.title));
    expect(hosts.size).toBeGreaterThan(3);

    const german = await chat({ model: 'core-pro', messages: q, search_language_filter: ['de'] });
    expect(german.search_results!.map((r) => r.title)).toEqual([
      'Batteriespeicher für Photovoltaik: Lohnt sich der Heimspeicher?',
    ]);
    const recent = await chat({
      model: 'core-pro',
      messages: q,
      search_after_date_filter: '1/1/2023',
      search_before_date_filter: '2025-06-14',
    });
    expect(recent.search_results!.length).toBeGreaterThan(0);
    for (const r of recent.search_results!) {
      expect(r.date! >= '2023-01-01' && r.date! <= '2025-06-14').toBe(true);
    }
    const academic = await chat({ model: 'core-pro', messages: q, search_mode: 'academic' });
    expect(academic.search_results!.map((r) => r.title)).toEqual([
      'Calendar ageing of lithium iron phosphate cells under partial state of charge cycling',
    ]);
    const noNorthwind = await chat({
      model: 'core-pro',
      messages: q,
      search_domain_filter: ['-northwind-journal.com'],
    });
    expect(noNorthwind.search_results!.length).toBeGreaterThan(0);
    for (const r of noNorthwind.search_results!) {
      expect(r.title).not.toBe('How grid-scale batteries are reshaping the power market');
    }
    const day = await chat({ model: 'core-pro', messages: q, search_recency_filter: 'day' });
    expect(day.search_results!.map((r) => r.title)).toEqual([
      'Battery recycling plant opens as first packs reach end of life',
    ]);
  });

  it('rejects bad chat bodies with 422 at the exact field', async () => {
    const bad = (body: Record<string, unknown>) =>
      postJson(server, '/chat/completions', {
        model: 'core',
        messages: [{ role: 'user', content: 'x' }],
        ...body,
      });
    expect(locs(await bad({ model: 'gpt-4' }))).toEqual([['body', 'model']]);
    expect(locs(await bad({ max_tokens: 0 }))).toEqual([['body', 'max_tokens']]);
    expect(locs(await bad({ search_after_date_filter: '2025.01.01' }))).toEqual([
      ['body', 'search_after_date_filter'],
    ]);
    expect(locs(await bad({ messages: [{ role: 'robot', content: 'x' }] }))).toEqual([
      ['body', 'messages', 0, 'role'],
    ]);
  });
});

describe('extractive answers read as prose', () => {
  // API reference style: headings, label lines, a definition list and code around two paragraphs.
  const DOC = [
    '# Class: RetryAgent',
    'Extends: `undici.Dispatcher`',
    'A `undici.Dispatcher` that allows to automatically retry a request.\nWraps a `undici.RetryHandler`.',
    '## `new RetryAgent(dispatcher, [options])`',
    'Arguments:',
    '* **dispatcher** `undici.Dispatcher` (required) - the dispatcher to wrap',
    'Returns: `ProxyAgent`',
    '## Retrying failed requests',
    'The agent retries a failed request with exponential backoff until maxRetries is reached.',
    '```js\nconst agent = new RetryAgent(new Agent())\nawait agent.request({ path: "/" })\n```',
  ].join('\n\n');
  const PROSE = [
    'A undici.Dispatcher that allows to automatically retry a request.',
    'Wraps a undici.RetryHandler.',
    'The agent retries a failed request with exponential backoff until maxRetries is reached.',
  ];

  it('cites whole sentences of running text, never headings or label lines glued on', async () => {
    const dir = tempDir('svc-prose-');
    const file = path.join(dir, 'retry-agent.md');
    fs.writeFileSync(file, DOC);
    const prose = await startTestServer();
    try {
      expect((await prose.engines.index.indexPaths([file])).failed).toEqual([]);
      const reply = await postJson<Chat>(prose, '/chat/completions', {
        model: 'core',
        messages: [{ role: 'user', content: 'How does RetryAgent retry a failed request?' }],
      });
      expect(reply.status).toBe(200);
      const cited = citedSentences(content(reply.body));
      expect(cited.length).toBeGreaterThan(0);
      for (const { sentence } of cited) expect(PROSE).toContain(sentence);
      expect(content(reply.body)).not.toMatch(/Class:|Extends:|Returns:|Arguments:|const agent/);
    } finally {
      await prose.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
