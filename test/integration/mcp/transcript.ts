/**
 * Prints the transcript of an agent session with `svc mcp` as Markdown (docs/mcp.md shows one):
 * the SDK's client launches the server over stdio on a data dir indexed from the web fixture
 * corpus, then searches, asks, verifies the answer, and drives a browser session.
 *
 * Run: `npx tsx test/integration/mcp/transcript.ts > transcript.md`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixture, runCli } from '../cli/run-cli.js';
import { connectStdio, jsonOf } from './helpers.js';

const out: string[] = [];
const say = (line = ''): void => void out.push(line);

/** JSON with long strings cut and arrays shortened, so the transcript stays readable. */
function brief(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > 160 ? `${value.slice(0, 157)}...` : value;
  if (Array.isArray(value)) {
    const shown = value.slice(0, 3).map((v) => brief(v, depth + 1));
    return value.length > 3 ? [...shown, `... ${value.length - 3} more`] : shown;
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, brief(v, depth + 1)]));
  }
  return value;
}

function block(kind: string, body: string): void {
  say(`\`\`\`${kind}`);
  say(body);
  say('```');
  say();
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-mcp-transcript-'));
  try {
    const index = await runCli(['index', fixture('corpus', 'web')], dataDir);
    if (index.code !== 0) throw new Error(index.stderr);
    const { client } = await connectStdio(dataDir);
    const call = async (name: string, args: Record<string, unknown>, onprogress?: boolean) => {
      say(`**agent -> tools/call \`${name}\`**`);
      say();
      block('json', JSON.stringify(args, null, 2));
      const progress: string[] = [];
      const result = await client.callTool({ name, arguments: args }, undefined, {
        timeout: 170_000,
        ...(onprogress && { onprogress: (p) => progress.push(p.message ?? String(p.progress)) }),
      });
      if (progress.length > 0) {
        say('*progress notifications:*');
        say();
        block('text', progress.join('\n'));
      }
      const content = result.content as { type: string; text?: string; data?: string }[];
      say(`**svc mcp -> result**${result.isError ? ' (isError)' : ''}`);
      say();
      for (const c of content) {
        if (c.type === 'image') {
          say(`*[image block: image/png, ${Buffer.from(c.data ?? '', 'base64').length} bytes]*`);
          say();
        } else if (c.type === 'text') {
          const text = c.text ?? '';
          try {
            block('json', JSON.stringify(brief(JSON.parse(text)), null, 2));
          } catch {
            block('text', text.length > 1500 ? `${text.slice(0, 1500)}\n[...]` : text);
          }
        }
      }
      return result;
    };

    const { tools } = await client.listTools();
    say('**agent -> tools/list**');
    say();
    block('text', tools.map((t) => t.name).join(', '));

    await call('search', { query: 'battery recycling plant', max_results: 3 });
    const ask = await call('ask', { question: 'what does the battery recycling plant recover' });
    const answer = jsonOf<{ answer: string; citations: string[] }>(ask);
    await call(
      'verify',
      { answer: answer.answer, citations: answer.citations, screenshots: true },
      true,
    );
    const { resources } = await client.listResources();
    say('**agent -> resources/list**');
    say();
    block('text', resources.map((r) => r.uri).join('\n'));

    const opened = jsonOf<{ session_id: string }>(await call('browser_open', {}));
    const session_id = opened.session_id;
    await call('browser_navigate', { session_id, url: answer.citations[0] });
    await call('browser_snapshot', { session_id, max_chars: 600 });
    await call('browser_extract', {
      session_id,
      instruction: 'How many tonnes of packs can the plant process a year?',
      schema: { type: 'object', properties: { capacity: { type: 'string' } } },
    });
    await call('browser_screenshot', { session_id });
    await call('browser_close', { session_id });
    await call('browser_snapshot', { session_id });
    await client.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

await main();
