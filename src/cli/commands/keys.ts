import path from 'node:path';
import { KeyStore, SERVER_DEFAULTS } from '../../server/index.js';
import { openDatabase } from '../../server/storage.js';
import { parseArgs } from 'node:util';
import { EXIT, parseOrUsage, UsageError } from '../common.js';
import { printTable } from '../output.js';

const HELP = `svc keys: manage API keys of the embedded service (stored hashed in the data dir)

Usage:
  svc keys create [--user <id>] [--label <text>]   print a new key once
  svc keys list [--user <id>] [--json]             ids, owners, prefixes, state
  svc keys revoke <key-id>                         the next request with it gets 401

Options: --data-dir <dir> (default ~/.svc-toolkit or SVC_DATA_DIR)
`;

/** `svc keys create|list|revoke`. */
export async function runKeys(argv: string[]): Promise<number> {
  const { values, positionals } = parseOrUsage('keys', () =>
    parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        user: { type: 'string' },
        label: { type: 'string' },
        json: { type: 'boolean' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  const [action, id] = positionals;
  if (values.help || action === undefined) {
    process.stdout.write(HELP);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  const dataDir = path.resolve(
    values['data-dir'] ?? process.env.SVC_DATA_DIR ?? SERVER_DEFAULTS.dataDir,
  );
  const db = openDatabase(dataDir);
  try {
    const store = new KeyStore(db);
    switch (action) {
      case 'create': {
        const created = store.create(values.user ?? 'default', values.label ?? null);
        process.stdout.write(
          values.json
            ? JSON.stringify(created) + '\n'
            : `id:  ${created.id}\nkey: ${created.key}\n(shown once)\n`,
        );
        return EXIT.ok;
      }
      case 'list': {
        const keys = store.list(values.user);
        if (values.json) {
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
        if (!store.revokeById(id)) {
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
}
