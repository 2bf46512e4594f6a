import type { Context } from 'hono';
import type { z } from 'zod';
import { parseRequest } from '../protocol/index.js';
import { ValidationHttpError } from './http-error.js';

/**
 * Reads and validates the JSON body with the shared request schema.
 * @throws ValidationHttpError 422 with the spec's detail body (exact `loc`) on bad JSON or bad fields
 */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const text = await c.req.text();
  let data: unknown;
  try {
    data = text.length === 0 ? undefined : JSON.parse(text);
  } catch (error) {
    throw new ValidationHttpError({
      detail: [
        {
          loc: ['body'],
          msg: `Body is not valid JSON: ${(error as Error).message}`,
          type: 'json_invalid',
        },
      ],
    });
  }
  if (data === undefined) {
    throw new ValidationHttpError({
      detail: [{ loc: ['body'], msg: 'Field required: send a JSON object body', type: 'missing' }],
    });
  }
  return check(schema, data, 'body');
}

/** Validates the query string with `schema`; a failure is a 422 whose `loc` starts at `"query"`. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return check(schema, c.req.query(), 'query');
}

function check<S extends z.ZodType>(schema: S, data: unknown, root: 'body' | 'query'): z.output<S> {
  const result = parseRequest(schema, data, root);
  if (!result.ok) throw new ValidationHttpError(result.body);
  return result.value as z.output<S>;
}
