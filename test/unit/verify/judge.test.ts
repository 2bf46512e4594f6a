import { beforeAll, describe, expect, it } from 'vitest';
import { judgeCandidates, judgeStatements } from '../../../recipes/support/judge.js';
import { analyze } from '../../../src/verify/index.js';
import type { PassageMatch } from '../../../src/index.js';
import { match } from './passage-match.js';

beforeAll(() => {
  analyze('Warm up.');
}, 120_000);

describe('judgeCandidates: the passage that states the claim best decides', () => {
  const option =
    'The interval between PING frames. This is only applicable for HTTP/2 connections.';
  const loose = 'A basic HTTP/1.1 client, mapped on top of a single TCP connection.';

  it('lets a passage stating the whole claim with another fact outweigh a loose support', () => {
    const claim = analyze('This is only applicable for HTTP/1.1 connections.');
    const j = judgeCandidates(claim, [match('fuzzy', 0.75, loose), match('fuzzy', 0.75, option)]);
    expect(j.verdict).toBe('contradicted');
    expect(j.conflicts).toContainEqual({ kind: 'term', claim: 'HTTP/1.1', page: 'HTTP/2' });
  });

  it('keeps a support that states as much of the claim as the contradiction', () => {
    const claim = analyze('This is only applicable for HTTP/2 connections.');
    const j = judgeCandidates(claim, [match('fuzzy', 0.75, loose), match('fuzzy', 1, option)]);
    expect(j.verdict).toBe('supported');
    expect(j.match?.quote).toBe(option);
  });
});

describe('judgeCandidates: the claim found by its own words', () => {
  it('outweighs a support found by likeness that states as much and scores as high', () => {
    const claim = analyze('Libxslt is very specialized.');
    const exact = 'Libxslt is not very specialized.';
    const loose =
      'More specialized memory handling approaches are possible, like building the input tree progressively.';
    const j = judgeCandidates(
      claim,
      [match('fuzzy', 1, loose), match('exact', 1, exact)],
      'Libxslt internals',
    );
    expect(j.verdict, j.reason).toBe('contradicted');
    expect(j.match?.quote).toBe(exact);
  });
});

describe('judgeCandidates: a passage found by meaning that differs in names alone', () => {
  const option =
    'The interval between PING frames. This is only applicable for HTTP/2 connections.';

  it('raises a doubt, not a contradiction: it may be another entry on the same topic', () => {
    const claim = analyze('This is only applicable for HTTP/1.1 connections.');
    const j = judgeCandidates(claim, [match('embedding', 0.85, option)]);
    expect(j.verdict).toBe('not_found');
    expect(j.doubt).toBe(true);
    // Found by words, the same passage contradicts the claim.
    expect(judgeCandidates(claim, [match('fuzzy', 0.75, option)]).verdict).toBe('contradicted');
  });
});

describe('judgeCandidates: a false support is the worse error', () => {
  const rule =
    'After all queued requests are completed, the keepalive event moves the client back to the pending state.';
  const loose =
    'If all queued requests are processed, the processing machine moves the client back to the pending state.';

  it('lets a contradiction stating more of the claim than the support decide', () => {
    const claim = analyze(
      'Before all queued requests are completed, the keepalive event moves the client back to the pending state.',
    );
    const j = judgeCandidates(claim, [match('fuzzy', 0.8, loose), match('fuzzy', 0.9, rule)]);
    expect(j.verdict).toBe('contradicted');
    expect(j.conflicts.map((c) => c.kind)).toContain('comparative');
  });

  it('still supports the claim the fuller passage states', () => {
    const claim = analyze(
      'After all queued requests are completed, the keepalive event moves the client back to the pending state.',
    );
    expect(
      judgeCandidates(claim, [match('fuzzy', 0.8, loose), match('fuzzy', 1, rule)]).verdict,
    ).toBe('supported');
  });
});

describe("judgeCandidates: the passage about the claim's subject", () => {
  const passing = {
    ...match(
      'embedding',
      0.8,
      'Append the resource use information to the output file instead of overwriting it. This option is only useful with the -o option.',
    ),
    context: 'Redirecting Output -a, --append',
  };
  const own = {
    ...match(
      'embedding',
      0.7,
      'By default, this overwrites the file, destroying its previous contents.',
    ),
    context: 'Redirecting Output -o file, --output=file',
  };

  it("lets a contradiction under the claim's subject outweigh a support under another entry", () => {
    const claim = analyze('By default, the -o option does not overwrite the output file.');
    const j = judgeCandidates(claim, [passing, own]);
    expect(j.verdict).toBe('contradicted');
    expect(j.match?.context).toBe(own.context);
  });

  it('keeps the support when it stands under the subject as much as the contradiction', () => {
    const claim = analyze('By default, the -o option does not overwrite the output file.');
    const under = { ...passing, context: own.context };
    expect(judgeCandidates(claim, [under, own]).verdict).toBe('supported');
  });
});

describe('judgeCandidates: a contradiction found by words that states another fact', () => {
  const heading = 'server.listen(handle[, backlog][, callback])';
  const support = {
    ...match(
      'fuzzy',
      0.6,
      'The handle object can be either a server, a socket, or an object with an fd member that is a valid file descriptor.',
    ),
    context: `${heading} Start a server listening for connections on a given handle that has already been bound to a port, a Unix domain socket, or a Windows named pipe.`,
  };
  const against = {
    ...match('fuzzy', 0.667, 'Listening on a file descriptor is not supported on Windows.'),
    context: heading,
  };

  it('outweighs a support that states less of the claim, by a smaller margin than a name', () => {
    const claim = analyze(
      'Listening on a file descriptor with server.listen() works on Windows too.',
    );
    const j = judgeCandidates(claim, [support, against]);
    expect(j.verdict).toBe('contradicted');
    expect(j.conflicts[0]?.kind).toBe('negation');
  });

  it('keeps the support when found by meaning', () => {
    const claim = analyze(
      'Listening on a file descriptor with server.listen() works on Windows too.',
    );
    const loose = { ...against, method: 'embedding' as const, score: 0.8 };
    expect(judgeCandidates(claim, [support, loose]).verdict).toBe('supported');
  });
});

describe('judgeCandidates: a claim joining two statements', () => {
  const seconds = {
    ...match('fuzzy', 0.7, 'Elapsed real time used by the process, in seconds.'),
    context: 'Time Resources e',
  };
  const clock = {
    ...match('fuzzy', 0.7, 'Elapsed real time used by the process, in [hours:]minutes:seconds.'),
    context: 'Time Resources E',
  };

  it('supports it when each part is stated by a passage of its own', () => {
    const claim = analyze(
      '%e reports the elapsed real time in seconds, whereas %E reports the elapsed real time in [hours:]minutes:seconds.',
    );
    const j = judgeCandidates(claim, [seconds, clock]);
    expect(j.verdict).toBe('supported');
    expect(j.reason).toContain('each part of the claim is stated');
  });

  it('does not when a part is not stated', () => {
    const claim = analyze(
      '%e reports the elapsed real time in milliseconds, whereas %E reports the elapsed real time in [hours:]minutes:seconds.',
    );
    expect(judgeCandidates(claim, [seconds, clock]).verdict).not.toBe('supported');
  });
});

describe('judgeCandidates: a claim setting two kinds of one thing apart', () => {
  const symbolic = match(
    'fuzzy',
    0.77,
    'For symbolic links Vim resolves the links to find the name of the actual file. The swap ' +
      'file name is based on that name.',
  );
  const hard = match(
    'fuzzy',
    0.62,
    'For hard links Vim does not know the other name of the file. Therefore, the name of the ' +
      'swapfile will be based on the name you used to edit the file.',
  );

  it('is supported by a passage on each kind, though each names the other kind otherwise', () => {
    const claim = analyze(
      "With a hard link Vim does not know the file's other name, so the swap file is named after the name you edited it by, whereas with a symbolic link Vim resolves the link and bases the swap file name on the actual file.",
    );
    const j = judgeCandidates(claim, [symbolic, hard]);
    expect(j.verdict, j.reason).toBe('supported');
    expect(j.reason).toContain('each part of the claim is stated');
  });

  it('is not supported with the kinds swapped, nor by the passage on one kind alone', () => {
    const swapped = analyze(
      "With a symbolic link Vim does not know the file's other name, so the swap file is named after the name you edited it by, whereas with a hard link Vim resolves the link and bases the swap file name on the actual file.",
    );
    expect(judgeCandidates(swapped, [symbolic, hard]).verdict).not.toBe('supported');
    expect(judgeCandidates(swapped, [symbolic]).verdict).not.toBe('supported');
  });
});

describe('judgeCandidates: a negation added with "but"', () => {
  const touch = {
    ...match(
      'fuzzy',
      0.73,
      "Resets the entry's age to zero, and keeps the entry's value as it is. This is useful for keeping an entry alive without writing it again.",
    ),
    context: 'cache.touch()',
  };

  it('is not stated by a passage that states only the first statement', () => {
    const claim = analyze(
      "cache.touch() resets the entry's age to zero and keeps its value, but calling it on an evicted entry does not restore the entry.",
    );
    const j = judgeCandidates(claim, [touch]);
    expect(j.verdict).toBe('not_found');
    expect(j.reason).toContain('"restore"');
    // Nor when the second statement, read alone, shares most of its words with the passage.
    const most = analyze(
      "cache.touch() resets the entry's age to zero, but calling it on an expired entry does not restore the entry's value.",
    );
    expect(judgeCandidates(most, [touch]).verdict).toBe('not_found');
    // The first statement alone is.
    const first = analyze("cache.touch() resets the entry's age to zero and keeps its value.");
    expect(judgeCandidates(first, [touch]).verdict).toBe('supported');
  });
});

describe('judgeCandidates: a claim joining two statements of two names', () => {
  const windows = {
    ...match(
      'fuzzy',
      0.83,
      'To achieve consistent results when working with Windows file paths on any operating system, use path.win32:',
    ),
    context: 'Windows vs. POSIX',
  };
  const page = 'Path Node.js path.posix path.win32';

  it('is contradicted by a passage that states one of them of the other name', () => {
    const swapped = analyze(
      'To get consistent results with Windows file paths on any operating system, use path.posix; for POSIX file paths, use path.win32.',
    );
    const j = judgeCandidates(swapped, [windows], page);
    expect(j.verdict).toBe('contradicted');
    expect(j.conflicts).toEqual([{ kind: 'term', claim: 'path.posix', page: 'path.win32' }]);
  });

  it('is supported when the part the passage does not state is of another case', () => {
    const right = analyze(
      'To get consistent results with Windows file paths on any operating system, use path.win32; for POSIX file paths, use path.posix.',
    );
    expect(judgeCandidates(right, [windows], page).verdict).toBe('supported');
  });
});

describe('judgeCandidates: a contradiction stating much more of the claim', () => {
  const fact =
    "deflate() has a return value that can indicate errors, yet we do not check it here. Why not? Well, it turns out that deflate() can do no wrong here. Let's go through deflate()'s return values and dispense with them one by one. The possible values are Z_OK, Z_STREAM_END, Z_STREAM_ERROR, or Z_BUF_ERROR.";
  const topic =
    'The inner do-loop is repeated until the last deflate() call fails to fill the provided output buffer.';
  const claim = analyze(
    'The example checks the return value of every deflate() call, because deflate() can fail here.',
  );

  it('outweighs a support that only shares the topic', () => {
    const j = judgeCandidates(claim, [
      match('embedding', 0.83, topic),
      match('embedding', 0.86, fact),
    ]);
    expect(j.verdict).toBe('contradicted');
    expect(j.conflicts.map((c) => c.kind)).toContain('negation');
  });
});

describe('judgeStatements: a claim from the statements it joins', () => {
  const statements = [
    'gzipper.bytesRead is an alias for gzipper.bytesWritten.',
    'gzipper.bytesWritten counts the bytes written before they are compressed.',
  ];
  const alias = 'The gzipper.bytesRead property is an alias for gzipper.bytesWritten.';
  const counts =
    'The gzipper.bytesWritten property counts the bytes written before they are compressed.';
  const each = (quotes: string[], method: PassageMatch['method'] = 'fuzzy') =>
    statements.map((s, i) => judgeCandidates(analyze(s), [match(method, 0.9, quotes[i]!)]));
  const whole = judgeCandidates(analyze(statements.join(' ')), []);

  it('is supported when each statement is, by its own passage', () => {
    const j = judgeStatements(statements, each([alias, counts]), whole);
    expect(j?.verdict).toBe('supported');
    expect(j?.match?.quote).toBe(alias);
  });

  it('is contradicted when one statement is, and carries its conflict', () => {
    const after =
      'The gzipper.bytesWritten property counts the bytes written after they are compressed.';
    const j = judgeStatements(statements, each([alias, after]), whole);
    expect(j?.verdict).toBe('contradicted');
    expect(j?.conflicts.map((c) => c.kind)).toContain('comparative');
  });

  it('gives no support when the claim read whole was in doubt, or a statement is not found', () => {
    expect(
      judgeStatements(statements, each([alias, counts]), { ...whole, doubt: true }),
    ).toBeNull();
    expect(judgeStatements(statements, each([alias, 'Nothing to see here.']), whole)).toBeNull();
  });

  it('takes no conflict of names alone from a statement', () => {
    const other = 'The gzipper.bytesRead property is an alias for gzipper.totalOut.';
    const [read] = each([other, counts]);
    // The statement read alone is contradicted by the name...
    expect(read!.verdict).toBe('contradicted');
    expect(read!.conflicts.every((c) => c.kind === 'term')).toBe(true);
    // ... which another entry differs in anyway: the claim is not.
    const j = judgeStatements(statements, each([other, counts]), whole);
    expect(j?.verdict).not.toBe('contradicted');
  });
});

describe('judgeCandidates: a loose support in doubt', () => {
  const claim = analyze('The client caches every response in memory for later requests.');
  const loose = match('embedding', 0.86, 'Responses are cached by the client.');
  const denial = match('fuzzy', 0.6, 'By default the client does not cache.');

  it('supports on a passage found by meaning that states part of the claim', () => {
    expect(judgeCandidates(claim, [loose]).verdict).toBe('supported');
  });

  it('is not_found when another passage states a conflicting fact, however little it shares', () => {
    const j = judgeCandidates(claim, [loose, denial]);
    expect(j.verdict).toBe('not_found');
    expect(j.doubt).toBe(true);
    expect(j.reason).toContain('only a loose support');
  });
});

describe('judgeCandidates: a doubt over a claim joining statements', () => {
  const claim = analyze(
    'git reflog expire drops reflog entries after 90 days by default, and entries that are no longer reachable from the current tip go after just 30 days.',
  );

  it('is raised by a passage about something else that shares half of the claim or more', () => {
    const j = judgeCandidates(claim, [
      match(
        'embedding',
        0.8,
        'Reflog entries are kept: git gc never drops them after 90 days, nor after 30 days for unreachable ones.',
      ),
    ]);
    expect(j.verdict).toBe('not_found');
    expect(j.doubt).toBe(true);
  });

  it('is not raised by one that shares less, whatever it says otherwise', () => {
    const j = judgeCandidates(claim, [
      match(
        'embedding',
        0.8,
        'Records of conflicted merges you resolved earlier are kept for this many days when git rerere gc is run. The default is 60 days.',
      ),
    ]);
    expect(j.verdict).toBe('not_found');
    expect(j.doubt).toBe(false);
  });
});

describe('judgeCandidates: two passages that state a claim together', () => {
  const entry = {
    ...match(
      'fuzzy',
      0.625,
      'Use the same label when calling console.timeEnd() to stop the timer and output the elapsed time in suitable time units to stdout. For example, if the elapsed time is 3869ms, console.timeEnd() displays "3.869s".',
    ),
    context: 'console.time([label])',
  };
  const history = {
    ...match('fuzzy', 0.6, 'v13.0.0 The elapsed time is displayed with a suitable time unit.'),
    context: 'console.timeEnd([label]) Version | Changes',
  };

  it('support it when each states what the other misses', () => {
    const claim = analyze(
      'Since v13.0.0, console.timeEnd() shows the elapsed time in a suitable unit, so a timer that ran for 3869ms is reported as 3.869s.',
    );
    expect(judgeCandidates(claim, [entry]).verdict).toBe('not_found');
    expect(judgeCandidates(claim, [history]).verdict).toBe('not_found');
    const j = judgeCandidates(claim, [entry, history]);
    expect(j.verdict).toBe('supported');
    expect(j.reason).toContain('two passages state the claim together');
  });

  it('do not when both miss one thing, or one is in conflict', () => {
    const unstated = analyze(
      'Since v13.0.0, console.timeEnd() shows the elapsed time in a suitable unit, so a timer that ran for 3869ms is reported as 3.869s on Windows.',
    );
    expect(judgeCandidates(unstated, [entry, history]).verdict).not.toBe('supported');
    const changed = analyze(
      'Since v12.0.0, console.timeEnd() shows the elapsed time in a suitable unit, so a timer that ran for 3869ms is reported as 3.869s.',
    );
    expect(judgeCandidates(changed, [entry, history]).verdict).not.toBe('supported');
  });
});

describe('judgeCandidates: a passage that differs in ordinary words alone', () => {
  const page = 'The anvil server counts the connections of each client.';

  it('raises a doubt, not a contradiction: a paraphrase words things otherwise', () => {
    const claim = analyze('The anvil service counts the connections of each client.');
    const j = judgeCandidates(claim, [match('fuzzy', 0.8, page)]);
    expect(j.verdict).toBe('not_found');
    expect(j.doubt).toBe(true);
    expect(j.conflicts).toEqual([]);
  });

  it('still contradicts a swapped name, and a preference turned round in the claim\u2019s own words', () => {
    const name = judgeCandidates(
      analyze('The anvil server counts the connections of each client.'),
      [match('fuzzy', 0.8, 'The postscreen server counts the connections of each client.')],
    );
    expect(name.verdict).toBe('contradicted');
    expect(name.conflicts).toContainEqual({ kind: 'term', claim: 'anvil', page: 'postscreen' });
    const turned = judgeCandidates(
      analyze(
        'With json set, duplicate keys in a mapping throw an error rather than overriding the values.',
      ),
      [
        match(
          'fuzzy',
          0.8,
          'With json set, duplicate keys in a mapping override the values rather than throwing an error.',
        ),
      ],
    );
    expect(turned.verdict).toBe('contradicted');
    expect(turned.conflicts).toContainEqual({ kind: 'term', claim: 'throw', page: 'override' });
  });
});

describe('judgeCandidates: two passages that state the whole claim', () => {
  const rule =
    'It will return true if the passed object is an instance of BufferList or BufferListStream and false otherwise.';
  const aside =
    "this won't return true for BufferList or BufferListStream instances created by versions of this library before this static method was added.";
  // The claim against the aside (match score `asideScore`) and the rule (0.833).
  const judge = (asideScore: number) =>
    judgeCandidates(
      analyze('BufferList.isBufferList() returns false for a BufferListStream instance.'),
      [match('fuzzy', asideScore, aside), match('fuzzy', 0.833, rule)],
      'BufferList.isBufferList(obj)',
    );

  it('lets the one whose words are nearer the claim decide', () => {
    const j = judge(0.667);
    expect(j.verdict, j.reason).toBe('contradicted');
    expect(j.match?.quote).toBe(rule);
  });

  it('keeps the support when it is the nearer one', () => {
    const j = judge(0.9);
    expect(j.verdict, j.reason).toBe('supported');
  });
});
