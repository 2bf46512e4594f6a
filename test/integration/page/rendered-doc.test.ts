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

// A man page's options as HTML: a heading, then terms with their flag and argument apart; and a
// term under an h6.
const OPTIONS_HTML = `<html><head><title>Mooring tool</title></head><body><main>
<h1>Mooring tool</h1><h2>Usage</h2><p>The mooring tool reads a plan and writes a chart.</p>
<h3>Flags</h3><dl>
<dt><b>-G</b><i>name</i></dt><dd>Sets a chart attribute by name for every mooring.</dd>
<dt><b>-o</b><i>outfile</i></dt><dd>Writes the chart to a file instead of standard output.</dd>
</dl><h4>Quiet</h4><h5>Levels</h5><h6>Warnings</h6>
<dl><dt>three</dt><dd>Three levels of quiet drop every warning.</dd></dl>
</main></body></html>`;

describe('passages of a Markdown document as the embedded service renders it', () => {
  let server: TestServer;
  let browser: DriverBrowser;
  let page: AnyPage;
  let optionsUrl: string;

  beforeAll(async () => {
    server = await startTestServer();
    const dir = tempDir('svc-rendered-doc-');
    const file = path.join(dir, 'mooring-store.md');
    writeFileSync(file, MARKDOWN);
    const options = path.join(dir, 'mooring-tool.html');
    writeFileSync(options, OPTIONS_HTML);
    expect((await server.engines.index.indexPaths([file, options])).failed).toEqual([]);
    const client = new Client({ baseURL: server.url, apiKey: server.apiKey! });
    const { results } = await client.search.create({ query: 'TideStore moorings in memory' });
    const tool = await client.search.create({ query: 'mooring tool chart standard output' });
    await client.close();
    const url = results.flat()[0]!.url;
    optionsUrl = tool.results.flat().find((r) => r.title === 'Mooring tool')!.url;
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

  it("gives a term's text the headings it nests under, not the term before it", async () => {
    // "Flags" and "-G name" start one chunk and "-o outfile" the next: "-o" stands under "Flags"
    // alone, and a term nested past h6 under all of its own.
    const options = await browser.newPage();
    await visit(options, optionsUrl);
    const [output] = await findPassages(options, 'The -o flag writes the chart to a file.');
    expect(output?.quote).toBe('Writes the chart to a file instead of standard output.');
    expect(output?.context).toBe('Usage Flags -o outfile');
    const [quiet] = await findPassages(options, 'Three levels of quiet drop every warning.');
    expect(quiet?.context).toBe('Usage Flags Quiet Levels Warnings three');
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
