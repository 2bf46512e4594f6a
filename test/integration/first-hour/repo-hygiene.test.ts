// What a newcomer's commands leave in a checkout must not break `npm test` (git status, Prettier).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run-cli.js';

const GENERATED = ['bundles/example.com/report.json', 'out/report.json', 'out/scrape/page.md'];

describe('generated folders', () => {
  it.each(GENERATED)('%s is ignored by git', (file) => {
    const ignored = execFileSync('git', ['check-ignore', '--no-index', file], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(ignored.trim()).toBe(file);
  });

  it.each(GENERATED)('%s is ignored by Prettier', async (file) => {
    const info = await prettier.getFileInfo(path.join(ROOT, file), {
      ignorePath: path.join(ROOT, '.prettierignore'),
    });
    expect(info.ignored).toBe(true);
  });
});
