// What tools answer: JSON text (plus the same value as structured content), images, and tool errors
// that name the offending field, so an agent can correct its call instead of seeing a crash.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { APIError, SvcError, ValidationError } from '../../errors.js';
import type { ValidationIssue } from '../../errors.js';

/** A mistake in a tool's arguments found after parsing: the field and what is wrong with it. */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
  /** The argument at fault, as the tool's input schema names it. */
  readonly field: string;

  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.field = field;
  }
}

/** A tool result holding `value` as JSON text and as structured content. */
export function jsonResult(value: Record<string, unknown>, extra: CallToolResult['content'] = []) {
  return {
    content: [{ type: 'text' as const, text: JSON.stringify(value, null, 2) }, ...extra],
    structuredContent: value,
  } satisfies CallToolResult;
}

/** An MCP image content block holding PNG bytes. */
export function pngBlock(bytes: Buffer): { type: 'image'; data: string; mimeType: string } {
  return { type: 'image', data: bytes.toString('base64'), mimeType: 'image/png' };
}

/** A tool error result: `isError` with one text block. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * The message of a tool error for `error`: a 422 of the service names the field of the tool's
 * arguments it came from (`loc` without the `body` root); our own errors keep their message.
 */
export function errorMessage(tool: string, error: unknown): string {
  if (error instanceof ToolInputError) return `${tool}: invalid ${error.message}`;
  if (error instanceof ValidationError && error.detail.length > 0) {
    return invalidArguments(tool, error.detail);
  }
  if (error instanceof APIError || error instanceof SvcError) return `${tool}: ${error.message}`;
  return `${tool} failed: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * The message of a tool error for schema issues (a 422 `detail`): each names its field as a path
 * into the tool's arguments, e.g. `search: invalid arguments: max_results must be at least 1 and
 * at most 20; got 50`.
 */
export function invalidArguments(tool: string, detail: readonly ValidationIssue[]): string {
  const issues = detail.map((d) => {
    const field = d.loc
      .filter((p, i) => !(i === 0 && (p === 'body' || p === 'query')))
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
      .join('')
      .replace(/^\./, '');
    if (d.type === 'missing') return `${field} is required`;
    // The package's messages start with the field already ("max_results must be ...").
    return field !== '' && d.msg.startsWith(field) ? d.msg : `${field || 'arguments'}: ${d.msg}`;
  });
  return `${tool}: invalid arguments: ${issues.join('; ')}`;
}
