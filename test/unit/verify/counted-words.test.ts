// Words after a number that count nothing (a verb with its object, an adverb), and a bare number
// against a measure written with its unit.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, extractQuantities, verifyClaim } from '../../../src/verify/index.js';
import { expectConflict } from './expect-verdict.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

const dims = (text: string): string[] => extractQuantities(text).map((q) => `${q.text}|${q.dim}`);

describe('the word after a number', () => {
  it('is no counted noun when it is a verb with its object', () => {
    expect(dims('where 0 represents the start of the process')).toEqual(['0|count']);
    expect(dims('so export const = 1 yields an empty exports list')).toEqual(['1|count']);
    expect(dims('The flags -1 to -9 set the block size')).toEqual(['-1|count', '-9|count']);
    // A verb with a particle, or one WordNet knows only as a verb.
    expect(dims('setting maxRetries to 0 turns retries off')).toEqual(['0|count']);
    expect(dims('a size of 0 disables the cache')).toEqual(['0|count']);
  });

  it('is no counted noun when it is a status code’s reason', () => {
    expect(dims('408 Request Timeout, 409 Conflict, 429 Rate Limit')).toEqual([
      '408|count',
      '409|count',
      '429|count',
    ]);
    // An acronym still qualifies the noun counted.
    expect(dims('runs 1000 SMTP client processes')).toEqual([
      '1000 SMTP client processes|count:process',
    ]);
  });

  it('is no counted noun when it is an adverb', () => {
    expect(dims('a multiplier of 1024 rather than the SI 1000')).not.toContain(
      '1024 rather|count:rather',
    );
  });

  it('stays the counted noun otherwise', () => {
    expect(dims('using 4 workers and 5 retries')).toEqual([
      '4 workers|count:worker',
      '5 retries|count:retry',
    ]);
    expect(dims('up to 3 retries on failure')).toEqual(['up to 3 retries|count:retry']);
  });

  it('lets status codes and a count in words be stated by the page’s codes and count', () => {
    const page =
      'Certain errors will be automatically retried 2 times by default, with a short exponential backoff. Connection errors (for example, due to a network connectivity problem), 408 Request Timeout, 409 Conflict, 429 Rate Limit, and >=500 Internal errors will all be retried by default.';
    const claim = (count: string): string =>
      `By default certain failed requests are retried ${count} with a short exponential backoff, including connection errors and 408, 409 and 429 responses.`;
    const r = verifyClaim(claim('twice'), page);
    expect(r.conflicts).toEqual([]);
    expect(r.verdict, r.reason).toBe('supported');
    expectConflict(claim('three times'), page, 'number', { claim: 'three times', page: '2 times' });
  });

  it('lets a number with a verb after it be stated by the same number with another verb', () => {
    const r = verifyClaim(
      'performance.now() returns the current high resolution timestamp in milliseconds, with 0 standing for the start of the current Node.js process.',
      'Returns the current high resolution millisecond timestamp, where 0 represents the start of the current node process.',
      { context: 'performance.now() | Node.js v20 Documentation' },
    );
    expect(r.missing, r.reason).toEqual([]);
    expect(r.verdict, r.reason).toBe('supported');
  });
});

describe('a bare number against a measure written with its unit', () => {
  const page =
    'If the path is longer, it is truncated to sizeof(sockaddr_un.sun_path) - 1 bytes. Typical values are 107 bytes on Linux and 103 bytes on macOS.';

  it('is another value when the measure’s number differs', () => {
    expectConflict(
      'The path is truncated to sizeof(sockaddr_un.sun_path) - 1 bytes, which is typically 108 on Linux and 103 on macOS.',
      page,
      'number',
      { claim: '108', page: '107 bytes' },
    );
  });

  it('is the same value when the number is the same', () => {
    const r = verifyClaim(
      'The path is truncated to sizeof(sockaddr_un.sun_path) - 1 bytes, which is typically 107 on Linux and 103 on macOS.',
      page,
    );
    expect(r.conflicts).toEqual([]);
    expect(r.verdict, r.reason).toBe('supported');
  });
});

describe('a value the claim gives before a name', () => {
  it('does not belong to that name: the name qualifies another thing', () => {
    const r = verifyClaim(
      "A kiss-o'-death packet carries leap indicator 3, stratum 0 and a four-octet ASCII reference identifier.",
      "A special packet has been created for this purpose called the kiss-o'-death (KoD) packet. KoD packets have leap indicator 3, stratum 0 and the reference identifier set to a four-octet ASCII code. At present, only one code RATE is sent by the server if the limited and kod flags of the restrict command are present.",
    );
    expect(r.conflicts, r.reason).toEqual([]);
    expect(r.verdict, r.reason).toBe('supported');
  });
});
