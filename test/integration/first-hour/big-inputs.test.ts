// Big and empty inputs: a single 8 MB HTML file indexes within a memory bound with progress inside
// the file; input that yields nothing is a warning and exit 1; an empty index is named as the
// reason an answer cites nothing.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDataDir } from '../cli/run-cli.js';

const RSS_BOUND_BYTES = 300 * 1024 * 1024;
let dataDir: string;

beforeAll(() => {
  dataDir = tempDataDir();
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** An HTML manual of about `bytes`, with headings, paragraphs, scripts and styles. */
function bigHtml(bytes: number): string {
  const words =
    'battery lithium recycling plant storage grid thermal runaway cathode anode electrolyte separator module pack voltage capacity'.split(
      ' ',
    );
  const parts = [
    '<!doctype html><html lang="en"><head><title>Field manual</title><style>p{margin:0}</style></head><body><main>',
  ];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const s =
      i % 25 === 0
        ? `<h2 id="s${i}">Section ${i / 25}</h2><script>var x${i} = "${'y'.repeat(200)}";</script>`
        : `<p class="c${i % 7}">${Array.from({ length: 60 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ')} &amp; item ${i}.</p>\n`;
    parts.push(s);
    size += s.length;
  }
  parts.push('<p>The closing paragraph names the marker zephyrine-omega.</p></main></body></html>');
  return parts.join('');
}

/** Runs `svc <args>` and samples the child's peak resident set (VmHWM) until it exits. */
function runMeasured(
  args: string[],
  dir = dataDir,
): Promise<{ code: number | null; stderr: string; stdout: string; peakBytes: number }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, SVC_DATA_DIR: dir };
    delete env.SVC_BASE_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: ROOT,
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    let peakBytes = 0;
    const sample = (): void => {
      try {
        const kb = /^VmHWM:\s+(\d+) kB/m.exec(
          readFileSync(`/proc/${child.pid}/status`, 'utf8'),
        )?.[1];
        if (kb) peakBytes = Math.max(peakBytes, Number(kb) * 1024);
      } catch {
        // exited between samples
      }
    };
    const timer = setInterval(sample, 25);
    child.once('exit', (code) => {
      clearInterval(timer);
      resolve({ code, stdout, stderr, peakBytes });
    });
  });
}

describe('big inputs', () => {
  it('indexes a single 8 MB HTML file under 300 MB of RSS, with progress inside the file', async () => {
    const dir = path.join(dataDir, 'manual');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'manual.html');
    writeFileSync(file, bigHtml(8 * 1024 * 1024));
    const res = await runMeasured(['index', file]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^added\s+1$/m);
    expect(res.stderr).toMatch(/manual\.html 50% read/);
    expect(res.peakBytes).toBeGreaterThan(0);
    expect(res.peakBytes).toBeLessThan(RSS_BOUND_BYTES);

    const search = await runCli(['search', 'zephyrine-omega', '--json'], dataDir);
    const body = JSON.parse(search.stdout) as {
      results: Array<{ title: string; snippet: string }>;
    };
    expect(body.results[0]?.title).toBe('Field manual');
  }, 180_000);
});

/** `count` Markdown notes of about 2 KB each, spread over 30 subfolders of `dir`. */
function writeNotes(dir: string, count: number): void {
  const words = 'grid storage inverter turbine solar wind cathode anode module pack voltage'.split(
    ' ',
  );
  for (let i = 0; i < count; i++) {
    const sub = path.join(dir, `d${i % 30}`);
    mkdirSync(sub, { recursive: true });
    const paragraphs = Array.from({ length: 4 }, (_, p) =>
      Array.from({ length: 60 }, (_, j) => words[(i * 13 + p * 7 + j * 3) % words.length]).join(
        ' ',
      ),
    );
    writeFileSync(path.join(sub, `note-${i}.md`), `# Note ${i}\n\n${paragraphs.join('\n\n')}\n`);
  }
}

describe('many files', () => {
  it('memory stays flat over a folder of thousands of files: 3,000 notes peak near 300', async () => {
    const peaks: Record<number, number> = {};
    for (const count of [300, 3_000]) {
      const home = tempDataDir();
      try {
        const folder = path.join(home, 'notes');
        writeNotes(folder, count);
        const res = await runMeasured(['index', folder], home);
        expect(res.code, res.stderr).toBe(0);
        expect(res.stdout).toMatch(new RegExp(`^added\\s+${count}$`, 'm'));
        peaks[count] = res.peakBytes;
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    }
    // Ten times the files may cost a little (a longer report, SQLite's page cache), not ten times.
    expect(peaks[300]).toBeGreaterThan(0);
    expect(peaks[3_000]! - peaks[300]!).toBeLessThan(64 * 1024 * 1024);
    expect(peaks[3_000]).toBeLessThan(RSS_BOUND_BYTES);
  }, 300_000);
});

describe('input that yields nothing', () => {
  it('an empty folder: a warning naming it, exit 1', async () => {
    const empty = path.join(dataDir, 'empty');
    mkdirSync(empty, { recursive: true });
    writeFileSync(path.join(empty, 'notes.xyz'), 'not a supported type');
    const res = await runCli(['index', empty], dataDir);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`nothing to index in ${empty}`);
    expect(res.stderr).toContain('1 files of other types skipped');
  });

  it('svc ask on an empty index points at svc index', async () => {
    const fresh = tempDataDir();
    try {
      const res = await runCli(['ask', 'what', 'is', 'in', 'here'], fresh);
      expect(res.stderr).toContain(`the index of ${fresh} is empty`);
      expect(res.stderr).toContain('svc index <files|folders|urls>');
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }, 60_000);
});
