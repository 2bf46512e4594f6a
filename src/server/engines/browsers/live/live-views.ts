// Live views of running sessions: one view token per session, checked for every viewer.
import { routePath } from '../../../../protocol/index.js';
import type { ServerContext } from '../../../context.js';
import { NotFound, Unauthorized } from '../../../errors.js';
import { hashToken, newConnectToken, tokenMatches } from '../token.js';
import { LiveScreencast } from './screencast.js';

/** `interactive`: viewers may click, scroll and type; `read-only`: they only watch. */
export type LiveViewMode = 'interactive' | 'read-only';

/** Header that carries the view token on the live view's stream and input requests. */
export const LIVE_TOKEN_HEADER = 'x-live-token';

interface Entry {
  /** Kept in memory only, to render `live_url` while the session runs (like the connect token). */
  token: string;
  tokenHash: Buffer;
  mode: LiveViewMode;
  screencast: LiveScreencast;
}

/** What an authorized viewer may use. */
export interface LiveViewGrant {
  mode: LiveViewMode;
  screencast: LiveScreencast;
  /**
   * Counts the viewer as a client of the session while it watches, so the session does not end
   * idle while a person works in it; `close` is called if the session ends. Returns the release.
   */
  hold(close: () => void): () => void;
}

/** Registers a client of a session (see `BrowserSessions.attachClient`); undefined once it ended. */
export type AttachClient = (sessionId: string, close: () => void) => (() => void) | undefined;

/**
 * The live views of the running sessions. Each session gets its own view token at create: it is
 * not the API key and not the connect token, so a `live_url` handed to a person lets them watch (and,
 * unless `read-only`, drive) that one session and nothing else. Only the token's SHA-256 is used to
 * check it; the token itself is never stored on disk, and it travels in the URL's fragment (which a
 * browser never sends) and then in the {@link LIVE_TOKEN_HEADER} header, so it is in no server log.
 * A view ends with its session.
 */
export class LiveViews {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ctx: ServerContext,
    private readonly attachClient: AttachClient,
  ) {}

  /** Opens the live view of a new session whose browser listens at `wsEndpoint`. */
  open(sessionId: string, wsEndpoint: string, mode: LiveViewMode): void {
    const token = newConnectToken();
    this.entries.set(sessionId, {
      token,
      tokenHash: hashToken(token),
      mode,
      screencast: new LiveScreencast(wsEndpoint, this.ctx.logger),
    });
  }

  /** `live_url` of a running session: the viewer page with the token in its fragment. */
  url(sessionId: string): string | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    const page = routePath('browser.sessions.live.page', { session_id: sessionId });
    return `${this.ctx.baseUrl()}${page}#token=${entry.token}`;
  }

  /** True while session `sessionId` has a live view (it is running). */
  has(sessionId: string): boolean {
    return this.entries.has(sessionId);
  }

  /**
   * Checks a viewer's token.
   * @throws NotFound when the session is unknown or not running; Unauthorized when the token is missing or wrong
   */
  authorize(sessionId: string, token: string | undefined): LiveViewGrant {
    const entry = this.entries.get(sessionId);
    if (!entry) {
      throw new NotFound(`Browser session not found or not running: ${sessionId}`, {
        code: 'session_not_found',
      });
    }
    if (!token || !tokenMatches(token, entry.tokenHash)) {
      throw new Unauthorized('Invalid or missing live view token for this browser session', {
        code: 'invalid_token',
      });
    }
    return {
      mode: entry.mode,
      screencast: entry.screencast,
      hold: (close) => this.attachClient(sessionId, close) ?? (() => undefined),
    };
  }

  /** Ends the view of a session that ended: its viewers are told and disconnected. */
  close(sessionId: string): void {
    const entry = this.entries.get(sessionId);
    if (!entry) return;
    this.entries.delete(sessionId);
    entry.screencast.end('the browser session has ended');
  }

  /** Ends every view (server shutdown). */
  closeAll(): void {
    for (const id of [...this.entries.keys()]) this.close(id);
  }
}
