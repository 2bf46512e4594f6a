// Sessions whose browser runs on another instance sharing the database: CDP upgrades are
// forwarded there, deletes are asked of it, and an instance found dead has its sessions failed.
import type { Logger } from '../../logger.js';
import type { Instances } from '../../storage/instances.js';
import type { SessionRow, SessionStore } from './store.js';
import type { CdpAuthorization } from './types.js';

/** Header carrying the instance-to-instance credential on a forwarded CDP upgrade. */
export const FORWARD_HEADER = 'x-svc-forward';

/** How long a delete through another instance waits for the owner to stop the session. */
export const REMOTE_STOP_TIMEOUT_MS = 15_000;

/** True when `row` is running on an instance other than this one. */
export function heldElsewhere(row: SessionRow, instances: Instances): boolean {
  return row.status === 'running' && row.instance_id !== null && row.instance_id !== instances.id;
}

/**
 * Where to relay a CDP upgrade of a session running on another instance: that instance's own
 * `/cdp` route, with a credential derived from the shared secret and the session id (never the
 * user's key or connect token).
 */
export function forwardCdp(row: SessionRow, instances: Instances): CdpAuthorization {
  if (!row.instance_url) {
    return { ok: false, status: 404, message: `Browser session ${row.id} is not reachable` };
  }
  const base = row.instance_url.replace(/^http/, 'ws').replace(/\/+$/, '');
  return {
    ok: true,
    wsEndpoint: `${base}/v1/browser/sessions/${encodeURIComponent(row.id)}/cdp`,
    headers: { [FORWARD_HEADER]: instances.forwardToken(row.id) },
    forwarded: true,
  };
}

/**
 * Stops a session running on another instance: asks its owner (which saves its context and kills
 * its browser) and waits for the record to end; an owner that stopped beating cannot answer, so the
 * record is ended here.
 */
export async function stopElsewhere(
  row: SessionRow,
  store: SessionStore,
  instances: Instances,
  clock: () => number,
  logger: Logger,
): Promise<void> {
  if (!(await instances.alive(row.instance_id!))) {
    await store.end(row.id, 'stopped', 'deleted by the client (its instance was gone)', clock());
    return;
  }
  await instances.requestStop(row.id);
  const end = Date.now() + REMOTE_STOP_TIMEOUT_MS;
  while (Date.now() < end) {
    const now = await store.byId(row.id);
    if (!now || now.status !== 'running') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  logger.warn('the instance holding a deleted session did not stop it in time', {
    sessionId: row.id,
    instanceId: row.instance_id,
  });
}
