import { selectSentences } from './compose.js';
import type { CitedSentence, Passage } from './compose.js';

type JsonSchema = Record<string, unknown>;

interface FillContext {
  question: string;
  passages: readonly Passage[];
  cited: readonly CitedSentence[];
  depth: number;
}

/**
 * Builds a value that follows `schema` (objects, arrays, strings, numbers, integers, booleans, enums,
 * const, anyOf/oneOf) from the retrieved passages: each field is filled from the passage sentence that
 * best matches the question plus the field's name, so values carry retrieved text, never invented
 * facts. Fields with nothing to fill them get the type's empty value.
 */
export function fillJsonSchema(
  schema: Record<string, unknown>,
  question: string,
  passages: readonly Passage[],
  cited: readonly CitedSentence[],
): unknown {
  return fill(schema, '', { question, passages, cited, depth: 0 });
}

function fill(schema: JsonSchema, key: string, ctx: FillContext): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return pickEnum(schema.enum, ctx);
  const branch = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branch) && branch.length > 0) {
    return fill(branch.find((b) => b.type !== 'null') ?? branch[0]!, key, ctx);
  }
  const type = Array.isArray(schema.type)
    ? (schema.type.find((t) => t !== 'null') ?? 'null')
    : schema.type;
  switch (type) {
    case 'object':
      return fillObject(schema, ctx);
    case 'array':
      return fillArray(schema, key, ctx);
    case 'string':
      return fillString(schema, key, ctx);
    case 'integer':
    case 'number':
      return fillNumber(schema, key, ctx, type === 'integer');
    case 'boolean':
      return bestSentence(key, ctx) !== undefined;
    case 'null':
      return null;
    default:
      return schema.properties ? fillObject(schema, ctx) : fillString(schema, key, ctx);
  }
}

function fillObject(schema: JsonSchema, ctx: FillContext): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const out: Record<string, unknown> = {};
  if (ctx.depth > 6) return out;
  for (const [name, sub] of Object.entries(properties)) {
    out[name] = fill(sub, name, { ...ctx, depth: ctx.depth + 1 });
  }
  return out;
}

function fillArray(schema: JsonSchema, key: string, ctx: FillContext): unknown[] {
  const items = (schema.items ?? { type: 'string' }) as JsonSchema;
  const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : 5;
  const sentences = candidates(key, ctx, max);
  const count = Math.min(max, Math.max(min, sentences.length));
  return Array.from({ length: count }, (_, i) => {
    const sentence = sentences[i % Math.max(1, sentences.length)];
    const itemCtx = { ...ctx, depth: ctx.depth + 1, cited: sentence ? [sentence] : ctx.cited };
    return items.type === 'string' && sentence
      ? clampString(items, sentence.text)
      : fill(items, key, itemCtx);
  });
}

function fillString(schema: JsonSchema, key: string, ctx: FillContext): string {
  const lower = key.toLowerCase();
  const top = ctx.passages[0];
  if (top && /(^|_)(url|link|source)s?$/.test(lower)) return top.url;
  if (top && /(^|_)title$/.test(lower)) return top.title;
  if (schema.format === 'date' || schema.format === 'date-time' || /date$/.test(lower)) {
    const date = top?.date ?? top?.lastUpdated ?? new Date(0).toISOString();
    return schema.format === 'date' ? date.slice(0, 10) : date;
  }
  return clampString(schema, bestSentence(key, ctx)?.text ?? '');
}

function fillNumber(schema: JsonSchema, key: string, ctx: FillContext, integer: boolean): number {
  const text = candidates(key, ctx, 5)
    .map((s) => s.text)
    .join(' ');
  const found = /-?\d+(?:[.,]\d+)?/.exec(text)?.[0];
  let n = found === undefined ? 0 : Number(found.replace(',', '.'));
  if (integer) n = Math.round(n);
  if (typeof schema.minimum === 'number') n = Math.max(n, schema.minimum);
  if (typeof schema.maximum === 'number') n = Math.min(n, schema.maximum);
  return n;
}

function pickEnum(values: unknown[], ctx: FillContext): unknown {
  const text = ctx.passages
    .map((p) => p.text)
    .join(' ')
    .toLowerCase();
  return values.find((v) => typeof v === 'string' && text.includes(v.toLowerCase())) ?? values[0];
}

function clampString(schema: JsonSchema, text: string): string {
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const value = text.length > max ? text.slice(0, max) : text;
  return value.length < min ? value.padEnd(min, '.') : value;
}

function candidates(key: string, ctx: FillContext, max: number): CitedSentence[] {
  const query = `${ctx.question} ${key.replace(/[_-]+/g, ' ')}`;
  const found = selectSentences(query, ctx.passages, { maxSentences: max, maxPerSource: max });
  return found.length > 0 ? found : [...ctx.cited].slice(0, max);
}

function bestSentence(key: string, ctx: FillContext): CitedSentence | undefined {
  return candidates(key, ctx, 1)[0];
}
