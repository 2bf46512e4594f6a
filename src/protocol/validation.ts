import type { z } from 'zod';
import type { ValidationErrorBody, ValidationErrorDetail } from './errors.js';

type Issue = z.core.$ZodIssue;
type Path = PropertyKey[];

/** Where a validated value came from; the first element of every `loc`. */
export type ValidationRoot = 'body' | 'query' | 'path';

/** One issue with its absolute path, after unions were resolved to their best branch. */
interface Flat {
  path: Path;
  issue: Issue;
  /** Set when every branch of a union failed on the value's type itself. */
  unionTypes?: string[];
  missing?: boolean;
}

const RECEIVED_UNDEFINED = /received undefined$/;

function isMissing(issue: Issue): boolean {
  if (issue.code !== 'invalid_type' && issue.code !== 'invalid_value') return false;
  if ('input' in issue && issue.input !== undefined) return false;
  return 'input' in issue || RECEIVED_UNDEFINED.test(issue.message);
}

/** Deepest path length in a branch, relative to the union; shallow type errors score lowest. */
function score(flats: Flat[], baseLen: number): [number, number, number] {
  const depth = Math.max(...flats.map((f) => f.path.length - baseLen));
  const rootTypeErrors = flats.filter(
    (f) => f.path.length === baseLen && f.issue.code === 'invalid_type',
  ).length;
  return [depth, -rootTypeErrors, -flats.length];
}

const better = (a: [number, number, number], b: [number, number, number]): boolean =>
  a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] > b[2];

function flatten(issue: Issue, base: Path): Flat[] {
  const path = [...base, ...issue.path];
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ path, issue }];
  const branches = issue.errors.map((errs) => errs.flatMap((e) => flatten(e, path)));
  // Every branch rejected the value's own type (e.g. 5 for `string | {url}`): one entry naming all.
  const allRootTypes = branches.every(
    (b) =>
      b.length === 1 && b[0]!.path.length === path.length && b[0]!.issue.code === 'invalid_type',
  );
  if (allRootTypes) {
    const types = branches.map((b) => (b[0]!.issue as { expected?: string }).expected ?? 'value');
    const missing = branches.some((b) => isMissing(b[0]!.issue));
    return [{ path, issue, unionTypes: types, missing }];
  }
  // The branch that matched furthest gives the deepest, most useful location.
  let best = branches[0] ?? [];
  let bestScore = score(best, path.length);
  for (const b of branches.slice(1)) {
    const s = score(b, path.length);
    if (better(s, bestScore)) [best, bestScore] = [b, s];
  }
  return best;
}

/** `messages[0].content[1].image_url` from a path; `body` for the root. */
function subjectOf(path: Path, root: ValidationRoot): string {
  let out = '';
  for (const p of path) {
    out += typeof p === 'number' ? `[${p}]` : out === '' ? String(p) : `.${String(p)}`;
  }
  return out === '' ? root : out;
}

function show(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `an array of ${v.length} items`;
  return `an ${typeof v}`;
}

const TYPE_NAMES: Record<string, [type: string, noun: string]> = {
  string: ['string_type', 'a string'],
  number: ['number_type', 'a number'],
  int: ['int_type', 'an integer'],
  boolean: ['bool_type', 'a boolean'],
  array: ['list_type', 'an array'],
  object: ['dict_type', 'an object'],
  null: ['none_required', 'null'],
};

const typeName = (t: string): [string, string] => TYPE_NAMES[t] ?? [`${t}_type`, `a ${t}`];

function got(issue: Issue): string {
  const shown = 'input' in issue ? show(issue.input) : undefined;
  return shown === undefined ? '' : `; got ${shown}`;
}

function boundText(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>): [string, string] {
  const small = issue.code === 'too_small';
  const bound = String(small ? issue.minimum : issue.maximum);
  const incl = issue.inclusive !== false;
  if (issue.origin === 'string') {
    return [
      small ? 'string_too_short' : 'string_too_long',
      `must be ${small ? 'at least' : 'at most'} ${bound} characters`,
    ];
  }
  if (issue.origin === 'array' || issue.origin === 'set') {
    return [
      small ? 'too_short' : 'too_long',
      `must hold ${small ? 'at least' : 'at most'} ${bound} items`,
    ];
  }
  if (small)
    return [
      incl ? 'greater_than_equal' : 'greater_than',
      `must be ${incl ? 'at least' : 'greater than'} ${bound}`,
    ];
  return [
    incl ? 'less_than_equal' : 'less_than',
    `must be ${incl ? 'at most' : 'less than'} ${bound}`,
  ];
}

function toDetail(f: Flat, root: ValidationRoot): ValidationErrorDetail {
  const loc = [root, ...f.path.map((p) => (typeof p === 'number' ? p : String(p)))];
  const subject = subjectOf(f.path, root);
  const { issue } = f;
  // Our schemas phrase custom messages as "must ...": the subject and offending value complete them.
  const custom = issue.message.startsWith('must ') ? issue.message : undefined;
  if (f.missing || isMissing(issue)) return { loc, msg: 'Field required', type: 'missing' };
  if (f.unionTypes) {
    const nouns = f.unionTypes.map((t) => typeName(t)[1]);
    return {
      loc,
      msg: `${subject} must be ${nouns.join(' or ')}${got(issue)}`,
      type: 'union_type',
    };
  }
  switch (issue.code) {
    case 'invalid_type': {
      // z.int() reports a non-number as expected "number"; our int fields say so in their message.
      const expected = custom?.startsWith('must be an integer') ? 'int' : issue.expected;
      const [type, noun] = typeName(expected);
      return { loc, msg: `${subject} ${custom ?? `must be ${noun}`}${got(issue)}`, type };
    }
    case 'too_small':
    case 'too_big': {
      const [type, text] = boundText(issue);
      const value =
        issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint'
          ? got(issue)
          : Array.isArray(issue.input)
            ? `; got ${issue.input.length}`
            : typeof issue.input === 'string' && issue.input.length > 0
              ? `; got ${issue.input.length} characters`
              : '';
      return { loc, msg: `${subject} ${custom ?? text}${value}`, type };
    }
    case 'invalid_value': {
      const vals = issue.values.map(String);
      if (vals.length === 1) {
        return {
          loc,
          msg: `${subject} must be ${JSON.stringify(issue.values[0])}${got(issue)}`,
          type: 'literal_error',
        };
      }
      return {
        loc,
        msg: `${subject} must be one of ${vals.join(', ')}${got(issue)}`,
        type: 'enum',
      };
    }
    case 'invalid_union': {
      // A discriminated union whose tag matched no option.
      const opts = (issue as { options?: unknown[] }).options ?? [];
      const disc = (issue as { discriminator?: string }).discriminator;
      const input =
        'input' in issue ? (issue.input as Record<string, unknown> | undefined) : undefined;
      const tag =
        disc !== undefined && input && typeof input === 'object' ? input[disc] : undefined;
      if (disc !== undefined && input && typeof input === 'object' && tag === undefined) {
        return { loc, msg: 'Field required', type: 'missing' };
      }
      const shown = show(tag);
      return {
        loc,
        msg: `${subject} must be one of ${opts.map(String).join(', ')}${shown === undefined ? '' : `; got ${shown}`}`,
        type: 'union_tag_invalid',
      };
    }
    case 'invalid_format':
      return {
        loc,
        msg: `${subject} ${custom ?? `must be a valid ${issue.format}`}${got(issue)}`,
        type: issue.format === 'regex' ? 'string_pattern_mismatch' : `${issue.format}_format`,
      };
    case 'unrecognized_keys':
      return {
        loc,
        msg: `${subject} has unknown keys: ${issue.keys.join(', ')}`,
        type: 'extra_forbidden',
      };
    case 'custom': {
      const type = (issue.params as { type?: unknown } | undefined)?.type;
      const msg = custom ? `${subject} ${custom}${got(issue)}` : issue.message;
      return { loc, msg, type: typeof type === 'string' ? type : 'value_error' };
    }
    default:
      return { loc, msg: `${subject}: ${issue.message}`, type: 'value_error' };
  }
}

/**
 * Turn a zod error into the 422 body of spec 2.10: one entry per issue, `loc` = `[root, ...path]`
 * naming the exact field and index, `msg` a sentence a person can act on, `type` a stable string
 * (`missing`, `int_type`, `string_type`, `enum`, `greater_than`, `less_than_equal`, `too_long`,
 * `value_error`, ...). Union failures report the branch that matched furthest. Messages quote the
 * offending value only when the error was produced with `reportInput: true` (as `parseRequest` does).
 * @example toValidationErrorBody(err, 'body') // { detail: [{ loc: ['body', 'max_tokens'], ... }] }
 */
export function toValidationErrorBody(
  error: z.ZodError,
  root: ValidationRoot,
): ValidationErrorBody {
  const detail = error.issues.flatMap((i) => flatten(i, [])).map((f) => toDetail(f, root));
  return { detail };
}

/** Result of `parseRequest`. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; body: ValidationErrorBody };

/**
 * Validate `data` with `schema`; on failure return the 422 body. Never throws for invalid data.
 * @example const r = parseRequest(ChatCompletionRequestSchema, json, 'body'); if (!r.ok) return c.json(r.body, 422);
 */
export function parseRequest<S extends z.ZodType>(
  schema: S,
  data: unknown,
  root: ValidationRoot,
): ParseResult<z.output<S>> {
  const r = schema.safeParse(data, { reportInput: true });
  return r.success
    ? { ok: true, value: r.data }
    : { ok: false, body: toValidationErrorBody(r.error, root) };
}
