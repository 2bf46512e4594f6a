// Per-session files: downloads the browser writes (moved under their own names once complete) and
// uploads a client puts where a page's file input can take them.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { NotFound, TooLarge } from '../../../errors.js';
import type { CdpConnection } from './cdp-connection.js';

/** Limits of session files. */
export const FILES_DEFAULTS = {
  /** Total bytes of downloads per session; a download that would pass it is cancelled. */
  maxDownloadBytes: 512 * 1024 * 1024,
  /** Largest upload (decoded); the request body limit applies to its base64 form as well. */
  maxUploadBytes: 7 * 1024 * 1024,
  /** Total bytes of uploads per session. */
  maxUploadTotalBytes: 64 * 1024 * 1024,
} as const;

/** One entry of `GET .../downloads`. */
export interface DownloadEntry {
  name: string;
  size: number;
  sha256: string | null;
  finished: boolean;
  url: string | null;
}

/** What `POST .../uploads` answers. */
export interface UploadEntry {
  name: string;
  size: number;
  sha256: string;
  path: string;
}

interface InFlight {
  url: string | null;
  suggested: string;
  received: number;
  name?: string;
}

/**
 * The files of one session under `<root>/<sessionId>/`: `incoming/` (where the browser writes,
 * named by download guid), `downloads/` (finished files under their suggested names) and
 * `uploads/`. Kept after the session ends, removed with its record (see `removeOrphans`).
 */
export class SessionFiles {
  /** The session's folder. */
  readonly dir: string;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly hashes = new Map<string, { size: number; mtimeMs: number; sha256: string }>();
  private downloadedBytes = 0;
  /** Completions are moved one at a time, so two equal names cannot pick the same free name. */
  private moving: Promise<void> = Promise.resolve();

  constructor(
    root: string,
    readonly sessionId: string,
    private readonly limits: typeof FILES_DEFAULTS = FILES_DEFAULTS,
  ) {
    this.dir = path.join(root, sessionId);
  }

  /** Where the browser writes downloads (the CDP proxy points a client's download path here). */
  get incomingDir(): string {
    return path.join(this.dir, 'incoming');
  }

  private get downloadsDir(): string {
    return path.join(this.dir, 'downloads');
  }

  private get uploadsDir(): string {
    return path.join(this.dir, 'uploads');
  }

  /**
   * Routes the browser's downloads into this folder (`allowAndName`, events on) and follows them
   * over `cdp`.
   */
  async watch(cdp: CdpConnection): Promise<void> {
    await mkdir(this.incomingDir, { recursive: true, mode: 0o700 });
    await mkdir(this.downloadsDir, { recursive: true, mode: 0o700 });
    cdp.on('Browser.downloadWillBegin', (p) => {
      this.inFlight.set(String(p.guid), {
        url: typeof p.url === 'string' ? p.url : null,
        suggested: typeof p.suggestedFilename === 'string' ? p.suggestedFilename : 'download',
        received: 0,
      });
    });
    cdp.on('Browser.downloadProgress', (p) => {
      this.moving = this.moving.then(() => this.onProgress(cdp, p)).catch(() => undefined);
    });
    await cdp.send('Browser.setDownloadBehavior', {
      behavior: 'allowAndName',
      downloadPath: this.incomingDir,
      eventsEnabled: true,
    });
  }

  /** Finished downloads (oldest first), then those still being written. */
  async listDownloads(): Promise<DownloadEntry[]> {
    const done: (DownloadEntry & { mtimeMs: number })[] = [];
    for (const name of await listFiles(this.downloadsDir)) {
      const file = path.join(this.downloadsDir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      done.push({
        name,
        size: info.size,
        sha256: await this.hashOf(file, info.size, info.mtimeMs),
        finished: true,
        url: null,
        mtimeMs: info.mtimeMs,
      });
    }
    done.sort((a, b) => a.mtimeMs - b.mtimeMs || a.name.localeCompare(b.name));
    const urls = new Map(
      [...this.inFlight.values()].flatMap((f) => (f.name ? [[f.name, f.url]] : [])),
    );
    const entries: DownloadEntry[] = done.map(({ mtimeMs: _m, ...e }) => ({
      ...e,
      url: urls.get(e.name) ?? null,
    }));
    for (const f of this.inFlight.values()) {
      if (f.name === undefined)
        entries.push({
          name: f.suggested,
          size: f.received,
          sha256: null,
          finished: false,
          url: f.url,
        });
    }
    return entries;
  }

  /**
   * The path and size of finished download `name` (already checked to be a plain file name).
   * @throws NotFound when there is no such finished download
   */
  async download(name: string): Promise<{ file: string; size: number }> {
    const file = path.join(this.downloadsDir, name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile())
      throw new NotFound(
        `No finished download named ${JSON.stringify(name)} in session ${this.sessionId}`,
        {
          code: 'download_not_found',
        },
      );
    return { file, size: info.size };
  }

  /**
   * Stores an upload as `uploads/<name>` (replacing one of the same name).
   * @throws TooLarge past the per-file or per-session upload limit
   */
  async upload(name: string, data: Buffer): Promise<UploadEntry> {
    if (data.length > this.limits.maxUploadBytes)
      throw new TooLarge(
        `Upload too large: ${data.length} bytes, the limit is ${this.limits.maxUploadBytes}`,
        {
          code: 'upload_too_large',
        },
      );
    await mkdir(this.uploadsDir, { recursive: true, mode: 0o700 });
    let total = data.length;
    for (const other of await listFiles(this.uploadsDir)) {
      if (other !== name)
        total += (await stat(path.join(this.uploadsDir, other)).catch(() => ({ size: 0 }))).size;
    }
    if (total > this.limits.maxUploadTotalBytes)
      throw new TooLarge(
        `Uploads of session ${this.sessionId} would exceed ${this.limits.maxUploadTotalBytes} bytes`,
        {
          code: 'upload_too_large',
        },
      );
    const file = path.join(this.uploadsDir, name);
    await writeFile(file, data, { mode: 0o600 });
    return {
      name,
      size: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
      path: file,
    };
  }

  /** Removes the session's folder. */
  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true, maxRetries: 3 });
  }

  private async onProgress(cdp: CdpConnection, p: Record<string, unknown>): Promise<void> {
    const guid = String(p.guid);
    const flight = this.inFlight.get(guid);
    if (!flight || flight.name !== undefined) return;
    const received = typeof p.receivedBytes === 'number' ? p.receivedBytes : 0;
    this.downloadedBytes += Math.max(0, received - flight.received);
    flight.received = received;
    if (p.state === 'canceled') {
      this.inFlight.delete(guid);
      return;
    }
    if (p.state === 'inProgress') {
      if (this.downloadedBytes > this.limits.maxDownloadBytes) {
        this.inFlight.delete(guid);
        await cdp.send('Browser.cancelDownload', { guid }).catch(() => undefined);
        await rm(path.join(this.incomingDir, guid), { force: true });
      }
      return;
    }
    if (p.state !== 'completed') return;
    const name = await uniqueName(this.downloadsDir, safeName(flight.suggested));
    try {
      await rename(path.join(this.incomingDir, guid), path.join(this.downloadsDir, name));
      flight.name = name;
    } catch {
      // The file went away (the session ended and its folder with it).
      this.inFlight.delete(guid);
    }
  }

  private async hashOf(file: string, size: number, mtimeMs: number): Promise<string> {
    const cached = this.hashes.get(file);
    if (cached && cached.size === size && cached.mtimeMs === mtimeMs) return cached.sha256;
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    const sha256 = hash.digest('hex');
    this.hashes.set(file, { size, mtimeMs, sha256 });
    return sha256;
  }
}

/**
 * Removes the folders under `root` whose session `keep` no longer knows (purged records, or a
 * previous server's sessions).
 */
export async function removeOrphans(
  root: string,
  keep: (sessionId: string) => boolean,
): Promise<number> {
  let removed = 0;
  for (const name of await listFiles(root, true)) {
    if (keep(name)) continue;
    await rm(path.join(root, name), { recursive: true, force: true, maxRetries: 3 });
    removed++;
  }
  return removed;
}

async function listFiles(dir: string, dirs = false): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => (dirs ? e.isDirectory() : e.isFile())).map((e) => e.name);
  } catch {
    return [];
  }
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;

/** A page-suggested name made safe as one path segment. */
function safeName(suggested: string): string {
  const cleaned = path
    .basename(suggested.replace(/\\/g, '/'))
    .replace(CONTROL_CHARS, '_')
    .replace(/^\.+/, '')
    .trim();
  return (cleaned || 'download').slice(0, 200);
}

async function uniqueName(dir: string, name: string): Promise<string> {
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? name : `${stem} (${n})${ext}`;
    const taken = await stat(path.join(dir, candidate)).then(
      () => true,
      () => false,
    );
    if (!taken) return candidate;
  }
}
