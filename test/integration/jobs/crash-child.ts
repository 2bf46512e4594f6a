// Child process for crash.test.ts: runs a real JobQueue on a SQLite file with a slow handler, logs
// every handler start, and is killed with SIGKILL by the parent mid-run.
// Usage: node --import tsx crash-child.ts <db file> <log file> <job count>
import { appendFileSync } from 'node:fs';
import { JobQueue, SqliteJobStore } from '../../../src/server/engines/jobs/index.js';
import { openDb } from './helpers.js';

const [dbFile, logFile, countArg] = process.argv.slice(2);
if (!dbFile || !logFile) throw new Error('usage: crash-child.ts <db> <log> <count>');
const db = openDb(dbFile);
const queue = new JobQueue<{ model: string; n: number }>({
  store: new SqliteJobStore(db),
  concurrency: 2,
  pollInterval: 50,
  handler: async (_req, ctx) => {
    appendFileSync(logFile, `start ${ctx.jobId}\n`);
    await new Promise((r) => setTimeout(r, 120));
    return { by: 'child', id: ctx.jobId };
  },
});
for (let i = 0; i < Number(countArg ?? 20); i++) {
  await queue.create('crash-user', { model: 'core-deep-research', n: i }, `crash-${i}`);
}
await queue.start();
process.stdout.write('ready\n');
