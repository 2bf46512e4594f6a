import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type Database from 'better-sqlite3';
import { SERVICE_ROUTES } from '../protocol/index.js';

/** The page's path template, from the route table (any id signs, even one not indexed). */
const DOC_PATH = SERVICE_ROUTES['docs.get'].path;

/**
 * Signed links to local documents (`/docs/{id}?sig=…`). A browser sends no bearer header, so the
 * link itself carries the permission: an HMAC of the id under a secret kept in the data dir.
 */
export class DocLinks {
  private readonly secret: Buffer;

  constructor(
    db: Database.Database,
    private readonly baseUrl: () => string,
  ) {
    db.exec('CREATE TABLE IF NOT EXISTS server_meta (key TEXT PRIMARY KEY, value BLOB NOT NULL)');
    const row = db.prepare("SELECT value FROM server_meta WHERE key = 'doc_link_secret'").get() as
      { value: Buffer } | undefined;
    this.secret = row?.value ?? randomBytes(32);
    if (!row)
      db.prepare("INSERT INTO server_meta (key, value) VALUES ('doc_link_secret', ?)").run(
        this.secret,
      );
  }

  /** The absolute signed URL of document `id`, optionally at chunk anchor `#c{ordinal}`. */
  url(id: string, chunkOrdinal?: number): string {
    const anchor = chunkOrdinal === undefined ? '' : `#c${chunkOrdinal}`;
    const page = DOC_PATH.replace('{document_id}', encodeURIComponent(id));
    return `${this.baseUrl()}${page}?sig=${this.sign(id)}${anchor}`;
  }

  /** True when `sig` is the signature of `id` (constant-time). */
  verify(id: string, sig: string | undefined): boolean {
    if (!sig) return false;
    const expected = Buffer.from(this.sign(id));
    const given = Buffer.from(sig);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private sign(id: string): string {
    return createHmac('sha256', this.secret).update(id).digest('base64url').slice(0, 32);
  }
}
