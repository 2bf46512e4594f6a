// Regenerates test/fixtures/corpus/reports/battery-safety-report.pdf with headless Chromium's
// page.pdf(), so the committed fixture is a real PDF with a text layer and an info dictionary.
// Run: npx tsx test/integration/index/build-pdf-fixture.ts
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_PATH, CHROMIUM_TEST_ARGS } from '../../support/chromium.js';

const REPORT_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Thermal runaway propagation in containerised battery storage</title>
<style>body{font:12pt Georgia,serif;margin:2cm} h1{font-size:18pt} h2{font-size:14pt}</style></head>
<body>
<h1>Thermal runaway propagation in containerised battery storage</h1>
<p>Safety test report prepared for the storage working group.</p>
<h2>Summary</h2>
<p>We forced a single lithium iron phosphate cell into thermal runaway inside a fully populated module and recorded whether the failure spread to neighbouring cells. Propagation stopped at the module boundary in all four tests.</p>
<h2>Method</h2>
<p>A film heater attached to the trigger cell raised its temperature at five degrees per minute until venting. Thermocouples on every adjacent cell logged temperatures once per second, and gas sensors in the enclosure measured hydrogen and carbon monoxide.</p>
<h2>Findings</h2>
<p>The peak temperature of adjacent cells stayed below 120 degrees Celsius, under the onset temperature for self-heating. The aerogel barriers between cells were the decisive design feature. Deflagration vents opened as designed when hydrogen concentration exceeded the alarm threshold.</p>
</body></html>`;

/** Prints `html` to PDF bytes with a fresh headless Chromium. */
export async function printPdf(html: string): Promise<Uint8Array> {
  const profile = await mkdtemp(join(tmpdir(), 'svc-pdf-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_TEST_ARGS, `--user-data-dir=${profile}`],
  });
  try {
    const page = await browser.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    return await page.pdf({ format: 'A4', printBackground: false });
  } finally {
    await browser.close();
    await rm(profile, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = fileURLToPath(
    new URL('../../fixtures/corpus/reports/battery-safety-report.pdf', import.meta.url),
  );
  await writeFile(target, await printPdf(REPORT_HTML));
  console.log(`wrote ${target}`);
}
