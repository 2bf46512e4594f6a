/**
 * Client-side checks with the shared protocol schemas: requests are validated before they are
 * sent (the server runs the same schema), responses are parsed leniently.
 */
import type { z } from 'zod';
import { parseRequest } from '../protocol/index.js';
import type { ValidationRoot } from '../protocol/index.js';
import { ResponseShapeError, ValidationError } from '../errors.js';

/**
 * Validate request params with the schema the server uses. Nothing is sent when this throws.
 * @returns `params` unchanged: the server applies defaults itself, with the same schema.
 * @throws {ValidationError} status 422 with `detail[].loc` naming the offending field, e.g.
 * `['body', 'messages', 0, 'role']`.
 */
export function validateRequest<P>(
  schema: z.ZodType,
  params: P,
  method: string,
  path: string,
  root: ValidationRoot = 'body',
): P {
  const r = parseRequest(schema, params, root);
  if (r.ok) return params;
  const summary = r.body.detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ');
  throw new ValidationError(`Invalid request (not sent): ${method} ${path}: ${summary}`, {
    status: 422,
    body: r.body,
  });
}

/**
 * Parse a 2xx body with a lenient response schema (unknown fields pass through).
 * @throws {ResponseShapeError} naming the first field that breaks the contract.
 */
export function parseResponse<S extends z.ZodType>(
  schema: S,
  data: unknown,
  method: string,
  path: string,
): z.output<S> {
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  const first = r.error.issues[0];
  const where = first === undefined || first.path.length === 0 ? '(root)' : first.path.join('.');
  throw new ResponseShapeError(
    `Response breaks the contract: ${method} ${path}: ${where}: ${first?.message ?? 'invalid'}`,
    { cause: r.error, body: data },
  );
}
