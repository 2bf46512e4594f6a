// Encryption at rest of saved browser contexts: AES-256-GCM under a key file of the data dir.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Name of the key file in the data dir: 32 random bytes, mode 0600, created on first use. */
export const CONTEXT_KEY_FILE = 'context.key';

const MAGIC = Buffer.from('SVCCTX1\0');
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Reads the contexts key of `dataDir`, creating it (0600, exclusive create so two servers starting
 * at once agree on one key) when missing.
 * @throws Error naming the file when it exists with a size other than 32 bytes
 */
export async function loadContextKey(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, CONTEXT_KEY_FILE);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  try {
    await writeFile(file, randomBytes(32), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // A key copied in by hand may carry looser bits: the file must stay readable by us only.
  await chmod(file, 0o600);
  const key = await readFile(file);
  if (key.length !== 32)
    throw new Error(`Context key file ${file} must hold exactly 32 bytes, found ${key.length}`);
  return key;
}

/**
 * Encrypts `plain` with AES-256-GCM; `aad` (owner and context id) is authenticated, so a file moved
 * to another user or context does not decrypt.
 */
export function seal(key: Buffer, plain: Buffer, aad: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([MAGIC, iv, cipher.getAuthTag(), body]);
}

/**
 * Decrypts what {@link seal} produced.
 * @throws Error when the data is not a sealed context, or was altered, or belongs to another `aad`
 */
export function unseal(key: Buffer, sealed: Buffer, aad: string): Buffer {
  if (
    sealed.length < MAGIC.length + IV_BYTES + TAG_BYTES ||
    !sealed.subarray(0, MAGIC.length).equals(MAGIC)
  )
    throw new Error('not a sealed browser context');
  const iv = sealed.subarray(MAGIC.length, MAGIC.length + IV_BYTES);
  const tag = sealed.subarray(MAGIC.length + IV_BYTES, MAGIC.length + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([
    decipher.update(sealed.subarray(MAGIC.length + IV_BYTES + TAG_BYTES)),
    decipher.final(),
  ]);
}
