// Value literals written as code ("delay=True" for "if delay is true"), verbs that deny what
// follows them ("refuses to start"), a value the page gives for a case it names at the start of
// its sentence ("In inotify mode, ..."), a name given the gloss another name has in brackets, a
// "than" after brackets, format directives in their case ("%O" / "%o"), what "Unlike X, ..."
// denies X, a count below two, which counts no list, a bound put as a superlative, and a name
// after its owner ("an import's at field"), a section named by its heading in another number, and
// short options in their case ("-Cf" / "-CF").
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, verifyClaim } from '../../../src/verify/index.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('value literals', () => {
  const page = 'If delay is true, then file opening is deferred until the first call to emit().';

  it('reads Python\'s "True" as the prose\'s "true"', () => {
    const r = verifyClaim(
      "With delay=True, a FileHandler doesn't open the file until the first call to emit().",
      page,
      { context: 'class logging.FileHandler(filename, delay=False)' },
    );
    expect(r.verdict, r.reason).toBe('supported');
  });

  it('sets "False" against "true"', () => {
    const r = verifyClaim(
      'If delay is False, file opening is deferred until the first call to emit().',
      page,
    );
    expect(r.verdict, r.reason).toBe('contradicted');
    expect(r.conflicts[0]).toMatchObject({ claim: 'False', page: 'true' });
  });

  it('sets one value a function returns against another, whatever the tagger reads them as', () => {
    const page = 'If the Content-Type header is invalid, then it returns false.';
    // "null" is not the "invalid" WordNet files it with, nor "false" an adjective as "null" is a
    // noun: the value is swapped.
    const r = verifyClaim('If the Content-Type header is invalid, it returns null.', page);
    expect(r.verdict, r.reason).toBe('contradicted');
    expect(r.conflicts[0]).toMatchObject({ kind: 'term', claim: 'null', page: 'false' });
    const same = verifyClaim('When the Content-Type header is invalid, it returns false.', page);
    expect(same.verdict, same.reason).toBe('supported');
  });
});

describe('verbs that deny what follows them', () => {
  const page = 'HAProxy refuses to start if anything fails.';

  it('"refuses to start" is "does not start"', () => {
    const r = verifyClaim('HAProxy still starts if anything fails.', page);
    expect(r.verdict, r.reason).toBe('contradicted');
    expect(r.conflicts[0]?.kind).toBe('negation');
    expect(verifyClaim('HAProxy does not start if anything fails.', page).verdict).toBe(
      'supported',
    );
  });
});

describe('a value the page gives for a case it names first', () => {
  const page =
    'This is a legacy setting that only is supported in polling mode. In inotify mode, it is fixed at 0 and all attempts to configure a different value will be ignored.';

  it('answers no claim about another case', () => {
    const r = verifyClaim(
      'MaxLinesAtOnce is a legacy setting that is only supported in polling mode, where it defaults to 10240 lines.',
      page,
      { context: 'MaxLinesAtOnce', heading: 'MaxLinesAtOnce' },
    );
    expect(r.verdict, r.reason).not.toBe('contradicted');
  });

  it('still answers a claim about that case', () => {
    const r = verifyClaim(
      'MaxLinesAtOnce is only supported in polling mode, and in inotify mode it is fixed at 5.',
      page,
      { context: 'MaxLinesAtOnce', heading: 'MaxLinesAtOnce' },
    );
    expect(r.verdict, r.reason).toBe('contradicted');
    expect(r.conflicts[0]).toMatchObject({ kind: 'number', claim: '5', page: '0' });
  });
});

describe('names glossed in brackets', () => {
  const page =
    "The most common ones are round-robin (for short connections, pick each server in turn), leastconn (for long connections, pick the least recently used of the servers with the lowest connection count), source (for SSL farms, the server depends on the client's source address).";

  it("sets a name given another name's gloss against that name", () => {
    const r = verifyClaim(
      'The round-robin algorithm, meant for long connections, picks the least recently used of the servers that have the lowest connection count.',
      page,
    );
    expect(r.verdict, r.reason).toBe('contradicted');
    expect(r.conflicts[0]).toMatchObject({ kind: 'term', claim: 'round-robin', page: 'leastconn' });
  });

  it('supports a name with its own gloss', () => {
    for (const claim of [
      'The leastconn algorithm, meant for long connections, picks the least recently used of the servers that have the lowest connection count.',
      'Round-robin, meant for short connections, picks each server in turn.',
    ])
      expect(verifyClaim(claim, page).verdict).toBe('supported');
  });
});

describe('a comparison whose "than" follows brackets', () => {
  const page =
    'Traditionally, imfile used polling mode, which is much more resource-intense (and slower) than inotify mode.';

  it('reads what "than" names as the other side, so the turned-round claim is stated', () => {
    const r = verifyClaim(
      'inotify is much less resource-intensive and faster than the traditional polling mode.',
      page,
    );
    expect(r.verdict, r.reason).toBe('supported');
  });

  it('still sets the flipped comparison against it', () => {
    const r = verifyClaim('Polling mode is much less resource-intensive than inotify mode.', page);
    expect(r.verdict, r.reason).toBe('contradicted');
  });
});

describe('format directives', () => {
  it('are one letter in its case: "%O" is not stated by the line on "%o"', () => {
    const page = '%o Pretty-print an Object all on a single line.';
    const r = verifyClaim('%O pretty-prints an object over multiple lines.', page);
    expect(r.verdict, r.reason).not.toBe('contradicted');
    expect(r.missing).toContain('%O');
    expect(verifyClaim('%o pretty-prints an object over multiple lines.', page).verdict).toBe(
      'contradicted',
    );
  });
});

describe('"Unlike X, this method ..."', () => {
  const page =
    'You can also use the .withResponse() method to get the raw Response along with the parsed data. Unlike .asResponse() this method consumes the body, returning once it is parsed.';

  it('denies X what the sentence says of its subject', () => {
    const r = verifyClaim(
      '.asResponse() waits until it has consumed the whole response body before returning the raw Response.',
      page,
    );
    expect(r.verdict, r.reason).toBe('contradicted');
    expect(r.conflicts[0]).toMatchObject({ kind: 'negation', page: 'Unlike .asResponse()' });
  });

  it('still states it of the subject', () => {
    const r = verifyClaim(
      '.withResponse() consumes the body and returns the parsed data along with the raw Response.',
      page,
    );
    expect(r.verdict, r.reason).toBe('supported');
  });
});

describe('a count of fewer than two', () => {
  it('counts no list the page gives ("0 treats" is no count of "a space or tab")', () => {
    const r = verifyClaim(
      'readMode takes a value from 0 to 2, where the default 0 treats every line as a new message, 1 expects a blank line between messages, and 2 treats lines starting with a space or tab as part of the previous message.',
      '2 - indented (new log messages start at the beginning of a line. If a line starts with a space or tab "t" it is part of the log message before it)',
      { context: 'readMode', heading: 'readMode' },
    );
    expect(r.conflicts.filter((x) => x.kind === 'number')).toEqual([]);
  });
});

describe('a bound put as a superlative', () => {
  const page =
    'This is an expert option. It can be used to set the maximum input batch size that imfile can generate.';

  it('is stated by the bound\'s word ("the largest batch" / "the maximum batch size")', () => {
    const r = verifyClaim(
      'MaxSubmitAtOnce sets the largest input batch imfile can generate.',
      page,
      {
        context: 'MaxSubmitAtOnce',
      },
    );
    expect(r.verdict, r.reason).toBe('supported');
    expect(
      verifyClaim('MaxSubmitAtOnce sets the smallest input batch imfile can generate.', page, {
        context: 'MaxSubmitAtOnce',
      }).verdict,
    ).not.toBe('supported');
  });
});

describe('a name after its owner ("an import\'s a field")', () => {
  const page =
    'The a field provides the index of the start of the { attributes bracket, or -1 for no attributes.';

  it('takes a function word before "field" for the field\'s name', () => {
    const r = verifyClaim(
      "An import's at field gives the index where its { attributes bracket starts, or -1 if there are no attributes.",
      page,
    );
    expect(r.verdict, r.reason).not.toBe('supported');
    expect(r.missing).toContain('at');
    expect(
      analyze("An import's ss field gives the start of its at field's statement.").keyTerms,
    ).toEqual(expect.arrayContaining([{ text: 'at', kind: 'code' }]));
  });

  it('takes no English noun for a name ("a module\'s initialization function")', () => {
    expect(
      analyze("A module's initialization function must never return NULL.").keyTerms.map(
        (k) => k.text,
      ),
    ).not.toContain('initialization');
  });
});

describe('a section the claim names by its heading, in another number', () => {
  const page =
    'Every block covered by this PP was 32 bytes. Within all of those blocks, byte 0 was accessed (read or written) 65,547 times.';
  const context = "10.3. DHAT's Viewer 10.3.2. The PP Tree 10.3.2.5. Access Counts";

  it('takes "Access Counts" above the passage for the "Accesses" example', () => {
    const claim = (bytes: number): string =>
      `In the manual's Accesses example, every block covered by the PP was ${bytes} bytes and byte 0 was read or written 65,547 times.`;
    const right = verifyClaim(claim(32), page, { context, heading: context });
    expect(right.verdict, right.reason).toBe('supported');
    const wrong = verifyClaim(claim(64), page, { context, heading: context });
    expect(wrong.verdict, wrong.reason).toBe('contradicted');
    expect(wrong.conflicts[0]).toMatchObject({ kind: 'number', claim: '64 bytes' });
    // Another heading names no such section.
    const elsewhere = verifyClaim(claim(32), page, { context: 'The PP Tree', heading: '' });
    expect(elsewhere.verdict, elsewhere.reason).not.toBe('supported');
  });
});

describe('short options in their case', () => {
  const page =
    'The -CF option specifies that the alternate fast scanner representation should be used. This option cannot be used with --c++.';

  it('sets "-Cf" against the passage\'s "-CF", and finds it unstated under a heading "-CF"', () => {
    const swapped = verifyClaim(
      'The -Cf option selects the alternate fast scanner representation and cannot be combined with --c++.',
      page,
    );
    expect(swapped.verdict, swapped.reason).toBe('contradicted');
    expect(swapped.conflicts[0]).toMatchObject({ kind: 'term', claim: '-Cf', page: '-CF' });
    const entry =
      'specifies that the alternate fast scanner representation should be used. This option cannot be used with --c++.';
    const under = verifyClaim(
      'The -Cf option selects the alternate fast scanner representation and cannot be combined with --c++.',
      entry,
      { context: "'-CF'", heading: "'-CF'" },
    );
    expect(under.verdict, under.reason).not.toBe('supported');
    expect(under.missing).toContain('-Cf');
    const right = verifyClaim(
      'The -CF option selects the alternate fast scanner representation and cannot be combined with --c++.',
      entry,
      { context: "'-CF'", heading: "'-CF'" },
    );
    expect(right.verdict, right.reason).toBe('supported');
  });

  it('leaves the other case alone when the claim names it too', () => {
    const r = verifyClaim(
      'Output goes to a file named with -o, while -O derives the output file names from the input file name.',
      'Use -O to derive the output file names from the input file name.',
    );
    expect(r.conflicts, r.reason).toEqual([]);
  });
});
