import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/index.js';
import { findPassages, toPageLike, visit } from '../../../src/page/index.js';
import type { AnyPage } from '../../../src/page/index.js';
import { startTestServer, tempDir } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { launch } from './drivers.js';
import type { DriverBrowser } from './drivers.js';

// A Markdown page of the shapes documentation has: a run of headings with nothing between, an
// options list, a pipe table long enough to be cut into several chunks, and fenced code.
const ROWS = Array.from(
  { length: 14 },
  (_, i) => `| mooringOption${i} | number | ${(i + 1) * 100} | Sets the mooring line ${i}. |`,
);
const MARKDOWN = `# Mooring Store

## Built-in stores

### \`TideStore\`

The \`TideStore\` keeps moorings in memory.

- \`capacity\` - The most moorings kept at once. Default \`256\`.

| Option | Type | Default | Description |
| --- | --- | --- | --- |
${ROWS.join('\n')}

\`\`\`js
const store = new TideStore({ capacity: 256 });
store.clear();
\`\`\`
`;

describe('passages of a Markdown document as the embedded service renders it', () => {
  let server: TestServer;
  let browser: DriverBrowser;
  let page: AnyPage;

  beforeAll(async () => {
    server = await startTestServer();
    const file = path.join(tempDir('svc-rendered-doc-'), 'mooring-store.md');
    writeFileSync(file, MARKDOWN);
    expect((await server.engines.index.indexPaths([file])).failed).toEqual([]);
    const client = new Client({ baseURL: server.url, apiKey: server.apiKey! });
    const { results } = await client.search.create({ query: 'TideStore moorings in memory' });
    await client.close();
    const url = results.flat()[0]!.url;
    browser = await launch('playwright');
    page = await browser.newPage();
    await visit(page, url);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('renders a run of headings as headings, each with those it nests under the context of the text under it', async () => {
    const headings = await toPageLike(page).evaluate(
      () => Array.from(document.querySelectorAll('h2,h3'), (h) => `${h.tagName} ${h.textContent}`),
      null,
    );
    expect(headings).toEqual(expect.arrayContaining(['H2 Built-in stores', 'H3 TideStore']));
    const [best] = await findPassages(page, 'The TideStore capacity is 256 moorings by default.');
    expect(best?.quote).toBe('capacity - The most moorings kept at once. Default 256.');
    expect(best?.context).toBe('Built-in stores TideStore');
  });

  it('renders a pipe table as a table whose rows are candidates under its header', async () => {
    // The last rows sit in a later chunk than the header: they keep it.
    const [best] = await findPassages(page, 'The default of mooringOption13 is 1400.');
    expect(best?.quote).toBe('mooringOption13 number 1400 Sets the mooring line 13.');
    expect(best?.context).toBe('Option | Type | Default | Description');
    const tables = await toPageLike(page).evaluate(
      () => document.querySelectorAll('table tbody tr').length,
      null,
    );
    expect(tables).toBe(ROWS.length);
  });

  it('renders fenced code as code, never a candidate', async () => {
    const code = await toPageLike(page).evaluate(
      () => document.querySelector('pre code')?.textContent ?? '',
      null,
    );
    expect(code).toContain('store.clear();');
    const found = await findPassages(page, 'A new TideStore is created with a capacity of 256.');
    for (const m of found) expect(m.quote).not.toContain('new TideStore');
  });
});
