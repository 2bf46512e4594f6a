import { KeyStore } from '../../server/index.js';
import { openDatabase } from '../../server/storage.js';
import { runMigrations, SqliteSql } from '../../server/storage/index.js';
import { defineCommand } from '../command.js';
import { EXIT, UsageError } from '../common.js';
import { printTable } from '../output.js';
import { resolveDataDir } from '../service.js';

/** `svc keys create|list|revoke`. */
export const keysCommand = defineCommand({
  name: 'keys',
  summary: 'manage API keys of the embedded service (stored hashed in the data dir)',
  usage: [
    'svc keys create [--user <id>] [--label <text>]   print a new key once',
    'svc keys list [--user <id>] [--json]             ids, owners, prefixes, state',
    'svc keys revoke <key-id>                         the next request with it gets 401',
  ],
  positionals: true,
  options: {
    user: { type: 'string', arg: '<id>', help: 'owner of the key (create), or whose keys (list)' },
    label: { type: 'string', arg: '<text>', help: 'a note stored with a new key' },
  },
  json: 'print the new key, or the list, as JSON',
  dataDir: true,
  examples: ['svc keys create --user alice', 'svc keys list --json', 'svc keys revoke <key-id>'],
  async run(ctx) {
    const { values, positionals } = ctx;
    const [action, id] = positionals;
    if (action === undefined) {
      process.stdout.write(ctx.help());
      return EXIT.usage;
    }
    const dataDir = await resolveDataDir(ctx.dataDirFlag);
    const db = openDatabase(dataDir);
    try {
      await runMigrations({ dialect: 'sqlite', db });
      const store = new KeyStore(new SqliteSql(db));
      switch (action) {
        case 'create': {
          const created = await store.create(values.user ?? 'default', values.label ?? null);
          process.stdout.write(
            ctx.json
              ? JSON.stringify(created) + '\n'
              : `id:  ${created.id}\nkey: ${created.key}\n(shown once)\n`,
          );
          return EXIT.ok;
        }
        case 'list': {
          const keys = await store.list(values.user);
          if (ctx.json) {
            process.stdout.write(JSON.stringify(keys) + '\n');
          } else if (keys.length === 0) {
            process.stderr.write('svc: no keys yet (svc keys create, or any command, makes one)\n');
          } else {
            printTable(
              ['id', 'user', 'prefix', 'state', 'created', 'label'],
              keys.map((k) => [
                k.id,
                k.user_id,
                `${k.prefix}…`,
                k.revoked_at === null ? 'active' : 'revoked',
                new Date(k.created_at * 1000).toISOString().slice(0, 19).replace('T', ' '),
                k.label ?? '',
              ]),
              { maxWidth: [36, 20, 10, 8, 20, 40] },
            );
          }
          return EXIT.ok;
        }
        case 'revoke': {
          if (id === undefined)
            throw new UsageError('keys revoke: give the key id (see svc keys list)');
          if (!(await store.revokeById(id))) {
            process.stderr.write(`svc: no active key with id ${id}\n`);
            return EXIT.failure;
          }
          process.stdout.write(`revoked ${id}\n`);
          return EXIT.ok;
        }
        default:
          throw new UsageError(`keys: unknown action '${action}' (create, list, revoke)`);
      }
    } finally {
      db.close();
    }
  },
});
