import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

describe('the built package', () => {
  beforeAll(async () => {
    // CI builds before testing; a developer's stale or missing dist is rebuilt here.
    if (!fs.existsSync(path.join(root, 'dist/src/index.js'))) {
      await run('npm', ['run', 'build'], { cwd: root, timeout: 180_000 });
    }
  }, 200_000);

  it('runs the svc bin from dist and prints its help', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      bin: { svc: string };
    };
    const { stdout } = await run(process.execPath, [path.join(root, pkg.bin.svc), '--help']);
    expect(stdout).toMatch(/^svc: /);
    expect(stdout).toMatch(/serve/);
  });

  it('resolves every subpath export to a module that loads', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, { import?: string }>;
    };
    // `svc-toolkit/testing` registers vitest fixtures, which only works inside a vitest run:
    // it is resolved to an existing file instead of imported.
    const lines = Object.entries(pkg.exports)
      .filter(([, target]) => typeof target === 'object' && target.import)
      .map(([subpath]) => {
        const name = JSON.stringify(path.posix.join('svc-toolkit', subpath));
        return subpath === './testing'
          ? `if (!fs.existsSync(new URL(import.meta.resolve(${name})))) throw new Error(${name});`
          : `await import(${name});`;
      });
    // Self-reference by package name goes through package.json "exports", as a user's import would.
    const script = ["import fs from 'node:fs';", ...lines, "console.log('ok');"].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
    });
    expect(stdout.trim()).toBe('ok');
    const entry = (await import(path.join(root, 'dist/src/index.js'))) as Record<string, unknown>;
    expect(typeof entry.Client).toBe('function');
    expect(typeof entry.connect).toBe('function');
  });
});
