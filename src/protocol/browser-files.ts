import { z } from 'zod';

/** Longest file name of a download or an upload. */
export const MAX_FILE_NAME_LENGTH = 255;

/**
 * A file name inside a session's folder: one path segment, no separators, no `.`/`..`, no control
 * characters. Anything else is refused with a 422 naming the field, so no name reaches outside.
 */
export const SessionFileNameSchema = z
  .string()
  .min(1, { error: 'must not be empty' })
  .max(MAX_FILE_NAME_LENGTH, { error: `must be at most ${MAX_FILE_NAME_LENGTH} characters` })
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[/\\\u0000-\u001f\u007f]/.test(s) && s !== '.' && s !== '..', {
    error: 'must be a plain file name (no /, \\, control characters, . or ..)',
  });

/** Body of `POST /v1/browser/sessions/{id}/uploads`: a name and the bytes, base64-encoded. */
export const BrowserUploadRequestSchema = z.strictObject({
  name: SessionFileNameSchema,
  data: z.base64({ error: 'must be base64' }),
});

/**
 * The stored upload: `path` is where the file lies on the browser's machine, the value to give
 * `DOM.setFileInputFiles` (or Playwright's `setInputFiles` / Puppeteer's `uploadFile` when the
 * driver runs on that machine).
 */
export const BrowserUploadSchema = z.looseObject({
  name: z.string(),
  size: z.int(),
  sha256: z.string(),
  path: z.string(),
});

/** One download of a session: `finished` is false while the browser still writes it. */
export const BrowserDownloadSchema = z.looseObject({
  name: z.string(),
  size: z.int(),
  sha256: z.string().nullable(),
  finished: z.boolean(),
  url: z.string().nullish(),
});

/** Response of `GET /v1/browser/sessions/{id}/downloads`, oldest first. */
export const BrowserDownloadListResponseSchema = z.looseObject({
  downloads: z.array(BrowserDownloadSchema),
});

/** Upload body. */
export type BrowserUploadRequest = z.input<typeof BrowserUploadRequestSchema>;
/** A stored upload. */
export type BrowserUpload = z.infer<typeof BrowserUploadSchema>;
/** One download. */
export type BrowserDownload = z.infer<typeof BrowserDownloadSchema>;
/** Download list response. */
export type BrowserDownloadListResponse = z.infer<typeof BrowserDownloadListResponseSchema>;
