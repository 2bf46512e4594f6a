import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPassages, toPageLike, visit } from '../../../src/page/index.js';
import type { AnyPage, PassageMatch } from '../../../src/page/index.js';
import type { FixtureServer } from '../../support/fixture-server.js';
import { verifyClaim } from '../../../src/verify/index.js';
import { conceptEmbed } from './concept-embed.js';
import { DRIVERS, openDriverPage, closeDriverPage } from './drivers.js';
import type { DriverBrowser } from './drivers.js';

/** Text of the element `#id`, whitespace collapsed. */
const textOf = (page: AnyPage, id: string): Promise<string> =>
  toPageLike(page).evaluate(
    (elId: string) =>
      (document.getElementById(elId)?.textContent ?? '').replace(/\s+/g, ' ').trim(),
    id,
  );

/** Every candidate of each step, lexical and semantic. */
const candidates = (page: AnyPage, claim: string): Promise<PassageMatch[]> =>
  findPassages(page, claim, { embed: conceptEmbed(), minEmbeddingScore: 0 });

describe.each(DRIVERS)('candidate passages of a documentation page under %s', (driver) => {
  let server: FixtureServer;
  let browser: DriverBrowser;
  let page: AnyPage;

  beforeAll(async () => {
    ({ server, browser, page } = await openDriverPage(driver));
    await visit(page, `${server.url}/docs-page.html`);
  });
  afterAll(() => closeDriverPage({ server, browser }));

  it('offers a table row as a candidate of its own, with its header as context', async () => {
    const found = await candidates(page, 'The default keepAliveTimeout is 4000 milliseconds [1].');
    const best = found[0]!;
    expect(best.method).toBe('fuzzy');
    expect(best.quote).toBe('keepAliveTimeout number 4000 Milliseconds an idle socket stays open.');
    expect(best.domPath).toContain('#row-timeout');
    expect(best.context).toBe('Option | Type | Default | Description');
  });

  it('offers the entry of a name in code the claim gives, however few words they share', async () => {
    const claim =
      'If you create the pool without options, maxRedirections defaults to 5, so a request that is redirected more often fails with an error after the fifth hop.';
    const found = await candidates(page, claim);
    const entry = found.find((m) => m.method === 'fuzzy' && m.domPath.includes('#redirects'));
    expect(entry?.quote).toBe(
      'maxRedirections - The most redirects the pool follows for one request. Default 3.',
    );
    expect(verifyClaim(claim, entry!.quote, { context: entry!.context }).verdict).toBe(
      'contradicted',
    );
  });

  it('never glues a heading to the paragraph under it; the heading is the context', async () => {
    const found = await candidates(
      page,
      'Under the retry budget, a failed request is attempted again at most three times.',
    );
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]!.quote).toBe(await textOf(page, 'retry-text'));
    expect(found[0]!.context).toBe('Retry budget');
    for (const m of found) expect(m.quote).not.toMatch(/^Retry budget/);
  });

  it('never merges a list item with the paragraph after it', async () => {
    const found = await candidates(
      page,
      'The pool follows at most 3 redirects, and responses without a Location header are returned unchanged.',
    );
    const item = await textOf(page, 'redirects');
    const after = await textOf(page, 'after-list');
    expect(found.map((m) => m.quote)).toEqual(expect.arrayContaining([item, after]));
    for (const m of found) {
      expect(m.quote.includes('Default 3') && m.quote.includes('Location')).toBe(false);
    }
  });

  it('cuts sentences at sentence ends, not after an abbreviation', async () => {
    const found = await candidates(page, 'The proxy dispatcher reuses one pool per origin.');
    expect(found[0]!.quote).toBe(
      'Some dispatchers, e.g. the proxy dispatcher, reuse one pool per origin.',
    );
  });

  it('takes no candidate from navigation, sidebars, the page header or footer', async () => {
    for (const claim of [
      'Connection pooling keeps sockets warm between the requests of one origin.',
      'Harbor HTTP is maintained by the Harbor working group and released under the MIT licence.',
      'Harbor pools keep idle sockets open for a configurable keep-alive window.',
    ]) {
      const found = await candidates(page, claim);
      for (const m of found) {
        expect(m.domPath).not.toMatch(/sidebar|footer|banner|aside|nav/);
        expect(m.quote).not.toBe(claim.replace(/\.$/, ''));
      }
    }
  });

  it('takes no candidate from a code block', async () => {
    const found = await candidates(page, 'A new Pool is created with 10 connections.');
    expect(found.length).toBeGreaterThan(0);
    for (const m of found) expect(m.domPath).not.toContain('#code');
  });

  it('reads the page text once for its claims, and again once the DOM changed', async () => {
    const cache = new Map<string, number[]>();
    const lexical = { methods: ['exact', 'fuzzy'] as const, cache };
    await findPassages(page, 'A Harbor pool dispatches requests to a single origin.', lexical);
    const p = toPageLike(page);
    // Tag the walk the first call stored: a second read would replace it.
    await p.evaluate(() => {
      (window as unknown as { __svcText: { tag?: number } }).__svcText.tag = 1;
    }, null);
    await findPassages(
      page,
      'Each failed request is attempted again at most three times.',
      lexical,
    );
    const tagged = () =>
      p.evaluate(
        () => (window as unknown as { __svcText?: { tag?: number } }).__svcText?.tag,
        null,
      );
    expect(await tagged()).toBe(1);
    await p.evaluate(() => {
      const added = document.createElement('p');
      added.textContent = 'Pools created after startup inherit the global dispatcher settings.';
      document.querySelector('article')!.appendChild(added);
    }, null);
    const found = await findPassages(
      page,
      'Pools created after startup inherit the global dispatcher settings.',
      lexical,
    );
    expect(found[0]?.method).toBe('exact');
    expect(await tagged()).toBeUndefined();
  });
});

describe.each(DRIVERS)('candidate passages of a reference page under %s', (driver) => {
  let server: FixtureServer;
  let browser: DriverBrowser;
  let page: AnyPage;

  beforeAll(async () => {
    ({ server, browser, page } = await openDriverPage(driver));
    await visit(page, `${server.url}/reference-page.html`);
  });
  afterAll(() => closeDriverPage({ server, browser }));

  it('gives the sentences of a paragraph that opens with a label that label as context', async () => {
    const found = await candidates(page, 'Extra arguments are passed on to fn.');
    expect(found[0]!.quote).toBe('Extra arguments are passed on to fn');
    expect(found[0]!.context).toBe('Functions delay k.delay(fn, wait)');
    // A paragraph with no label keeps its heading.
    const plain = await candidates(page, 'Every function below returns a new function.');
    expect(plain[0]!.domPath).toContain('#plain');
    expect(plain[0]!.context).toBe('Functions');
  });

  it("gives a definition's sentences its term as context", async () => {
    const found = await candidates(page, 'Removes leading and trailing spaces.');
    expect(found[0]!.domPath).toContain('#trim-text');
    expect(found[0]!.context).toBe('Options trim');
  });

  it('starts an answer that opens with "No" at its question, and reads the pair as a statement', async () => {
    const claim = 'The profiler can be attached to a process that is already running.';
    const found = await candidates(page, claim);
    const answer = found.find((m) => m.quote.endsWith('from the very start.'));
    expect(answer?.quote).toBe(
      'Is it possible to attach the profiler to a process that is already running? No. The profiler has to have full control from the very start.',
    );
    expect(verifyClaim(claim, answer!.quote).verdict).toBe('contradicted');
  });

  it('offers the entry of an option the claim names in words, however few words they share', async () => {
    const claim =
      "The router's strict option is true by default, so every route needs its trailing slash.";
    const found = await candidates(page, claim);
    const entry = found.find((m) => m.domPath.includes('#opt-strict'));
    expect(entry?.quote).toBe(
      'strict Routes must match with their trailing slash. (default: false)',
    );
    expect(verifyClaim(claim, entry!.quote, { context: entry!.context }).verdict).toBe(
      'contradicted',
    );
  });

  it('opens a collapsed <details> so the text in it is a candidate', async () => {
    const found = await candidates(page, 'Since v6.0.0, passing a non-string path throws.');
    expect(found[0]!.domPath).toContain('#row-v6');
    expect(found[0]!.quote).toBe('v6.0.0 Passing a non-string as the path argument throws now.');
    const open = await toPageLike(page).evaluate(
      (id: string) => (document.querySelector(id) as HTMLDetailsElement).open,
      '#history',
    );
    expect(open).toBe(true);
  });

  it("gives an FAQ's answer its question as context (DocBook's question and answer rows)", async () => {
    const found = await candidates(page, 'Many standard libraries keep freed memory in pools.');
    expect(found[0]!.domPath).toContain('#a-pools');
    expect(found[0]!.context).toBe(
      'FAQ 2.1. My program uses the C++ STL. Kestrel reports still reachable memory at exit.',
    );
    // So a key term of the question is stated for the answer.
    const claim = 'With the C++ STL, Kestrel reports memory that standard libraries keep in pools.';
    expect(verifyClaim(claim, found[0]!.quote, { context: found[0]!.context }).verdict).toBe(
      'supported',
    );
  });

  it('gives a list item the last sentence of the paragraph that leads into the list as context', async () => {
    const found = await candidates(
      page,
      'With GCC 3.4 and later, that variable is named GLIBCXX_FORCE_NEW.',
    );
    expect(found[0]!.domPath).toContain('#item-new');
    expect(found[0]!.context).toBe(
      'Memory pools Using GCC, you can force the STL to use malloc instead.',
    );
    const claim =
      'From GCC 3.4 on, the variable that forces the STL to use malloc is GLIBCXX_FORCE_NEW.';
    expect(verifyClaim(claim, found[0]!.quote, { context: found[0]!.context }).verdict).toBe(
      'supported',
    );
  });

  it("offers an entry's metadata and options that name their subject only in its heading", async () => {
    // "Added in: v20.17.0" holds half of the claim's words; its heading names the method.
    const added = 'The matchesGlob() method was first added in release v20.17.0.';
    const found = await candidates(page, added);
    const meta = found.find((m) => m.domPath.includes('#added-in'));
    expect(meta?.method).toBe('fuzzy');
    // The entry's metadata reads with its heading, so its text states when it was added.
    expect(meta?.context).toBe('matchesGlob(path, pattern) Added in: v20.17.0');
    expect(verifyClaim(added, meta!.quote, { context: meta!.context }).verdict).toBe('supported');
    // A changed version is a candidate all the same, so the claim is contradicted, not unfound.
    const changed = 'The matchesGlob() method was first added in release v20.12.0.';
    const rival = (await candidates(page, changed)).find((m) => m.domPath.includes('#added-in'));
    expect(verifyClaim(changed, rival!.quote, { context: rival!.context }).verdict).toBe(
      'contradicted',
    );
    const since = 'matchesGlob(), added in v20.17.0, tells whether a path matches a glob.';
    const text = (await candidates(page, since)).find((m) => m.quote.includes('Tells whether'));
    expect(text?.context).toBe('matchesGlob(path, pattern) Added in: v20.17.0');
    const read = { context: text!.context, heading: text!.context };
    expect(verifyClaim(since, text!.quote, read).verdict).toBe('supported');
    expect(verifyClaim(since.replace('17', '12'), text!.quote, read).verdict).toBe('contradicted');
    // Small numbers in words meet their digits: "one millisecond" and "Default: 1".
    const delay = "If you don't pass a delay to schedule(), it defaults to one millisecond.";
    const item = (await candidates(page, delay)).find((m) => m.domPath.includes('#opt-delay'));
    expect(item?.context).toContain('schedule(fn[, delay])');
    expect(verifyClaim(delay, item!.quote, { context: item!.context }).verdict).toBe('supported');
  });

  it("reads a constant's one-line definition under its heading with the heading", async () => {
    const claim = (n: number) =>
      `MSG_MAX_SIZE limits a description message to ${n} characters, the null character included.`;
    const found = (await candidates(page, claim(128))).find((m) => m.domPath.includes('#max-size'));
    expect(found?.context).toMatch(/ MSG_MAX_SIZE # define MSG_MAX_SIZE 128$/);
    const read = { context: found!.context, heading: found!.context };
    expect(verifyClaim(claim(128), found!.quote, read).verdict).toBe('supported');
    expect(verifyClaim(claim(256), found!.quote, read).verdict).toBe('contradicted');
  });

  it('gives the sentences of a block that opens with a name and a colon that name as context', async () => {
    const claim = 'The sourceType option can be either "script" or "module".';
    const found = (await candidates(page, claim)).find(
      (m) => m.quote === 'Can be either "script" or "module".',
    );
    expect(found?.context).toMatch(/ sourceType$/);
    expect(verifyClaim(claim, found!.quote, { context: found!.context }).verdict).toBe('supported');
  });

  it("gives a table row its heading as context when the heading names the claim's subject", async () => {
    const claim = 'Since v6.0.0, basename() throws when the path argument is not a string.';
    const row = (await candidates(page, claim)).find((m) => m.domPath.includes('#row-v6'));
    // The History table's versions read with the heading: the entry's known versions.
    expect(row?.context).toBe('basename(path) v6.0.0 Version | Changes');
    expect(verifyClaim(claim, row!.quote, { context: row!.context }).verdict).toBe('supported');
    // A claim that names nothing the heading spells out keeps the header alone.
    const plain = await candidates(page, 'Since v6.0.0, passing a non-string path throws.');
    expect(plain.find((m) => m.domPath.includes('#row-v6'))?.context).toBe('Version | Changes');
  });

  it('gives a definition under several terms in a row all of them as context', async () => {
    const found = await candidates(page, 'Prints nothing but errors.');
    expect(found[0]!.domPath).toContain('#quiet-text');
    expect(found[0]!.context).toBe('Options -q, --quiet');
  });

  it("finds a table row by its header's words, and gives its cells, so its default is read", async () => {
    // The row itself holds only "headingStyle", "setext" and "atx": "option" and "default" are
    // its header's.
    const claim = 'The headingStyle option defaults to setext, the other choice being atx.';
    const row = (await candidates(page, claim)).find((m) => m.domPath.includes('#row-heading'));
    expect(row?.method).toBe('fuzzy');
    expect(row?.cells).toEqual(['headingStyle', 'setext or atx', 'setext']);
    const read = (c: string): string =>
      verifyClaim(c, row!.quote, { heading: row!.context, cells: row!.cells }).verdict;
    expect(read(claim)).toBe('supported');
    expect(read('The headingStyle option defaults to atx, the other choice being setext.')).toBe(
      'contradicted',
    );
  });

  it('reads the fields an entry lists at the top of its section with its description', async () => {
    const claim =
      'merge-arrays, which merges arrays given on the command line and in a file, is off by default.';
    const found = await candidates(page, claim);
    const best = found.find((m) => m.domPath.includes('merge-text') || m.quote.includes('merged'));
    expect(best?.quote).toBe(
      'default: false key: merge-arrays Should arrays given both on the command line and in a file be merged into one.',
    );
    expect(verifyClaim(claim, best!.quote, { context: best!.context }).verdict).toBe('supported');
    const flipped = claim.replace('off by default', 'on by default');
    expect(verifyClaim(flipped, best!.quote, { context: best!.context }).verdict).toBe(
      'contradicted',
    );
  });
});

describe.each(DRIVERS)(
  'candidate passages of a plain-text guide in <pre> blocks under %s',
  (driver) => {
    let server: FixtureServer;
    let browser: DriverBrowser;
    let page: AnyPage;

    beforeAll(async () => {
      ({ server, browser, page } = await openDriverPage(driver));
      await visit(page, `${server.url}/plain-text-guide.html`);
    });
    afterAll(() => closeDriverPage({ server, browser }));

    it('reads prose shown as is as sentences, cut at blank lines and list items', async () => {
      const claim = 'A Harbor pool closes a socket after it has sat idle for four seconds.';
      const found = await candidates(page, claim);
      const best = found.find((m) => m.domPath.includes('#intro'));
      expect(best?.quote).toBe(
        'The pool opens at most ten sockets per origin and closes a socket once it has been idle for four seconds.',
      );
      expect(best?.context).toBe('1. Quick introduction to connection pools');
      const item = (await candidates(page, 'tuning.txt lists each setting and its default.')).find(
        (m) => m.quote.startsWith('- tuning.txt'),
      );
      expect(item?.quote).toBe('- tuning.txt : it lists every setting with its default value.');
      for (const m of found) expect(m.quote).not.toMatch(/Note to administrators.*tuning/);
    });

    it('still takes no candidate from a code block', async () => {
      const found = await candidates(
        page,
        'The pool keeps 10 sockets per origin with an idle time of 4s.',
      );
      for (const m of found) expect(m.domPath).not.toContain('#config');
    });
  },
);
