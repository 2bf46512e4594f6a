// Session recordings: start one with the session, append its rrweb events to a file, keep it after
// the session ends, and delete it after the retention period or on request.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ServerContext } from '../../../context.js';
import { NotFound } from '../../../errors.js';
import { Recorder } from './recorder.js';
import { RecordingStore } from './store.js';

/** Defaults of {@link Recordings}. */
export const DEFAULTS = {
  /** How long a recording is kept after its session ends: 7 days. */
  retentionMs: 7 * 24 * 3_600_000,
  /** Largest recording; past it the recorder stops and the recording is marked truncated. */
  maxBytes: 50 * 1024 * 1024,
  /** How often expired recordings are looked for. */
  purgeIntervalMs: 60_000,
} as const;

/** Options of {@link Recordings}. */
export interface RecordingsOptions {
  /** @default DEFAULTS.retentionMs */
  retentionMs?: number | undefined;
  /** @default DEFAULTS.maxBytes */
  maxBytes?: number | undefined;
}

/** One rrweb event as stored: rrweb's `{type, data, timestamp}` plus the tab it came from. */
export interface RecordedEvent {
  type: number;
  data: unknown;
  timestamp: number;
  /** 1, 2, ... in the order the tabs were opened; 0 for markers written by the server. */
  tab: number;
}

/** The page a tab showed from `offset_ms` on: one per document, from its full snapshot. */
export interface RecordingPage {
  tab: number;
  url: string;
  offset_ms: number;
}

/** `GET /v1/browser/sessions/{id}/recording`. Times are ms since the epoch. */
export interface RecordingDocument {
  session_id: string;
  /** `recording` while the session runs, `complete` after. */
  status: 'recording' | 'complete';
  started_at: number;
  ended_at: number | null;
  truncated: boolean;
  /** Page URL markers in order: offsets are ms from `started_at`, the replay page's `#t=`. */
  pages: RecordingPage[];
  /** rrweb events ordered by timestamp; the first is the server's `svc-recording-start` marker. */
  events: RecordedEvent[];
}

interface Active {
  sessionId: string;
  recorder: Recorder | undefined;
  stream: WriteStream;
  bytes: number;
  events: number;
  truncated: boolean;
  /** Latest event time seen: the end marker must come after it (page clocks may run ahead). */
  lastTimestamp: number;
}

/** rrweb's custom event type: the server's own markers use it. */
const CUSTOM_EVENT = 5;

/**
 * Recordings of one server. Events are appended to `<dataDir>/recordings/<session_id>.ndjson` as
 * they arrive; `bs_recordings` indexes them per user. A recording outlives its session (the session
 * record is forgotten after minutes, the recording after {@link DEFAULTS.retentionMs}).
 * @example
 * const recordings = new Recordings(ctx); recordings.start();
 * await recordings.begin(sessionId, userId, wsEndpoint); // when the session is created
 * recordings.end(sessionId); // when it ends
 */
export class Recordings {
  private readonly store: RecordingStore;
  private readonly dir: string;
  private readonly retentionMs: number;
  private readonly maxBytes: number;
  private readonly linkSecret: Buffer;
  private readonly active = new Map<string, Active>();
  /** Recordings whose file is being flushed, by session id. */
  private readonly finishing = new Map<string, Promise<void>>();
  private purgeTimer: NodeJS.Timeout | undefined;

  /** @throws Error naming the option when `retentionMs` or `maxBytes` is not a positive number */
  constructor(
    private readonly ctx: ServerContext,
    options: RecordingsOptions = {},
  ) {
    this.store = new RecordingStore(ctx.db);
    this.dir = path.join(ctx.config.dataDir, 'recordings');
    this.retentionMs = positive(
      'recordingRetentionMs',
      options.retentionMs ?? DEFAULTS.retentionMs,
    );
    this.maxBytes = positive('maxRecordingBytes', options.maxBytes ?? DEFAULTS.maxBytes);
    this.linkSecret = this.store.linkSecret();
  }

  /**
   * The replay page's signed link (`.../recording.html?sig=…`): a browser sends no bearer header,
   * so, like the signed links of local documents, the link itself carries the permission to view
   * this one recording; it grants nothing else and dies with the recording.
   */
  htmlUrl(sessionId: string): string {
    return `${this.ctx.baseUrl()}/v1/browser/sessions/${sessionId}/recording.html?sig=${this.sign(sessionId)}`;
  }

  /** The owner of recording `sessionId` when `sig` is its link's signature (constant-time). */
  ownerByLink(sessionId: string, sig: string | undefined): string | undefined {
    if (!sig) return undefined;
    const expected = Buffer.from(this.sign(sessionId));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return this.store.byId(sessionId)?.user_id;
  }

  /** Closes what a crashed server left open, purges expired recordings and starts the purge timer. */
  async start(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    this.store.finishOpen(this.ctx.clock());
    await this.purge();
    this.purgeTimer = setInterval(() => void this.purge(), DEFAULTS.purgeIntervalMs);
    this.purgeTimer.unref();
  }

  /**
   * Starts recording session `sessionId` of `userId` in the browser at `wsEndpoint`; resolves once
   * every page that exists is instrumented, so the session's first navigation is recorded.
   * `startedAt` is the recording's time 0 (the replay page's `#t=0`).
   * @throws Error when the recorder cannot attach (nothing is left behind)
   */
  async begin(
    sessionId: string,
    userId: string,
    wsEndpoint: string,
    startedAt: number = this.ctx.clock(),
  ): Promise<void> {
    const stream = createWriteStream(this.file(sessionId), { flags: 'w' });
    stream.on('error', (error) =>
      this.ctx.logger.warn('recording write failed', { sessionId, error: error.message }),
    );
    const active: Active = {
      sessionId,
      recorder: undefined,
      stream,
      bytes: 0,
      events: 0,
      truncated: false,
      lastTimestamp: startedAt,
    };
    this.write(active, {
      type: CUSTOM_EVENT,
      data: { tag: 'svc-recording-start', payload: { session_id: sessionId } },
      timestamp: startedAt,
      tab: 0,
    });
    try {
      active.recorder = await Recorder.start(
        wsEndpoint,
        (tab, json) => this.onEvent(active, tab, json),
        this.ctx.logger,
      );
    } catch (error) {
      stream.destroy();
      await rm(this.file(sessionId), { force: true });
      throw error;
    }
    this.store.insert(sessionId, userId, startedAt);
    this.active.set(sessionId, active);
  }

  /** Stops recording `sessionId` (its session ended); the recording stays readable. */
  end(sessionId: string): void {
    const active = this.active.get(sessionId);
    if (!active) return;
    this.active.delete(sessionId);
    active.recorder?.stop();
    const endedAt = this.ctx.clock();
    // The end marker makes the replay's timeline last as long as the session, and puts the last
    // page's events strictly inside it (a player seeks up to, not onto, its final event).
    this.write(active, {
      type: CUSTOM_EVENT,
      data: { tag: 'svc-recording-end', payload: {} },
      timestamp: Math.max(endedAt, active.lastTimestamp + 1),
      tab: 0,
    });
    const finished = new Promise<void>((resolve) => active.stream.end(resolve)).then(() => {
      try {
        this.store.finish(sessionId, endedAt, active.bytes, active.events, active.truncated);
      } catch (error) {
        this.ctx.logger.warn('could not finish a recording', {
          sessionId,
          error: (error as Error).message,
        });
      }
    });
    this.finishing.set(sessionId, finished);
    void finished.finally(() => {
      if (this.finishing.get(sessionId) === finished) this.finishing.delete(sessionId);
    });
  }

  /** True when `sessionId` has a recording (running or kept). */
  exists(sessionId: string, userId: string): boolean {
    return this.active.has(sessionId) || this.store.get(userId, sessionId) !== undefined;
  }

  /**
   * The events of a recording, ordered by timestamp, with its page URL markers.
   * @throws NotFound when there is none for this user (never recorded, deleted or expired)
   */
  async read(userId: string, sessionId: string): Promise<RecordingDocument> {
    // A session that just ended is still flushing its file and end time: read what it settles to.
    await this.finishing.get(sessionId);
    const row = this.store.get(userId, sessionId);
    if (!row) throw notFound(sessionId);
    let text: string;
    try {
      text = await readFile(this.file(sessionId), 'utf8');
    } catch {
      throw notFound(sessionId);
    }
    const events: RecordedEvent[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        events.push(JSON.parse(line) as RecordedEvent);
      } catch {
        // The last line of a recording still being written may be partial.
      }
    }
    // Stable: events of one tab keep their order; tabs interleave by time.
    events.sort((a, b) => a.timestamp - b.timestamp);
    const pages: RecordingPage[] = [];
    // A page is shown from its document's full snapshot, which follows its Meta event by as much
    // as the page takes to serialize: a link to `offset_ms` must land after it, not before.
    const drawn = new Map<number, RecordingPage>();
    for (const e of events) {
      const offset = Math.max(0, e.timestamp - row.started_at);
      const href = e.type === 4 ? (e.data as { href?: unknown }).href : undefined;
      if (typeof href === 'string') {
        const page = { tab: e.tab, url: href, offset_ms: offset };
        pages.push(page);
        drawn.set(e.tab, page);
      } else if (e.type === 2) {
        const page = drawn.get(e.tab);
        if (page) page.offset_ms = offset;
        drawn.delete(e.tab);
      }
    }
    return {
      session_id: sessionId,
      status: this.active.has(sessionId) ? 'recording' : 'complete',
      started_at: row.started_at,
      ended_at: row.ended_at,
      truncated: row.truncated === 1 || this.active.get(sessionId)?.truncated === true,
      pages,
      events,
    };
  }

  /**
   * Deletes a recording now (a running one stops first).
   * @throws NotFound when there is none for this user
   */
  async remove(userId: string, sessionId: string): Promise<void> {
    if (!this.store.get(userId, sessionId)) throw notFound(sessionId);
    this.end(sessionId);
    await this.drop(sessionId);
  }

  /** Deletes the recordings that ended more than the retention period ago; returns how many. */
  async purge(): Promise<number> {
    const ids = this.store.expired(this.ctx.clock() - this.retentionMs);
    for (const id of ids) await this.drop(id);
    return ids.length;
  }

  /** Stops every recorder and waits for the files to be flushed. */
  async close(): Promise<void> {
    clearInterval(this.purgeTimer);
    for (const id of [...this.active.keys()]) this.end(id);
    await Promise.all(this.finishing.values());
  }

  private async drop(sessionId: string): Promise<void> {
    await this.finishing.get(sessionId);
    this.store.delete(sessionId);
    await rm(this.file(sessionId), { force: true });
  }

  private onEvent(active: Active, tab: number, json: string): void {
    if (active.truncated || !this.active.has(active.sessionId)) return;
    let event: { type?: unknown; timestamp?: unknown };
    try {
      event = JSON.parse(json) as typeof event;
    } catch {
      return;
    }
    // The binding is callable by the page itself: keep only what has the shape of an rrweb event.
    if (typeof event !== 'object' || event === null) return;
    if (typeof event.type !== 'number' || typeof event.timestamp !== 'number') return;
    const line = JSON.stringify({ ...event, tab });
    if (active.bytes + Buffer.byteLength(line) + 1 > this.maxBytes) {
      active.truncated = true;
      active.recorder?.stop();
      this.write(active, {
        type: CUSTOM_EVENT,
        data: { tag: 'svc-recording-truncated', payload: { max_bytes: this.maxBytes } },
        timestamp: this.ctx.clock(),
        tab: 0,
      });
      this.ctx.logger.warn('recording reached its size cap', {
        sessionId: active.sessionId,
        maxBytes: this.maxBytes,
      });
      return;
    }
    active.lastTimestamp = Math.max(active.lastTimestamp, event.timestamp);
    this.writeLine(active, line);
  }

  private write(active: Active, event: RecordedEvent): void {
    this.writeLine(active, JSON.stringify(event));
  }

  private writeLine(active: Active, line: string): void {
    active.bytes += Buffer.byteLength(line) + 1;
    active.events++;
    active.stream.write(line + '\n');
  }

  private sign(sessionId: string): string {
    return createHmac('sha256', this.linkSecret).update(sessionId).digest('base64url').slice(0, 32);
  }

  private file(sessionId: string): string {
    return path.join(this.dir, `${sessionId}.ndjson`);
  }
}

function notFound(sessionId: string): NotFound {
  return new NotFound(`Recording not found for browser session ${sessionId}`, {
    code: 'recording_not_found',
  });
}

function positive(name: string, value: number): number {
  if (!(typeof value === 'number' && Number.isFinite(value) && value > 0))
    throw new Error(`${name}: expected a positive number, got ${String(value)}`);
  return value;
}
