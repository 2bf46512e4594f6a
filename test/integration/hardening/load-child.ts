// Load from a second process: `concurrency` loops doing fetch against the server for `seconds`,
// alternating POST /search and POST /chat/completions. Prints one JSON line of measurements.
// Usage: node --import tsx load-child.ts <server url> <key> <seconds> <concurrency>
const [base, key, secondsArg, concurrencyArg] = process.argv.slice(2);
if (!base || !key) throw new Error('usage: load-child.ts <url> <key> <seconds> <concurrency>');
const seconds = Number(secondsArg ?? 5);
const concurrency = Number(concurrencyArg ?? 4);

const QUESTIONS = [
  'recycling plant opening',
  'solar panel efficiency',
  'city council budget vote',
  'river flood warning',
  'battery storage research',
];
const latencies: Record<string, number[]> = { search: [], chat: [] };
const errors: string[] = [];

async function one(kind: 'search' | 'chat', i: number): Promise<void> {
  const q = QUESTIONS[i % QUESTIONS.length]!;
  const body =
    kind === 'search'
      ? { query: q, max_results: 5 }
      : { model: 'core', messages: [{ role: 'user', content: `What about ${q}?` }] };
  const start = performance.now();
  const res = await fetch(`${base}${kind === 'search' ? '/search' : '/chat/completions'}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  latencies[kind]!.push(performance.now() - start);
  if (res.status !== 200) errors.push(`${kind} ${res.status} ${text.slice(0, 200)}`);
}

const end = Date.now() + seconds * 1000;
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async (_, w) => {
    for (let i = w; Date.now() < end; i++) {
      try {
        await one(i % 2 === 0 ? 'search' : 'chat', i);
      } catch (error) {
        errors.push(String(error));
      }
    }
  }),
);
const elapsed = (performance.now() - started) / 1000;
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0);
  return {
    n: s.length,
    rps: +(s.length / elapsed).toFixed(1),
    p50: at(0.5),
    p99: at(0.99),
    max: Math.round(s.at(-1) ?? 0),
  };
};
process.stdout.write(
  JSON.stringify({
    seconds: +elapsed.toFixed(1),
    concurrency,
    search: stats(latencies.search!),
    chat: stats(latencies.chat!),
    errors: errors.slice(0, 10),
    errorCount: errors.length,
  }) + '\n',
);
