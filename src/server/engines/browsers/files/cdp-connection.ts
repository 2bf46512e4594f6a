// The CDP connection the server keeps to a session's own browser (downloads, contexts): commands
// with ids, events by name. The client's relayed connection never sees it.
import { CdpClient } from '../live/cdp-client.js';

/**
 * One browser-level CDP connection (`ws://127.0.0.1:PORT/devtools/browser/<id>`): the server's one
 * {@link CdpClient}, under the name the downloads, contexts and recycling code use.
 * @example
 * const cdp = await CdpConnection.open(browser.chromium.wsEndpoint);
 * const { cookies } = await cdp.send<{ cookies: unknown[] }>('Storage.getCookies');
 * cdp.close();
 */
export type CdpConnection = CdpClient;

/** Opens a {@link CdpConnection}. */
export const CdpConnection = {
  /**
   * Connects to a browser's DevTools endpoint.
   * @throws Error when the browser does not accept the connection in time
   */
  open: (endpoint: string): Promise<CdpConnection> => CdpClient.connect(endpoint),
} as const;
