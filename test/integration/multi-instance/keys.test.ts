import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations, MIGRATIONS } from '../../../src/server/storage/index.js';
import type { TestPostgres } from '../../support/postgres.js';
import type { TestServer } from '../../support/server.js';
import { ALICE, api, postgres, startInstances } from './cluster.js';

describe('keys across instances', () => {
  let pg: TestPostgres;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    pg = await postgres();
    [a, b] = (await startInstances(await pg.createDatabase())) as [TestServer, TestServer];
  });
  afterAll(async () => {
    await a?.dispose();
    await b?.dispose();
    await pg?.stop();
  });

  it('a key created on A is accepted by B on the next request', async () => {
    const { key } = await a.keys.create('carol', 'made on A');
    const res = await fetch(`${b.url}/v1/browser/sessions`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
  });

  it('a key revoked through A is refused by B on the very next request', async () => {
    const { key } = await b.keys.create('alice', 'to revoke');
    expect((await api(b, key, 'GET', '/v1/browser/sessions')).status).toBe(200);
    const revoked = await api(a, ALICE, 'POST', '/revoke_auth_token', { auth_token: key });
    expect(revoked.status).toBe(200);
    const refused = await api(b, key, 'GET', '/v1/browser/sessions');
    expect(refused.status).toBe(401);
    expect(refused.json.error.message).toMatch(/^Revoked API key/);
  });
});

describe('migrations on PostgreSQL', () => {
  let pg: TestPostgres;
  afterAll(async () => pg?.stop());

  it('two instances starting together on an empty database migrate it once and both serve', async () => {
    pg = await postgres();
    const url = await pg.createDatabase();
    const servers = await startInstances(url, 3);
    try {
      for (const s of servers) {
        expect((await api(s, ALICE, 'GET', '/v1/browser/sessions')).status).toBe(200);
      }
      const ledger = await servers[0]!.storage.sql.all<{ id: string }>(
        'SELECT id FROM svc_migrations ORDER BY id',
      );
      expect(ledger.map((r) => r.id)).toEqual(
        MIGRATIONS.filter((m) => m.postgres !== undefined)
          .map((m) => m.id)
          .sort(),
      );
      // Running them again finds nothing to do.
      const pool = servers[0]!.storage.pool!;
      expect(await runMigrations({ dialect: 'postgres', pool })).toEqual([]);
    } finally {
      await Promise.all(servers.map((s) => s.dispose()));
    }
  });
});
