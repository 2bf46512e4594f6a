// What a saved context holds: the browser's cookies (over CDP) and the profile directories where
// Chromium keeps localStorage and IndexedDB, packed into one gzipped JSON document.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * Profile paths kept, relative to the user-data dir. Cookies travel over CDP as well (session
 * cookies are never written to disk); the rest is on-disk storage only a profile restores exactly
 * (IndexedDB has no CDP write API, and structured-clone values such as Dates survive as they are).
 */
export const KEPT_PROFILE_PATHS: readonly string[] = [
  'Default/Cookies',
  'Default/Cookies-journal',
  'Default/Local Storage',
  'Default/IndexedDB',
  'Default/WebStorage',
];

/** A cookie as CDP `Storage.getCookies` returns it. */
export type CdpCookie = Record<string, unknown> & { name: string; value: string; domain?: string };

/** The content of a saved context. */
export interface ContextState {
  cookies: CdpCookie[];
  files: { path: string; data: Buffer }[];
}

interface Wire {
  v: 1;
  cookies: CdpCookie[];
  files: { p: string; d: string }[];
}

/** Reads the kept parts of `profileDir` (a stopped browser's, so files are flushed). */
export async function readProfile(profileDir: string): Promise<ContextState['files']> {
  const files: ContextState['files'] = [];
  const walk = async (rel: string): Promise<void> => {
    const abs = path.join(profileDir, rel);
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      if (code !== 'ENOTDIR') throw error;
      files.push({ path: rel, data: await readFile(abs) });
      return;
    }
    for (const entry of entries) {
      // Symlinks are never followed: a page cannot make us read outside the profile.
      if (entry.isSymbolicLink()) continue;
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile())
        files.push({ path: child, data: await readFile(path.join(profileDir, child)) });
    }
  };
  for (const kept of KEPT_PROFILE_PATHS) await walk(kept);
  return files;
}

/**
 * Writes saved files into a fresh profile dir before its browser starts.
 * @throws Error when a stored path would leave `profileDir` (a tampered archive)
 */
export async function writeProfile(
  profileDir: string,
  files: ContextState['files'],
): Promise<void> {
  const root = path.resolve(profileDir);
  for (const file of files) {
    const target = path.resolve(root, file.path);
    if (!target.startsWith(root + path.sep))
      throw new Error(`context file outside the profile: ${file.path}`);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.data, { mode: 0o600 });
  }
}

/** Serialises a state (gzip of JSON; file contents base64). */
export function packState(state: ContextState): Buffer {
  const wire: Wire = {
    v: 1,
    cookies: state.cookies,
    files: state.files.map((f) => ({ p: f.path, d: f.data.toString('base64') })),
  };
  return gzipSync(Buffer.from(JSON.stringify(wire), 'utf8'));
}

/** @throws Error when `packed` is not a state this version wrote */
export function unpackState(packed: Buffer): ContextState {
  const wire = JSON.parse(gunzipSync(packed).toString('utf8')) as Wire;
  if (wire.v !== 1 || !Array.isArray(wire.cookies) || !Array.isArray(wire.files))
    throw new Error('unknown browser context format');
  return {
    cookies: wire.cookies,
    files: wire.files.map((f) => ({ path: f.p, data: Buffer.from(f.d, 'base64') })),
  };
}

/** Cookies as `Storage.setCookies` takes them (read-only fields dropped, session cookies kept). */
export function settableCookies(cookies: readonly CdpCookie[]): Record<string, unknown>[] {
  return cookies.map((c) => {
    const {
      size: _size,
      session,
      expires,
      priority: _p,
      sourceScheme: _s,
      sourcePort: _sp,
      partitionKeyOpaque: _o,
      ...rest
    } = c;
    return session === true || typeof expires !== 'number' || expires < 0
      ? rest
      : { ...rest, expires };
  });
}
