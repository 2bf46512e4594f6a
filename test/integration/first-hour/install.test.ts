// After `npm ci` in a checkout, `npx svc` is there and runs: the install builds (`prepare`), and
// the package links its own bin (a `file:.` self-dependency), as the README's quick start says.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run-cli.js';

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
  bin: Record<string, string>;
};

describe('install check', () => {
  it('npm ci builds the command: a prepare script compiles what the bin points at', () => {
    expect(pkg.scripts.prepare).toMatch(/\b(tsc -p tsconfig\.build\.json|npm run build)\b/);
    expect(pkg.bin.svc).toBe('./dist/src/cli/main.js');
  });

  it('npx svc --version runs in the checkout and prints the version', async () => {
    expect(existsSync(path.join(ROOT, 'node_modules', '.bin', 'svc'))).toBe(true);
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        'npx',
        ['--no-install', 'svc', '--version'],
        { cwd: ROOT, timeout: 60_000 },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    );
    expect(out.trim()).toBe(pkg.version);
  }, 90_000);
});
