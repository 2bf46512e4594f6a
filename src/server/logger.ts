/** Log levels, most verbose first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A structured logger. Fields must never carry API keys, connect tokens or request bodies. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Defense in depth: whatever reaches a log line, key- and token-shaped values are masked. */
const SECRET = /(svc_[A-Za-z0-9_-]{8,}|(?<=[?&]token=)[^&\s"]+|(?<=Bearer\s)[^\s"]+)/g;

/** Masks API keys, `token=` values and bearer credentials in a string. */
export function redact(text: string): string {
  return text.replace(SECRET, '[redacted]');
}

/**
 * A logger writing one JSON line per event to `write` (stderr by default), at `level` and above.
 * @default level 'info'
 */
export function createLogger(
  level: LogLevel = 'info',
  write: (line: string) => void = (line) => process.stderr.write(line + '\n'),
): Logger {
  const min = LOG_LEVELS.indexOf(level);
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>): void => {
    if (LOG_LEVELS.indexOf(lvl) < min) return;
    write(redact(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields })));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}
