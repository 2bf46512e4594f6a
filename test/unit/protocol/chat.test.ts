import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ChatCompletionChunkSchema,
  ChatCompletionDoneEventSchema,
  ChatCompletionRequestSchema,
  ChatCompletionResponseSchema,
  parseFilterDate,
  parseRequest,
} from '../../../src/protocol/index.js';

const base = { model: 'core', messages: [{ role: 'user', content: 'hi' }] };

function reject(data: unknown, schema: z.ZodType = ChatCompletionRequestSchema) {
  const r = parseRequest(schema, data, 'body');
  if (r.ok) throw new Error(`expected rejection of ${JSON.stringify(data).slice(0, 200)}`);
  return r.body.detail;
}
function accept(data: unknown, schema: z.ZodType = ChatCompletionRequestSchema) {
  const r = parseRequest(schema, data, 'body');
  if (!r.ok) throw new Error(`expected acceptance, got ${JSON.stringify(r.body)}`);
  return r.value as Record<string, unknown>;
}
const locOf = (data: unknown) => reject(data).map((d) => d.loc);

describe('chat completion request', () => {
  it('accepts the minimal request and applies defaults', () => {
    const v = accept(base);
    expect(v.stream).toBe(false);
    expect(v.stream_mode).toBe('full');
  });

  it('requires model and messages', () => {
    const d = reject({});
    expect(d).toContainEqual({ loc: ['body', 'model'], msg: 'Field required', type: 'missing' });
    expect(d).toContainEqual({ loc: ['body', 'messages'], msg: 'Field required', type: 'missing' });
  });

  it('rejects an unknown model and names the allowed ones', () => {
    const [d] = reject({ ...base, model: 'gpt-4' });
    expect(d!.loc).toEqual(['body', 'model']);
    expect(d!.type).toBe('enum');
    expect(d!.msg).toBe(
      'model must be one of core, core-pro, core-deep-research, core-reasoning-pro; got "gpt-4"',
    );
  });

  it('accepts every chat model', () => {
    for (const model of ['core', 'core-pro', 'core-deep-research', 'core-reasoning-pro']) {
      expect(accept({ ...base, model }).model).toBe(model);
    }
  });

  it('bounds max_tokens to (0, 128000]', () => {
    expect(accept({ ...base, max_tokens: 128000 }).max_tokens).toBe(128000);
    expect(accept({ ...base, max_tokens: 1 }).max_tokens).toBe(1);
    expect(accept({ ...base, max_tokens: null }).max_tokens).toBeNull();
    const [zero] = reject({ ...base, max_tokens: 0 });
    expect(zero).toEqual({
      loc: ['body', 'max_tokens'],
      msg: 'max_tokens must be greater than 0 and at most 128000; got 0',
      type: 'greater_than',
    });
    const [over] = reject({ ...base, max_tokens: 128001 });
    expect(over!.loc).toEqual(['body', 'max_tokens']);
    expect(over!.type).toBe('less_than_equal');
    const [frac] = reject({ ...base, max_tokens: 1.5 });
    expect(frac).toEqual({
      loc: ['body', 'max_tokens'],
      msg: 'max_tokens must be an integer; got 1.5',
      type: 'int_type',
    });
    expect(reject({ ...base, max_tokens: '10' })[0]!.type).toBe('int_type');
  });

  it('bounds temperature to [0, 2] and top_p to [0, 1]', () => {
    expect(accept({ ...base, temperature: 0 }).temperature).toBe(0);
    expect(accept({ ...base, temperature: 2 }).temperature).toBe(2);
    expect(locOf({ ...base, temperature: 2.0001 })).toEqual([['body', 'temperature']]);
    expect(locOf({ ...base, temperature: -0.1 })).toEqual([['body', 'temperature']]);
    expect(accept({ ...base, top_p: 0 }).top_p).toBe(0);
    expect(accept({ ...base, top_p: 1 }).top_p).toBe(1);
    expect(locOf({ ...base, top_p: 1.01 })).toEqual([['body', 'top_p']]);
    expect(reject({ ...base, temperature: 3 })[0]!.msg).toBe(
      'temperature must be between 0 and 2 inclusive; got 3',
    );
  });

  it('accepts stop as a string or string array and rejects other types', () => {
    expect(accept({ ...base, stop: 'x' }).stop).toBe('x');
    expect(accept({ ...base, stop: ['a', 'b'] }).stop).toEqual(['a', 'b']);
    expect(locOf({ ...base, stop: 5 })).toEqual([['body', 'stop']]);
    expect(locOf({ ...base, stop: ['a', 5] })).toEqual([['body', 'stop', 1]]);
  });

  it('accepts stream_mode full and concise only', () => {
    expect(accept({ ...base, stream: true, stream_mode: 'concise' }).stream_mode).toBe('concise');
    expect(locOf({ ...base, stream_mode: 'short' })).toEqual([['body', 'stream_mode']]);
    expect(locOf({ ...base, stream: 'yes' })).toEqual([['body', 'stream']]);
  });

  it('strips unknown keys instead of rejecting them', () => {
    const v = accept({ ...base, n: 2, stream_options: { include_usage: true } });
    expect(v).not.toHaveProperty('n');
    expect(v).not.toHaveProperty('stream_options');
  });

  it('requires the content key but accepts null content', () => {
    expect(reject({ ...base, messages: [{ role: 'user' }] })).toEqual([
      { loc: ['body', 'messages', 0, 'content'], msg: 'Field required', type: 'missing' },
    ]);
    expect(accept({ ...base, messages: [{ role: 'assistant', content: null }] }).messages).toEqual([
      { role: 'assistant', content: null },
    ]);
  });

  it('rejects an unknown role at its index', () => {
    const msgs = [
      { role: 'user', content: 'a' },
      { role: 'bot', content: 'b' },
    ];
    const [d] = reject({ ...base, messages: msgs });
    expect(d!.loc).toEqual(['body', 'messages', 1, 'role']);
    expect(d!.msg).toContain('messages[1].role must be one of system, user, assistant, tool');
  });

  it('rejects an empty messages array', () => {
    expect(locOf({ ...base, messages: [] })).toEqual([['body', 'messages']]);
  });

  it('accepts every content chunk type in object and string forms', () => {
    const content = [
      { type: 'text', text: 'look' },
      { type: 'image_url', image_url: { url: 'https://x/a.png' } },
      { type: 'image_url', image_url: 'https://x/b.png' },
      { type: 'file_url', file_url: { url: 'https://x/a.pdf' }, file_name: 'a.pdf' },
      { type: 'file_url', file_url: 'https://x/a.docx', file_name: null },
      { type: 'pdf_url', pdf_url: 'https://x/c.pdf' },
      { type: 'pdf_url', pdf_url: { url: 'https://x/c.pdf' } },
      { type: 'video_url', video_url: { url: 'https://x/v.mp4' } },
      { type: 'video_url', video_url: { url: 'https://x/v.mp4', frame_interval: '10' } },
      { type: 'video_url', video_url: 'https://x/v.mp4' },
    ];
    const v = accept({ ...base, messages: [{ role: 'user', content }] });
    const out = (v.messages as { content: { video_url?: { frame_interval?: unknown } }[] }[])[0]!
      .content;
    expect(out[7]!.video_url!.frame_interval).toBe(25);
    expect(out[8]!.video_url!.frame_interval).toBe('10');
  });

  it('points at the deepest field of a bad content chunk', () => {
    const content = [
      { type: 'text', text: 'x' },
      { type: 'image_url', image_url: { url: 5 } },
    ];
    expect(locOf({ ...base, messages: [{ role: 'user', content }] })).toEqual([
      ['body', 'messages', 0, 'content', 1, 'image_url', 'url'],
    ]);
  });

  it('reports a chunk value of the wrong type at the chunk field, naming both forms', () => {
    const content = [{ type: 'image_url', image_url: 5 }];
    const [d] = reject({ ...base, messages: [{ role: 'user', content }] });
    expect(d!.loc).toEqual(['body', 'messages', 0, 'content', 0, 'image_url']);
    expect(d!.msg).toContain('must be an object or a string');
  });

  it('reports a missing chunk field at its name', () => {
    const content = [{ type: 'image_url' }];
    expect(reject({ ...base, messages: [{ role: 'user', content }] })).toEqual([
      {
        loc: ['body', 'messages', 0, 'content', 0, 'image_url'],
        msg: 'Field required',
        type: 'missing',
      },
    ]);
  });

  it('rejects an unknown chunk type at the type field', () => {
    const [d] = reject({ ...base, messages: [{ role: 'user', content: [{ type: 'audio' }] }] });
    expect(d!.loc).toEqual(['body', 'messages', 0, 'content', 0, 'type']);
    expect(d!.type).toBe('union_tag_invalid');
    expect(d!.msg).toContain('text, image_url, file_url, pdf_url, video_url');
  });

  it('rejects content that is neither string, array nor null', () => {
    const [d] = reject({ ...base, messages: [{ role: 'user', content: 5 }] });
    expect(d!.loc).toEqual(['body', 'messages', 0, 'content']);
  });

  it('validates response_format by type', () => {
    expect(accept({ ...base, response_format: { type: 'text' } }).response_format).toEqual({
      type: 'text',
    });
    const v = accept({
      ...base,
      response_format: { type: 'json_schema', json_schema: { schema: { type: 'object' } } },
    });
    expect(v.response_format).toEqual({
      type: 'json_schema',
      json_schema: { schema: { type: 'object' }, name: 'schema', strict: true },
    });
    expect(locOf({ ...base, response_format: { type: 'json_schema', json_schema: {} } })).toEqual([
      ['body', 'response_format', 'json_schema', 'schema'],
    ]);
    expect(locOf({ ...base, response_format: { type: 'xml' } })).toEqual([
      ['body', 'response_format', 'type'],
    ]);
  });

  it('validates web_search_options and applies its defaults', () => {
    const v = accept({ ...base, web_search_options: {} });
    expect(v.web_search_options).toEqual({
      search_context_size: 'low',
      image_results_enhanced_relevance: false,
    });
    accept({
      ...base,
      web_search_options: {
        search_context_size: 'high',
        search_type: 'pro',
        user_location: { latitude: 48.1, longitude: 11.6, country: 'DE', city: null },
      },
    });
    expect(locOf({ ...base, web_search_options: { search_context_size: 'max' } })).toEqual([
      ['body', 'web_search_options', 'search_context_size'],
    ]);
    expect(locOf({ ...base, web_search_options: { search_type: 'slow' } })).toEqual([
      ['body', 'web_search_options', 'search_type'],
    ]);
    expect(
      locOf({ ...base, web_search_options: { user_location: { latitude: 'north' } } }),
    ).toEqual([['body', 'web_search_options', 'user_location', 'latitude']]);
  });

  it('validates every enum filter', () => {
    accept({
      ...base,
      search_mode: 'sec',
      search_recency_filter: 'week',
      reasoning_effort: 'minimal',
    });
    expect(locOf({ ...base, search_mode: 'news' })).toEqual([['body', 'search_mode']]);
    expect(locOf({ ...base, search_recency_filter: 'decade' })).toEqual([
      ['body', 'search_recency_filter'],
    ]);
    expect(locOf({ ...base, reasoning_effort: 'max' })).toEqual([['body', 'reasoning_effort']]);
  });

  it('validates list filters element by element', () => {
    accept({
      ...base,
      search_domain_filter: ['example.com', '-spam.com'],
      search_language_filter: ['en', 'de'],
      image_format_filter: ['png'],
      image_domain_filter: ['-x.com'],
    });
    expect(locOf({ ...base, search_domain_filter: ['ok.com', 7] })).toEqual([
      ['body', 'search_domain_filter', 1],
    ]);
    const many = Array.from({ length: 21 }, (_, i) => `d${i}.com`);
    expect(locOf({ ...base, search_domain_filter: many })).toEqual([
      ['body', 'search_domain_filter'],
    ]);
    expect(
      accept({ ...base, search_domain_filter: many.slice(0, 20) }).search_domain_filter,
    ).toHaveLength(20);
  });

  it('accepts M/D/YYYY and YYYY-MM-DD date filters and rejects other formats', () => {
    for (const d of ['3/1/2025', '03/01/2025', '12/31/2024', '2025-03-01', '2024-02-29']) {
      expect(accept({ ...base, search_after_date_filter: d }).search_after_date_filter).toBe(d);
    }
    for (const d of ['2025/03/01', '1 March 2025', '2/30/2025', '2025-13-01', '2023-02-29', '']) {
      for (const key of [
        'search_after_date_filter',
        'search_before_date_filter',
        'last_updated_after_filter',
        'last_updated_before_filter',
      ]) {
        const [e] = reject({ ...base, [key]: d });
        expect(e!.loc).toEqual(['body', key]);
        expect(e!.msg).toContain('M/D/YYYY or YYYY-MM-DD');
      }
    }
  });

  it('parses filter dates to UTC midnight and refuses impossible dates', () => {
    expect(parseFilterDate('3/1/2025')?.toISOString()).toBe('2025-03-01T00:00:00.000Z');
    expect(parseFilterDate('2025-03-01')?.toISOString()).toBe('2025-03-01T00:00:00.000Z');
    expect(parseFilterDate('2/29/2024')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseFilterDate('2/29/2023')).toBeNull();
    expect(parseFilterDate('2025-3-1')).toBeNull();
    expect(parseFilterDate('13/1/2025')).toBeNull();
  });

  it('rejects wrong types of boolean and string fields', () => {
    expect(reject({ ...base, return_images: 'true' })[0]).toMatchObject({
      loc: ['body', 'return_images'],
      type: 'bool_type',
    });
    expect(reject({ ...base, language_preference: 5 })[0]).toMatchObject({
      loc: ['body', 'language_preference'],
      type: 'string_type',
    });
  });

  it('reports every failing field, not only the first', () => {
    const locs = locOf({ ...base, temperature: 9, top_p: 9, max_tokens: 0 });
    expect(locs).toEqual([
      ['body', 'max_tokens'],
      ['body', 'temperature'],
      ['body', 'top_p'],
    ]);
  });
});

const response = {
  id: 'r1',
  model: 'core',
  created: 1_700_000_000,
  choices: [
    {
      index: 0,
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'Hello [1]' },
      delta: { role: 'assistant', content: '' },
    },
  ],
  usage: {
    prompt_tokens: 5,
    completion_tokens: 2,
    total_tokens: 7,
    cost: { input_tokens_cost: 0.1, output_tokens_cost: 0.1, total_cost: 0.2 },
  },
  search_results: [{ title: 'T', url: 'https://x' }],
};

describe('chat completion responses', () => {
  it('parses a response, defaults object/snippet/source and keeps unknown keys', () => {
    const v = ChatCompletionResponseSchema.parse({ ...response, new_field: 1 });
    expect(v.object).toBe('chat.completion');
    expect(v.search_results![0]).toEqual({
      title: 'T',
      url: 'https://x',
      snippet: '',
      source: 'web',
    });
    expect((v as Record<string, unknown>).new_field).toBe(1);
  });

  it('rejects a response missing a required field', () => {
    const { created: _c, ...noCreated } = response;
    expect(ChatCompletionResponseSchema.safeParse(noCreated).success).toBe(false);
    const noCost = { ...response, usage: { ...response.usage, cost: undefined } };
    expect(ChatCompletionResponseSchema.safeParse(noCost).success).toBe(false);
  });

  it('parses stream chunks and the concise done event, and tells them apart by object', () => {
    const chunk = {
      id: 'r1',
      model: 'core',
      created: 1,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: { content: 'He' } }],
    };
    expect(ChatCompletionChunkSchema.parse(chunk).choices[0]!.delta.content).toBe('He');
    const done = {
      id: 'r1',
      model: 'core',
      created: 1,
      object: 'chat.completion.done',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' },
      ],
      search_results: [],
      citations: [],
      usage: response.usage,
    };
    expect(ChatCompletionDoneEventSchema.parse(done).choices[0]!.message.content).toBe('Hello');
    expect(ChatCompletionChunkSchema.safeParse(done).success).toBe(false);
    expect(ChatCompletionDoneEventSchema.safeParse(chunk).success).toBe(false);
  });
});
