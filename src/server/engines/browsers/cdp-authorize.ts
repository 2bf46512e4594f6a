// Who may open a CDP connection to a session (`/cdp` upgrades): its connect token, its owner's
// bearer key, or the credential of an upgrade another instance forwarded; and where to connect.
import type { Instances } from '../../storage/instances.js';
import { forwardCdp, FORWARD_HEADER, heldElsewhere } from './remote-sessions.js';
import type { Live } from './session-live.js';
import type { SessionRow } from './store.js';
import { tokenMatches } from './token.js';
import type { CdpAuthorization, CdpCredentials } from './types.js';

/**
 * Checks an upgrade's credentials for session `id` against its record `row` and, when it runs
 * here, its in-memory `live` state. A session running on another instance is answered with that
 * instance's `/cdp` route to relay to.
 * @param localFiles whether browsers download to this server's disk (not on a Grid)
 */
export function authorizeUpgrade(
  id: string,
  row: SessionRow | undefined,
  live: Live | undefined,
  credentials: CdpCredentials,
  instances: Instances,
  localFiles: boolean,
): CdpAuthorization {
  const missing = {
    ok: false,
    status: 404,
    message: `Browser session not found: ${id}`,
  } as const;
  if (!row) return missing;
  if (credentials.forward !== undefined) {
    if (!instances.verifyForwardToken(id, credentials.forward)) {
      return { ok: false, status: 401, message: `Invalid ${FORWARD_HEADER} credential` };
    }
  } else if (credentials.token !== undefined) {
    if (!tokenMatches(credentials.token, row.token_hash)) {
      return {
        ok: false,
        status: 401,
        message: 'Invalid connect token for this browser session',
      };
    }
  } else if (credentials.userId === undefined) {
    return {
      ok: false,
      status: 401,
      message:
        'Missing credentials: pass ?token=<connect token> or an Authorization: Bearer header',
    };
  } else if (credentials.userId !== row.user_id) {
    return missing;
  }
  // A forwarded upgrade is never forwarded again: two instances cannot bounce it between them.
  if (!live && credentials.forward === undefined && heldElsewhere(row, instances)) {
    return forwardCdp(row, instances);
  }
  if (!live || live.ending) {
    return {
      ok: false,
      status: 404,
      message: `Browser session ${id} is not running (status ${row.status})`,
    };
  }
  return {
    ok: true,
    wsEndpoint: live.browser.chromium.wsEndpoint,
    // On a Grid the browser's disk is its node's: a path of ours would mean nothing there.
    ...(localFiles ? { downloadPath: live.files.incomingDir } : {}),
  };
}
