// Runs the benchmarks: `npm run bench` (all, in turn) or `npm run bench -- --only sessions`
// (`--only` takes a name or a comma list, and may repeat). Each bench runs in its own process, so
// one bench's browsers and servers never share a heap or an event loop with the next; its header
// comment (what it measures and compares) is printed before its table, with the machine's load
// average before and after, since these figures mean little without it. Exit code: the first
// failing bench's, else 0.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const self = path.basename(fileURLToPath(import.meta.url));

/** Bench names: the `.ts` files directly in bench/, this runner excepted. */
function benches(): string[] {
  return readdirSync(here)
    .filter((f) => f.endsWith('.ts') && f !== self)
    .map((f) => f.slice(0, -'.ts'.length))
    .sort();
}

/** The leading `//` comment block of a bench: what it measures and what it compares. */
function header(name: string): string {
  const lines: string[] = [];
  for (const line of readFileSync(path.join(here, `${name}.ts`), 'utf8').split('\n')) {
    if (!line.startsWith('//')) break;
    lines.push(line.replace(/^\/\/ ?/, ''));
  }
  return lines.join('\n');
}

function load(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

function runOne(name: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, `${name}.ts`), ...args],
      {
        stdio: 'inherit',
      },
    );
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const { values, positionals } = parseArgs({
  options: { only: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
  allowPositionals: true,
  strict: true,
});
const all = benches();
if (values.help) {
  console.log(
    `usage: npm run bench [-- --only NAME[,NAME]] [-- args for the benches]\nbenches: ${all.join(', ')}`,
  );
  process.exit(0);
}
const only = (values.only ?? []).flatMap((v) => v.split(',')).filter(Boolean);
const unknown = only.filter((n) => !all.includes(n));
if (unknown.length > 0) {
  console.error(`--only: no bench named ${unknown.join(', ')}; benches: ${all.join(', ')}`);
  process.exit(2);
}
let failed = 0;
for (const name of only.length > 0 ? only : all) {
  console.log(`\n=== bench/${name}.ts ===\n${header(name)}\n`);
  console.log(`load average before: ${load()} (${os.cpus().length} cores)`);
  const started = performance.now();
  const code = await runOne(name, positionals);
  console.log(
    `load average after: ${load()}; ${((performance.now() - started) / 1000).toFixed(1)} s; exit ${code}`,
  );
  if (code !== 0 && failed === 0) failed = code;
}
process.exit(failed);
