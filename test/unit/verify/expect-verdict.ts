/**
 * Assertions shared by the verifier's unit tests: a claim against a passage is supported, or
 * contradicted with a conflict of a given kind.
 */
import { expect } from 'vitest';
import { verifyClaim } from '../../../src/verify/index.js';
import type { ClaimVerdict, ConflictKind, VerifyClaimOptions } from '../../../src/verify/index.js';

/** The verdict of `claim` against `page`, with `context` as the page's headings and title. */
export function verdictOf(claim: string, page: string, context?: string): ClaimVerdict {
  return verifyClaim(claim, page, { context }).verdict;
}

/** Asserts a contradiction carrying a conflict of `kind` between the two texts. */
export function expectConflict(
  claim: string,
  page: string,
  kind: ConflictKind,
  texts?: { claim: string; page: string },
  options: VerifyClaimOptions = {},
): void {
  const r = verifyClaim(claim, page, options);
  expect(r.verdict, r.reason).toBe('contradicted');
  const conflict = r.conflicts.find((c) => c.kind === kind);
  expect(conflict, JSON.stringify(r.conflicts)).toBeDefined();
  if (texts) expect(conflict).toMatchObject(texts);
}

/** Asserts the passage supports the claim, with nothing in conflict. */
export function expectSupported(
  claim: string,
  page: string,
  options: VerifyClaimOptions = {},
): void {
  const r = verifyClaim(claim, page, options);
  expect(r.verdict, `${r.reason} ${JSON.stringify(r.conflicts)}`).toBe('supported');
  expect(r.conflicts).toEqual([]);
}
