import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ContextualizedEmbeddingsRequestSchema,
  ContextualizedEmbeddingsResponseSchema,
  EmbeddingsRequestSchema,
  EmbeddingsResponseSchema,
  MAX_TOKENS_PER_TEXT,
  countTokens,
  parseRequest,
} from '../../../src/protocol/index.js';

function reject(schema: z.ZodType, data: unknown) {
  const r = parseRequest(schema, data, 'body');
  if (r.ok) throw new Error('expected rejection');
  return r.body.detail;
}
function accept(schema: z.ZodType, data: unknown) {
  const r = parseRequest(schema, data, 'body');
  if (!r.ok) throw new Error(`expected acceptance, got ${JSON.stringify(r.body).slice(0, 500)}`);
  return r.value as Record<string, unknown>;
}

// " word" is one o200k token, so `words(n)` holds n + 1 tokens and costs almost nothing to build.
const words = (n: number) => 'word '.repeat(n);
const S = EmbeddingsRequestSchema;
const C = ContextualizedEmbeddingsRequestSchema;
const std = { model: 'svc-embed-v1-0.6b' };
const ctx = { model: 'svc-embed-context-v1-0.6b' };

describe('standard embeddings request (spec 4.8)', () => {
  it('accepts a string or an array and defaults encoding_format to base64_int8', () => {
    expect(accept(S, { ...std, input: 'hello' }).encoding_format).toBe('base64_int8');
    const v = accept(S, { ...std, input: ['a', 'b'], encoding_format: 'base64_binary' });
    expect(v.encoding_format).toBe('base64_binary');
    expect(reject(S, { ...std, input: 'a', encoding_format: 'float' })[0]!.loc).toEqual([
      'body',
      'encoding_format',
    ]);
  });

  it('accepts only the standard model names', () => {
    accept(S, { model: 'svc-embed-v1-4b', input: 'a' });
    const [d] = reject(S, { model: 'svc-embed-context-v1-0.6b', input: 'a' });
    expect(d!.loc).toEqual(['body', 'model']);
    expect(d!.msg).toContain('svc-embed-v1-0.6b, svc-embed-v1-4b');
  });

  it('accepts 512 texts and rejects 513', () => {
    accept(S, { ...std, input: Array.from({ length: 512 }, () => 'x') });
    const [d] = reject(S, { ...std, input: Array.from({ length: 513 }, () => 'x') });
    expect(d).toMatchObject({ loc: ['body', 'input'], type: 'too_long' });
    expect(d!.msg).toBe('input must hold at most 512 texts; got 513');
  });

  it('rejects an empty string at its exact index', () => {
    expect(reject(S, { ...std, input: ['a', 'b', 'c', '', 'e'] })).toEqual([
      {
        loc: ['body', 'input', 3],
        msg: 'input[3] must not be empty',
        type: 'string_too_short',
      },
    ]);
    expect(reject(S, { ...std, input: '' })[0]!.loc).toEqual(['body', 'input']);
    expect(reject(S, { ...std, input: [] })[0]!.loc).toEqual(['body', 'input']);
  });

  it('rejects a non-string element at its index', () => {
    expect(reject(S, { ...std, input: ['a', 7] })[0]).toMatchObject({
      loc: ['body', 'input', 1],
      type: 'string_type',
    });
  });

  it('accepts a long text within 32,768 tokens even when its bytes exceed the limit', () => {
    const text = words(30_000);
    expect(text.length).toBeGreaterThan(MAX_TOKENS_PER_TEXT);
    accept(S, { ...std, input: [text] });
  });

  it('rejects a text over 32,768 tokens at its index', () => {
    const d = reject(S, { ...std, input: ['short', words(33_000)] });
    expect(d).toEqual([
      {
        loc: ['body', 'input', 1],
        msg: 'input[1] must be at most 32768 tokens',
        type: 'too_many_tokens',
      },
    ]);
    expect(reject(S, { ...std, input: words(33_000) })[0]!.loc).toEqual(['body', 'input']);
  });

  it('accepts 116,004 tokens in total and rejects 124,004', () => {
    accept(S, { ...std, input: Array.from({ length: 4 }, () => words(29_000)) });
    const [d] = reject(S, { ...std, input: Array.from({ length: 4 }, () => words(31_000)) });
    expect(d).toEqual({
      loc: ['body', 'input'],
      msg: 'input must hold at most 120000 tokens in total; got 124004',
      type: 'too_many_tokens',
    });
  });

  it('stops counting past twice the limit and says so', () => {
    const started = performance.now();
    const [d] = reject(S, { ...std, input: Array.from({ length: 9 }, () => words(31_000)) });
    expect(d!.msg).toBe('input must hold at most 120000 tokens in total; got more than 240000');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('bounds dimensions to 128..1024 for 0.6b and 128..2560 for 4b', () => {
    expect(accept(S, { ...std, input: 'a', dimensions: 128 }).dimensions).toBe(128);
    expect(accept(S, { ...std, input: 'a', dimensions: 1024 }).dimensions).toBe(1024);
    expect(reject(S, { ...std, input: 'a', dimensions: 2560 })).toEqual([
      {
        loc: ['body', 'dimensions'],
        msg: 'dimensions must be between 128 and 1024 for svc-embed-v1-0.6b; got 2560',
        type: 'dimensions_out_of_range',
      },
    ]);
    expect(reject(S, { ...std, input: 'a', dimensions: 127 })[0]!.loc).toEqual([
      'body',
      'dimensions',
    ]);
    accept(S, { model: 'svc-embed-v1-4b', input: 'a', dimensions: 2560 });
    expect(reject(S, { model: 'svc-embed-v1-4b', input: 'a', dimensions: 2561 })[0]!.msg).toContain(
      'between 128 and 2560 for svc-embed-v1-4b',
    );
    expect(reject(S, { ...std, input: 'a', dimensions: 256.5 })[0]!.type).toBe('int_type');
  });

  it('reports dimension and input problems together', () => {
    const locs = reject(S, { ...std, input: ['a', ''], dimensions: 4096 }).map((d) => d.loc);
    expect(locs).toEqual([
      ['body', 'input', 1],
      ['body', 'dimensions'],
    ]);
  });

  it('counts special-token text as plain text instead of throwing', () => {
    expect(countTokens('a <|endoftext|> b')).toBeGreaterThan(3);
    accept(S, { ...std, input: '<|endoftext|>' });
  });
});

describe('contextualized embeddings request (spec 4.9)', () => {
  it('accepts documents of chunks and a single query as [[query]]', () => {
    accept(C, { ...ctx, input: [['q']] });
    const v = accept(C, {
      model: 'svc-embed-context-v1-4b',
      input: [['a', 'b'], ['c']],
      dimensions: 2560,
    });
    expect(v.encoding_format).toBe('base64_int8');
  });

  it('accepts only the contextualized model names', () => {
    expect(reject(C, { model: 'svc-embed-v1-0.6b', input: [['a']] })[0]!.loc).toEqual([
      'body',
      'model',
    ]);
  });

  it('rejects a flat string array at the document index', () => {
    expect(reject(C, { ...ctx, input: ['a'] })[0]).toMatchObject({
      loc: ['body', 'input', 0],
      type: 'list_type',
    });
  });

  it('rejects an empty chunk at its document and chunk index', () => {
    const input = [['a'], ['b'], ['c', 'd', 'e', 'f', 'g', '']];
    expect(reject(C, { ...ctx, input })[0]!.loc).toEqual(['body', 'input', 2, 5]);
  });

  it('accepts 512 documents and rejects 513', () => {
    accept(C, { ...ctx, input: Array.from({ length: 512 }, () => ['x']) });
    expect(reject(C, { ...ctx, input: Array.from({ length: 513 }, () => ['x']) })[0]).toMatchObject(
      { loc: ['body', 'input'], type: 'too_long' },
    );
  });

  it('accepts 16,000 chunks and rejects 16,001', () => {
    const docs = (extra: number) => [
      ...Array.from({ length: 32 }, () => Array.from({ length: 500 }, () => 'c')),
      ...(extra ? [Array.from({ length: extra }, () => 'c')] : []),
    ];
    accept(C, { ...ctx, input: docs(0) });
    expect(reject(C, { ...ctx, input: docs(1) })).toEqual([
      {
        loc: ['body', 'input'],
        msg: 'input must hold at most 16000 chunks in total; got 16001',
        type: 'too_long',
      },
    ]);
  });

  it('rejects a document whose chunks together exceed 32,768 tokens, at the document index', () => {
    const input = [['ok'], [words(17_000), words(17_000)]];
    expect(reject(C, { ...ctx, input })).toEqual([
      {
        loc: ['body', 'input', 1],
        msg: 'input[1] must be at most 32768 tokens over all its chunks',
        type: 'too_many_tokens',
      },
    ]);
    accept(C, { ...ctx, input: [[words(16_000), words(16_000)]] });
  });

  it('rejects more than 120,000 tokens over all chunks', () => {
    const input = Array.from({ length: 4 }, () => [words(15_500), words(15_500)]);
    expect(reject(C, { ...ctx, input })).toEqual([
      {
        loc: ['body', 'input'],
        msg: 'input must hold at most 120000 tokens in total; got 124008',
        type: 'too_many_tokens',
      },
    ]);
  });

  it('bounds dimensions per model', () => {
    expect(reject(C, { ...ctx, input: [['a']], dimensions: 2560 })[0]!.msg).toBe(
      'dimensions must be between 128 and 1024 for svc-embed-context-v1-0.6b; got 2560',
    );
  });
});

describe('embedding responses (spec 2.8)', () => {
  it('parses the standard and contextualized shapes leniently', () => {
    const s = EmbeddingsResponseSchema.parse({
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: 'AAE=' }],
      model: 'svc-embed-v1-0.6b',
      usage: {
        prompt_tokens: 1,
        total_tokens: 1,
        cost: { input_cost: 0, total_cost: 0, currency: 'USD' },
      },
      extra: true,
    });
    expect((s as Record<string, unknown>).extra).toBe(true);
    const c = ContextualizedEmbeddingsResponseSchema.parse({
      object: 'list',
      data: [
        { object: 'list', index: 0, data: [{ object: 'embedding', index: 0, embedding: 'AA==' }] },
      ],
      model: 'svc-embed-context-v1-0.6b',
      usage: { prompt_tokens: 1, total_tokens: 1 },
    });
    expect(c.data[0]!.data[0]!.embedding).toBe('AA==');
    expect(
      EmbeddingsResponseSchema.safeParse({ object: 'list', data: [{ index: 0 }] }).success,
    ).toBe(false);
  });
});

describe('embeddings request bodies that are not objects', () => {
  it.each([null, 5, 'text', []])(
    'answers %j with a 422 at ["body"], never an exception',
    (body) => {
      for (const schema of [EmbeddingsRequestSchema, ContextualizedEmbeddingsRequestSchema]) {
        const result = parseRequest(schema, body, 'body');
        expect(result.ok).toBe(false);
        if (!result.ok)
          expect(result.body.detail[0]).toMatchObject({ loc: ['body'], type: 'dict_type' });
      }
    },
  );
});
