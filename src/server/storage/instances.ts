// The instances sharing one database: a heartbeat row each (so sessions held by a dead instance
// end as `failed` instead of hanging), a shared secret for instance-to-instance forwarding, and
// stop requests to the instance holding a session's browser (PostgreSQL NOTIFY).
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../logger.js';
import type { Sql } from './sql.js';

/** Timing of instance liveness. */
export const INSTANCE_DEFAULTS = {
  /** How often an instance writes its heartbeat. */
  heartbeatMs: 2_000,
  /** An instance whose heartbeat is older than this is dead: its running sessions end `failed`. */
  staleAfterMs: 15_000,
} as const;

/** Notification channel of stop requests (payload: a session id). */
const STOP_CHANNEL = 'svc_session_stop';

/** This instance's membership of the service: identity, heartbeat, forwarding credentials. */
export class Instances {
  /** This instance's id, new at every start. */
  readonly id = randomUUID();
  private secret: Buffer | undefined;
  private url = '';
  private timer: NodeJS.Timeout | undefined;
  private listener: pg.Client | undefined;
  private readonly stopHandlers = new Set<(sessionId: string) => void>();

  constructor(
    private readonly sql: Sql,
    private readonly options: {
      clock: () => number;
      logger: Logger;
      /** For stop requests on PostgreSQL (LISTEN needs its own connection). */
      pool?: pg.Pool | undefined;
      heartbeatMs?: number;
      staleAfterMs?: number;
    },
  ) {}

  /** This instance's internal URL, as registered. */
  get internalUrl(): string {
    return this.url;
  }

  /**
   * Registers this instance at `url` and starts its heartbeat; `onDead` gets the ids of instances
   * found dead at each beat (their rows are removed once reported).
   */
  async start(url: string, onDead: (ids: string[]) => Promise<void>): Promise<void> {
    this.url = url;
    await this.sql.run(
      'INSERT INTO svc_cluster (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING',
      ['forward_secret', randomBytes(32)],
    );
    const row = await this.sql.get<{ value: Buffer }>(
      'SELECT value FROM svc_cluster WHERE name = ?',
      ['forward_secret'],
    );
    this.secret = row!.value;
    const now = this.options.clock();
    await this.sql.run(
      'INSERT INTO svc_instances (id, url, started_at, heartbeat_at) VALUES (?, ?, ?, ?)',
      [this.id, url, now, now],
    );
    if (this.options.pool) await this.listen(this.options.pool);
    const beat = async (): Promise<void> => {
      const at = this.options.clock();
      await this.sql.run('UPDATE svc_instances SET heartbeat_at = ? WHERE id = ?', [at, this.id]);
      const staleBefore = at - (this.options.staleAfterMs ?? INSTANCE_DEFAULTS.staleAfterMs);
      const dead = await this.sql.all<{ id: string }>(
        'SELECT id FROM svc_instances WHERE heartbeat_at < ? AND id <> ?',
        [staleBefore, this.id],
      );
      if (dead.length === 0) return;
      const ids = dead.map((d) => d.id);
      await onDead(ids);
      for (const id of ids) await this.sql.run('DELETE FROM svc_instances WHERE id = ?', [id]);
    };
    await beat();
    this.timer = setInterval(() => {
      beat().catch((error: unknown) =>
        this.options.logger.warn('instance heartbeat failed', { error: (error as Error).message }),
      );
    }, this.options.heartbeatMs ?? INSTANCE_DEFAULTS.heartbeatMs);
    this.timer.unref();
  }

  /** True while instance `id` beats (this one always is). */
  async alive(id: string): Promise<boolean> {
    if (id === this.id) return true;
    const row = await this.sql.get<{ heartbeat_at: number }>(
      'SELECT heartbeat_at FROM svc_instances WHERE id = ?',
      [id],
    );
    const staleAfter = this.options.staleAfterMs ?? INSTANCE_DEFAULTS.staleAfterMs;
    return row !== undefined && row.heartbeat_at >= this.options.clock() - staleAfter;
  }

  /** The credential another instance presents to forward a CDP connection of `sessionId`. */
  forwardToken(sessionId: string): string {
    if (!this.secret) throw new Error('instances are not started');
    return createHmac('sha256', this.secret).update(`cdp:${sessionId}`).digest('base64url');
  }

  /** Checks a forwarding credential presented for `sessionId`. */
  verifyForwardToken(sessionId: string, presented: string): boolean {
    if (!this.secret) return false;
    const expected = Buffer.from(this.forwardToken(sessionId));
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** Asks whichever instance holds `sessionId` to stop it (a no-op without PostgreSQL). */
  async requestStop(sessionId: string): Promise<void> {
    if (!this.options.pool) return;
    await this.options.pool.query('SELECT pg_notify($1, $2)', [STOP_CHANNEL, sessionId]);
  }

  /** Calls `handler` with each session id another instance asks to stop. */
  onStopRequest(handler: (sessionId: string) => void): void {
    this.stopHandlers.add(handler);
  }

  /** Stops the heartbeat and removes this instance's row. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    if (this.url) await this.sql.run('DELETE FROM svc_instances WHERE id = ?', [this.id]);
  }

  private async listen(pool: pg.Pool): Promise<void> {
    const client = new pg.Client(pool.options);
    client.on('notification', (message) => {
      if (message.channel !== STOP_CHANNEL || !message.payload) return;
      for (const handler of this.stopHandlers) handler(message.payload);
    });
    client.on('error', (error) =>
      this.options.logger.warn('stop-request listener failed', { error: error.message }),
    );
    await client.connect();
    await client.query(`LISTEN ${STOP_CHANNEL}`);
    this.listener = client;
  }
}
