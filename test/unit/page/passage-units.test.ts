// The pure half of candidate building: what a passage may be made of, from a page's text and roles.
import { describe, expect, it } from 'vitest';
import { prepareText } from '../../../src/page/passage-units.js';
import type { TextRoles } from '../../../src/page/passage-units.js';
import { splitSentences } from '../../../src/page/text.js';

/** A page of one text node per block, with the given roles, rows and contexts. */
function page(nodes: { text: string; role: string; row?: number; context?: number }[]) {
  const segments = { texts: nodes.map((n) => n.text), blocks: nodes.map((_, i) => i) };
  const roles: TextRoles = {
    roles: nodes.map((n) => n.role).join(''),
    rows: nodes.map((n) => n.row ?? -1),
    context: nodes.map((n) => n.context ?? 0),
    contexts: ['', 'Pool options', 'Option | Default'],
  };
  const prepared = prepareText(segments, roles);
  return prepared.units.map((u) => ({
    text: prepared.norm.text.slice(u.span.start, u.span.end),
    kind: u.kind,
    block: u.block,
    context: u.context,
  }));
}

describe('passage units', () => {
  it('are sentences of running text, each block apart; headings and code statements are none', () => {
    const units = page([
      { text: 'Pool options', role: 'h', context: 1 },
      { text: 'The pool opens ten sockets. It closes idle ones.', role: 't', context: 1 },
      { text: 'maxRedirections - Default 3.', role: 't', context: 1 },
      { text: 'const pool = new Pool();', role: 'k', context: 1 },
    ]);
    expect(units).toEqual([
      { text: 'the pool opens ten sockets.', kind: 'sentence', block: 1, context: 'Pool options' },
      { text: 'it closes idle ones.', kind: 'sentence', block: 1, context: 'Pool options' },
      { text: 'maxredirections - default 3.', kind: 'sentence', block: 2, context: 'Pool options' },
    ]);
  });

  it('read a preformatted block of prose as paragraphs, cut at blank lines and list items', () => {
    const text = [
      'Load balancing consists in aggregating multiple components in order to achieve',
      'a total capacity above each one. It scales without any user intervention.',
      '',
      '  - a data scrubber : it will not modify the body of requests nor',
      '    responses.',
      '  - a static web server : it drops its privileges once started.',
    ].join('\n');
    const units = page([{ text, role: 'k', context: 1 }]);
    expect(units.map((u) => [u.text, u.block])).toEqual([
      [
        'load balancing consists in aggregating multiple components in order to achieve a total capacity above each one.',
        1,
      ],
      ['it scales without any user intervention.', 1],
      ['- a data scrubber : it will not modify the body of requests nor responses.', 2],
      ['- a static web server : it drops its privileges once started.', 3],
    ]);
  });

  it('take the comments of code that read as prose, without their markers, and no code', () => {
    const code = [
      'const options = {',
      '  proxies: [ // The chain order is the order in the proxies array, meaning the last proxy connects.',
      "    { host: '10.0.0.1', port: 1080 }, // ipv4 or hostname",
      '  ],',
      '  // The timeout is given in milliseconds and',
      '  // applies to each proxy of the chain.',
      '  // console.log(options.timeout);',
      '};',
      '/* Retries are off by default:',
      ' * set retries to enable them. */',
      '# Installs the package globally for every user',
      "fetch('https://example.com/a//b');",
    ].join('\n');
    const units = page([{ text: code, role: 'k', context: 1 }]);
    expect(units.map((u) => [u.text, u.block])).toEqual([
      ['the chain order is the order in the proxies array, meaning the last proxy connects.', 1],
      ['the timeout is given in milliseconds and', 2],
      ['applies to each proxy of the chain.', 2],
      ['retries are off by default:', 3],
      ['set retries to enable them.', 3],
      ['installs the package globally for every user', 4],
    ]);
    expect(units.every((u) => u.kind === 'sentence' && u.context === 'Pool options')).toBe(true);
  });

  it('join a short block of settings to the sentence introducing it as the defaults', () => {
    const defaults = [
      '{',
      '  "origin": "*",',
      '  "preflightContinue": false,',
      '  "status": 204',
      '}',
    ];
    const units = page([
      { text: 'The default configuration is the equivalent of:', role: 't', context: 1 },
      { text: defaults.join('\n'), role: 'k', context: 1 },
    ]);
    expect(units.map((u) => u.text)).toEqual([
      'the default configuration is the equivalent of: { "origin": "*", "preflightcontinue": false, "status": 204 }',
    ]);
    // An example is no statement of the defaults, nor is a block with a statement in it.
    const example = page([
      { text: 'For example:', role: 't', context: 1 },
      { text: defaults.join('\n'), role: 'k', context: 1 },
    ]);
    expect(example.map((u) => u.text)).toEqual(['for example:']);
    const program = page([
      { text: 'The defaults are:', role: 't', context: 1 },
      { text: ['{', '  "origin": "*",', '}', 'app.use(cors(options));'].join('\n'), role: 'k' },
    ]);
    expect(program.map((u) => u.text)).toEqual(['the defaults are:']);
  });

  it('give a paragraph that refers back the sentence before as context, under one heading', () => {
    const units = page([
      { text: 'ws supports the permessage-deflate extension.', role: 't', context: 1 },
      { text: 'The extension is off by default. It adds overhead.', role: 't', context: 1 },
      { text: 'The client connects lazily.', role: 't', context: 1 },
      { text: 'It retries twice.', role: 't', context: 2 },
    ]);
    const antecedent = 'Pool options ws supports the permessage-deflate extension.';
    expect(units.map((u) => u.context)).toEqual([
      'Pool options',
      antecedent,
      antecedent,
      // "The client": the sentence before names no client.
      'Pool options',
      // Another heading: nothing to refer back to.
      'Option | Default',
    ]);
  });

  it('let a sentence that introduces a list reach over its short items', () => {
    const units = page([
      { text: 'The following methods are not yet implemented:', role: 't', context: 1 },
      { text: 'formData()', role: 't', context: 1 },
      { text: 'blob()', role: 't', context: 1 },
      { text: 'The body is a stream. It is read once.', role: 't', context: 1 },
      { text: 'Two functions are added:', role: 't', context: 1 },
      {
        text: 'alloc(size) - create a zero-filled buffer of the size given, filled with fill if given',
        role: 't',
        context: 1,
      },
      { text: 'Ajv is the fastest according to these benchmarks:', role: 't', context: 1 },
      { text: 'json-schema-benchmark - 50% faster than the second place', role: 't', context: 1 },
      { text: 'jsck benchmark - 20-190% faster', role: 't', context: 1 },
      { text: 'These options exist:', role: 't', context: 1 },
      { text: 'timeout', role: 't', context: 2 },
      { text: 'Inside your module:', role: 't', context: 2 },
      {
        text: 'const cache = new Keyv();\n// Caches stuff in memory by default when no store is given',
        role: 'k',
        context: 2,
      },
    ]);
    expect(units.map((u) => [u.text, u.block])).toEqual([
      ['the following methods are not yet implemented: formdata() blob()', 1],
      ['formdata()', 2],
      ['blob()', 3],
      ['the body is a stream.', 4],
      ['it is read once.', 4],
      // An item that states a fact of its own, in a long sentence, is read on its own.
      ['two functions are added:', 5],
      ['alloc(size) - create a zero-filled buffer of the size given, filled with fill if given', 6],
      // Items of a line each say nothing without what introduces them.
      [
        'ajv is the fastest according to these benchmarks: json-schema-benchmark - 50% faster than the second place jsck benchmark - 20-190% faster',
        7,
      ],
      ['json-schema-benchmark - 50% faster than the second place', 8],
      ['jsck benchmark - 20-190% faster', 9],
      // Its item stands under another heading: not its list.
      ['these options exist:', 10],
      ['timeout', 11],
      // A comment in code is no item of a list.
      ['inside your module:', 12],
      ['caches stuff in memory by default when no store is given', 13],
    ]);
  });

  it('make one unit of a table row under its header; the header row is none', () => {
    const units = page([
      { text: 'Option', role: 'H', row: 0, context: 2 },
      { text: 'Default', role: 'H', row: 0, context: 2 },
      { text: 'connections', role: 'c', row: 1, context: 2 },
      { text: '10', role: 'c', row: 1, context: 2 },
      { text: 'tls', role: 'c', row: 2, context: 2 },
      { text: 'null', role: 'c', row: 2, context: 2 },
    ]);
    expect(units.map((u) => [u.text, u.kind, u.context])).toEqual([
      ['connections 10', 'row', 'Option | Default'],
      ['tls null', 'row', 'Option | Default'],
    ]);
  });

  it('leave the chrome out, unless it is nearly all of the page', () => {
    const main = 'The pool dispatches requests to one origin over several connections.';
    const nav = { text: 'Guide', role: 'x' };
    expect(page([nav, { text: main, role: 't' }]).map((u) => u.text)).toEqual([main.toLowerCase()]);
    const mostlyChrome = page([
      { text: main, role: 'x' },
      { text: 'Hi.', role: 't' },
    ]);
    expect(mostlyChrome.map((u) => u.text)).toEqual([main.toLowerCase(), 'hi.']);
  });
});

describe('sentence splitting', () => {
  it('does not end a sentence at a common abbreviation', () => {
    const text =
      'some dispatchers, e.g. the proxy, reuse pools. others do not (see fig. 2), vs. them.';
    expect(splitSentences(text).map((s) => text.slice(s.start, s.end))).toEqual([
      'some dispatchers, e.g. the proxy, reuse pools.',
      'others do not (see fig. 2), vs. them.',
    ]);
  });
});

describe('a sentence that introduces a code block', () => {
  it('gets the block first line as context, so a claim naming the function finds it', () => {
    const units = page([
      {
        text: 'Facade modules that only use import / export syntax can be detected via the third return value (full build only):',
        role: 't',
        context: 1,
      },
      {
        text: '// a facade\nconst [,, facade] = parse(`\n  export * from "external";\n`);',
        role: 'k',
        context: 1,
      },
      { text: 'The associated header is read by the compiler.', role: 't', context: 1 },
    ]);
    expect(units.map((u) => u.context)).toEqual([
      'Pool options const [,, facade] = parse(`',
      'Pool options',
    ]);
  });

  it('only when the sentence ends with a colon right before the block', () => {
    const units = page([
      { text: 'Facades are detected with the full build.', role: 't', context: 1 },
      { text: 'const [,, facade] = parse(source);', role: 'k', context: 1 },
    ]);
    expect(units.map((u) => u.context)).toEqual(['Pool options']);
  });
});

describe('a paragraph that refers back to a short code block right above it', () => {
  it('starts at the block, so its passage states the names and values the code sets', () => {
    const units = page([
      { text: 'Display completion matches in a status line.', role: 't', context: 1 },
      { text: '\tset ttimeout\n\tset ttimeoutlen=100', role: 'k', context: 1 },
      {
        text: 'This makes typing Esc take effect more quickly. It waits less.',
        role: 't',
        context: 1,
      },
    ]);
    expect(units.map((u) => u.text)).toEqual([
      'display completion matches in a status line.',
      'set ttimeout set ttimeoutlen=100 this makes typing esc take effect more quickly.',
      'it waits less.',
    ]);
    // The block, not the paragraph before it, is what "This" refers to.
    expect(units.map((u) => u.context)).toEqual(['Pool options', 'Pool options', 'Pool options']);
  });

  it('not after a long block, nor a sentence that does not refer back', () => {
    const long = Array.from({ length: 5 }, (_, i) => `set option${i}=${i}`).join('\n');
    const units = page([
      { text: long, role: 'k', context: 1 },
      { text: 'This makes typing Esc take effect more quickly.', role: 't', context: 1 },
      { text: 'set ttimeoutlen=100', role: 'k', context: 1 },
      { text: 'Show the last line when it is truncated.', role: 't', context: 1 },
    ]);
    expect(units.map((u) => u.text)).toEqual([
      'this makes typing esc take effect more quickly.',
      'show the last line when it is truncated.',
    ]);
  });
});
