import type { Context } from 'hono';
import type { z } from 'zod';
import { parseRequest } from '../protocol/index.js';
import type { ValidationRoot } from '../protocol/index.js';
import { Invalid } from './errors.js';

/** Options of {@link readBody}. */
export interface ReadBodyOptions {
  /** No body at all means `{}` (checked by the schema like any other body). @default false */
  optional?: boolean;
}

/**
 * Reads and validates the JSON body with the shared request schema.
 * @throws Invalid 422 with the spec's detail body (exact `loc`) on bad JSON, a missing body or bad
 * fields
 */
export async function readBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  options: ReadBodyOptions = {},
): Promise<z.output<S>> {
  const text = await c.req.text();
  let data: unknown;
  try {
    data = text.length === 0 ? undefined : JSON.parse(text);
  } catch (error) {
    throw Invalid.at(
      ['body'],
      `Body is not valid JSON: ${(error as Error).message}`,
      'json_invalid',
    );
  }
  if (data === undefined) {
    if (!options.optional)
      throw Invalid.at(['body'], 'Field required: send a JSON object body', 'missing');
    data = {};
  }
  return check(schema, data, 'body');
}

/** Validates the query string with `schema`; a failure is a 422 whose `loc` starts at `"query"`. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return check(schema, c.req.query(), 'query');
}

/** Validates path parameters with `schema`; a failure is a 422 whose `loc` starts at `"path"`. */
export function readPath<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return check(schema, c.req.param(), 'path');
}

function check<S extends z.ZodType>(schema: S, data: unknown, root: ValidationRoot): z.output<S> {
  const result = parseRequest(schema, data, root);
  if (!result.ok) throw new Invalid(result.body.detail);
  return result.value as z.output<S>;
}
