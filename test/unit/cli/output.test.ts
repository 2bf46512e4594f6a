// The terminal helpers of `svc`, in process (no sockets): progress, tables, errors, sources.
import { describe, expect, it } from 'vitest';
import {
  ProgressBar,
  exitCodeFor,
  formatSources,
  formatTable,
  printError,
} from '../../../src/cli/output.js';
import { EXIT, UsageError } from '../../../src/cli/common.js';
import { APIError, AbortError, ConnectionError } from '../../../src/errors.js';

function sink(isTTY: boolean): {
  out: string[];
  isTTY: boolean;
  columns: number;
  write(s: string): void;
} {
  const out: string[] = [];
  return { out, isTTY, columns: 120, write: (s: string) => void out.push(s) };
}

describe('ProgressBar', () => {
  it('prints one line per 10% step when not on a TTY', () => {
    const stream = sink(false);
    let t = 0;
    const bar = new ProgressBar({ label: 'indexing', total: 200, stream, now: () => t });
    for (let i = 1; i <= 200; i++) {
      t += 50;
      bar.update(i);
    }
    bar.finish();
    expect(stream.out).toHaveLength(11);
    expect(stream.out.every((l) => l.endsWith('\n') && !l.includes('\r'))).toBe(true);
    expect(stream.out.at(-1)).toBe(
      'indexing [########################] 200/200 100% 20.0/s ETA 0s\n',
    );
  });

  it('redraws one line in place on a TTY, with counts, rate, ETA and the current item', () => {
    const stream = sink(true);
    let t = 0;
    const bar = new ProgressBar({ label: 'indexing', stream, now: () => t });
    t = 1_000;
    bar.update(5, 20, '/data/a.html');
    expect(stream.out[0]).toBe(
      '\rindexing [######..................] 5/20 25% 5.0/s ETA 3.0s  /data/a.html\x1b[K',
    );
    t = 1_010;
    bar.update(6, 20, '/data/b.html');
    expect(stream.out).toHaveLength(1); // throttled: redraws at most every 80 ms
    t = 4_000;
    bar.update(20, 20, '/data/z.html');
    bar.finish();
    const last = stream.out.at(-1)!;
    expect(last.startsWith('\rindexing [########################] 20/20 100% ')).toBe(true);
    expect(last.endsWith('ETA 0s  /data/z.html\x1b[K\n')).toBe(true);
  });
});

describe('formatTable', () => {
  it('aligns columns, right-aligns numbers and shortens long cells', () => {
    const text = formatTable(
      ['outcome', 'count', 'note'],
      [
        ['added', '14', 'x'.repeat(12)],
        ['failed', '2', ''],
      ],
      { alignRight: [1], maxWidth: [20, 5, 8] },
    );
    expect(text).toBe(
      'outcome  count  note\n' +
        '-------  -----  --------\n' +
        'added       14  xxxxxxx…\n' +
        'failed       2\n',
    );
  });
});

describe('printError', () => {
  it('shows each ValidationError issue as a loc: msg line and returns exit 1', () => {
    const stream = sink(false);
    const error = APIError.from(
      422,
      { detail: [{ loc: ['body', 'messages', 0, 'role'], msg: 'Invalid option', type: 'enum' }] },
      {},
      'POST',
      '/chat/completions',
    );
    expect(printError(error, stream)).toBe(EXIT.failure);
    expect(stream.out.join('')).toMatch(
      /^svc: Validation failed \(422\): POST \/chat\/completions: .*\n {2}messages\.0\.role: Invalid option\n$/,
    );
  });

  it('maps usage, unreachable, refused key and Ctrl-C to 2, 3, 3 and 130', () => {
    expect(exitCodeFor(new UsageError('x'))).toBe(2);
    expect(exitCodeFor(new ConnectionError('down'))).toBe(3);
    expect(exitCodeFor(APIError.from(401, {}, {}, 'GET', '/x'))).toBe(3);
    expect(exitCodeFor(new AbortError('stop'))).toBe(130);
    expect(exitCodeFor(APIError.from(500, {}, {}, 'GET', '/x'))).toBe(1);
  });
});

describe('formatSources', () => {
  it('numbers sources in citation order with titles and dates from the search results', () => {
    const text = formatSources(
      ['https://b.example/2', 'https://a.example/1'],
      [
        { url: 'https://a.example/1', title: 'A', date: '2024-01-02T00:00:00Z' },
        { url: 'https://b.example/2', title: 'B' },
      ],
      (url) => url.replace('https://', ''),
    );
    expect(text).toBe('Sources:\n[1] B\n    b.example/2\n[2] A (2024-01-02)\n    a.example/1\n');
  });
});
