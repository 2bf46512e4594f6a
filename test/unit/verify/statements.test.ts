// The statements a claim joins, each a sentence that can be located and verified on its own.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, statementsOf } from '../../../src/verify/index.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('statementsOf', () => {
  it('gives a verb phrase joined by "and" the subject of the first', () => {
    expect(
      statementsOf(
        'zlib.bytesRead has been deprecated since v10.0.0 and is just an alias for zlib.bytesWritten.',
      ),
    ).toEqual([
      'zlib.bytesRead has been deprecated since v10.0.0.',
      'zlib.bytesRead is just an alias for zlib.bytesWritten.',
    ]);
  });

  it('gives a clause after ", which" the name before the comma, and leaves the rest whole', () => {
    expect(
      statementsOf(
        'zlib.params(), which changes the compression level and strategy on the fly, is only available for zlib-based streams.',
      ),
    ).toEqual([
      'zlib.params() is only available for zlib-based streams.',
      'zlib.params() changes the compression level and strategy on the fly.',
    ]);
    expect(
      statementsOf(
        'The property is an alias for zlib.bytesWritten, which counts the bytes written.',
      ),
    ).toEqual([
      'The property is an alias for zlib.bytesWritten.',
      'zlib.bytesWritten counts the bytes written.',
    ]);
  });

  it('reads a participle after the subject as its own statement', () => {
    expect(
      statementsOf('zlib.crc32(), added in Node.js v20.15.0, returns a 32-bit checksum.'),
    ).toEqual([
      'zlib.crc32() returns a 32-bit checksum.',
      'zlib.crc32() was added in Node.js v20.15.0.',
    ]);
  });

  it('splits clauses with their own subjects and opens each with the leading phrase', () => {
    expect(
      statementsOf(
        "In pathToRegexp, the end option defaults to true and the default segment delimiter is '/'.",
      ),
    ).toEqual([
      'In pathToRegexp, the end option defaults to true.',
      "In pathToRegexp, the default segment delimiter is '/'.",
    ]);
    expect(statementsOf('The cache holds 500 entries; stale entries are dropped first.')).toEqual([
      'The cache holds 500 entries.',
      'stale entries are dropped first.',
    ]);
  });

  it('reads commas in brackets as a list, and "According to X," as a leading phrase', () => {
    expect(
      statementsOf(
        'safe-buffer brings the newer APIs (Buffer.from, Buffer.alloc) to every version of Node.js, and uses the built-in implementation whenever it is available.',
      ),
    ).toEqual([
      'safe-buffer brings the newer APIs (Buffer.from, Buffer.alloc) to every version of Node.js.',
      'safe-buffer uses the built-in implementation whenever it is available.',
    ]);
    expect(
      statementsOf(
        'According to its history, the verbatim option has defaulted to true since v17.0.0 and was deprecated in v20.13.0.',
      ),
    ).toEqual([
      'According to its history, the verbatim option has defaulted to true since v17.0.0.',
      'According to its history, the verbatim option was deprecated in v20.13.0.',
    ]);
  });

  it('splits at ", while", gives a pronoun the first subject, and keeps a clause\'s own phrase', () => {
    expect(
      statementsOf(
        'console.debug() is an alias for console.log(), while console.warn() is an alias for console.error().',
      ),
    ).toEqual([
      'console.debug() is an alias for console.log().',
      'console.warn() is an alias for console.error().',
    ]);
    expect(
      statementsOf(
        "When stdout isn't a TTY, console.clear() does nothing, and on Windows it only clears the viewport.",
      ),
    ).toEqual([
      "When stdout isn't a TTY, console.clear() does nothing.",
      'on Windows console.clear() only clears the viewport.',
    ]);
  });

  it('leaves lists of names and numbers, and a subject of two names, in one statement', () => {
    for (const claim of [
      'It supports gzip, deflate, and brotli.',
      'os.loadavg() returns the 1, 5 and 15 minute load averages.',
      'Both tty.ReadStream and tty.WriteStream extend net.Socket.',
      'Buffers are copied before and after each write.',
      'The method returns the sliced buffer, unmanaged data included.',
      'The cif passed to ffi_prep_closure_loc, and the types it refers to, must be kept alive.',
      'Raising it makes Massif run slower, use more memory and write bigger output files.',
    ]) {
      expect(statementsOf(claim), claim).toEqual([claim]);
    }
  });
});

describe('statementsOf with "defaults to"', () => {
  it('splits clauses whose verb is "defaults"', () => {
    expect(
      statementsOf(
        'DeflateMemLevel defaults to 9 and accepts values from 1 to 9, while DeflateWindowSize defaults to 15 and accepts values from 1 to 15.',
      ),
    ).toEqual([
      'DeflateMemLevel defaults to 9.',
      'DeflateMemLevel accepts values from 1 to 9.',
      'DeflateWindowSize defaults to 15.',
      'DeflateWindowSize accepts values from 1 to 15.',
    ]);
  });

  it('leaves a plural noun before "to" and a verb as a noun', () => {
    expect(statementsOf('The cache keeps old entries to reuse them and drops the rest.')).toEqual([
      'The cache keeps old entries to reuse them.',
      'The cache drops the rest.',
    ]);
  });

  it('names the claim’s subject for "it" as a later statement’s object', () => {
    expect(
      statementsOf(
        'The buffered option of performanceObserver.observe() defaults to false; Node.js v16.0.0 removed it and v16.7.0 added it back.',
      ),
    ).toEqual([
      'The buffered option of performanceObserver.observe() defaults to false.',
      'Node.js v16.0.0 removed the buffered option of performanceObserver.observe().',
      'v16.7.0 added the buffered option of performanceObserver.observe() back.',
    ]);
  });

  it('leaves "it" as a subject, and a subject after an opening phrase it cannot find', () => {
    expect(
      statementsOf(
        'An option marked required makes parsing fail, but an option with overrideRequired set lifts that requirement when it is used.',
      ).at(-1),
    ).toMatch(/when it is used\.$/);
    expect(
      statementsOf(
        'In Node.js v18.0.0 the family property reported by os.networkInterfaces() became a number instead of a string, and v18.4.0 made it a string again.',
      ).at(-1),
    ).toBe('v18.4.0 made it a string again.');
  });

  it('cuts a clause whose subject has a participle or two names before its verb', () => {
    expect(
      statementsOf(
        "For IPv6 blocks, netmask's broadcast property is always undefined, and the deprecated maskLong and netLong properties return 0.",
      ),
    ).toEqual([
      "For IPv6 blocks, netmask's broadcast property is always undefined.",
      'For IPv6 blocks, the deprecated maskLong and netLong properties return 0.',
    ]);
    expect(
      statementsOf(
        'When passing aggregates by value, x86-64 and AArch64 now always ignore those bit-fields, whereas PowerPC64 ELFv2 and S/390 always take them into account.',
      ),
    ).toEqual([
      'When passing aggregates by value, x86-64 and AArch64 now always ignore those bit-fields.',
      'When passing aggregates by value, PowerPC64 ELFv2 and S/390 always take them into account.',
    ]);
  });

  it('cuts a clause that opens with its own condition, and keeps the condition', () => {
    expect(
      statementsOf(
        'DeflateBufferSize defaults to 8096 bytes, and if the compressed response is larger than that, httpd switches to chunked transfer encoding and sends no Content-Length header.',
      ),
    ).toEqual([
      'DeflateBufferSize defaults to 8096 bytes.',
      'if the compressed response is larger than that, httpd switches to chunked transfer encoding.',
      'if the compressed response is larger than that, httpd sends no Content-Length header.',
    ]);
  });

  it('does not cut two nouns of a subordinate clause, nor lead with an adverb’s clause', () => {
    expect(
      statementsOf(
        "bc doesn't support recursive functions, since auto variables and parameters are not pushed onto a stack.",
      ),
    ).toEqual([
      "bc doesn't support recursive functions.",
      'auto variables and parameters are not pushed onto a stack.',
    ]);
    expect(
      statementsOf(
        'Normally the PRNG is opaque, but with the state option it gains a state() method.',
      ),
    ).toEqual([
      'Normally the PRNG is opaque.',
      'with the state option the PRNG gains a state() method.',
    ]);
  });

  it('does not cut a list of names at its "and", and cuts at ";" past a participle\'s phrase', () => {
    expect(
      statementsOf(
        'The handler waits one second and then doubles the wait up to 30 seconds, governed by the retryStart, retryFactor and retryMax attributes; messages logged meanwhile are dropped.',
      ),
    ).toEqual([
      'The handler waits one second.',
      'The handler then doubles the wait up to 30 seconds.',
      'messages logged meanwhile are dropped.',
      'This is governed by the retryStart, retryFactor and retryMax attributes.',
    ]);
  });

  it('reads a passive participle with its agent after the verb as a statement of its own', () => {
    expect(
      statementsOf(
        "When a SocketHandler can't connect, it doubles the wait up to 30 seconds, governed by the retryMax attribute.",
      ),
    ).toEqual([
      "When a SocketHandler can't connect, it doubles the wait up to 30 seconds.",
      "When a SocketHandler can't connect, this is governed by the retryMax attribute.",
    ]);
    // Not another participle, nor one after a clause that has commas of its own.
    expect(
      statementsOf('The wait doubles up to 30 seconds, compared with 10 before.'),
    ).toHaveLength(1);
    expect(
      statementsOf(
        'A file can be read by the user who created it and, on platforms with permission bits, executed by no one.',
      ),
    ).toHaveLength(1);
  });

  it('keeps the two cases of a leading condition together, and gives it to each statement', () => {
    expect(
      statementsOf(
        'When the cache is full and a new entry arrives, the oldest entry is evicted and a warning is logged.',
      ),
    ).toEqual([
      'When the cache is full and a new entry arrives, the oldest entry is evicted.',
      'When the cache is full and a new entry arrives, a warning is logged.',
    ]);
    expect(
      statementsOf(
        'If the client polls every 5 minutes and a mailbox is declared with interval 6, that mailbox is polled only on every sixth cycle.',
      ),
    ).toEqual([
      'If the client polls every 5 minutes and a mailbox is declared with interval 6, that mailbox is polled only on every sixth cycle.',
    ]);
  });

  it('states both the reason and what follows from it', () => {
    expect(
      statementsOf(
        'Because the relay does not understand RSET, the guide suggests a batch limit of 1 so that RSET is never sent.',
      ),
    ).toEqual([
      'the guide suggests a batch limit of 1 so that RSET is never sent.',
      'the relay does not understand RSET.',
    ]);
    expect(
      statementsOf(
        'The pool drops idle sockets after four seconds, because most servers drop them anyway.',
      ),
    ).toEqual([
      'The pool drops idle sockets after four seconds.',
      'most servers drop them anyway.',
    ]);
    expect(statementsOf('Because of this, the pool is small.')).toEqual([
      'Because of this, the pool is small.',
    ]);
  });

  it('reads ", since" before a clause as a reason, and "since" before a time as none', () => {
    expect(
      statementsOf(
        'A missing translation may mean the language is too rare, since the tool itself is translated into 33 languages.',
      ),
    ).toEqual([
      'A missing translation may mean the language is too rare.',
      'the tool itself is translated into 33 languages.',
    ]);
    // Another statement joined at its end is cut first: the reason is no more than its clause.
    expect(
      statementsOf(
        'The package does not follow semantic versioning, since its versions track the upstream ones, and new features may ship as patches.',
      ),
    ).toEqual([
      'The package does not follow semantic versioning.',
      'its versions track the upstream ones.',
      'new features may ship as patches.',
    ]);
    expect(statementsOf('The option was renamed, since version 2 it defaults to true.')).toEqual([
      'The option was renamed, since version 2 it defaults to true.',
    ]);
    expect(statementsOf('The pool was rewritten, since then it closes idle sockets.')).toEqual([
      'The pool was rewritten, since then it closes idle sockets.',
    ]);
  });

  it('cuts at ", although", past a relative clause', () => {
    expect(
      statementsOf(
        'The watcher defaults to inotify, which is faster than polling, although the default becomes polling under a legacy directive.',
      ),
    ).toEqual([
      'The watcher defaults to inotify.',
      'the default becomes polling under a legacy directive.',
      'inotify is faster than polling.',
    ]);
  });
});
