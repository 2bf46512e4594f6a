// MCP progress notifications: sent only when the client asked for them (a progressToken in the
// request's _meta), and never allowed to fail the tool.
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** What a tool handler receives besides its arguments. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Reports `progress` (growing), of `total` when known, with a message. */
export type Progress = (progress: number, total: number | undefined, message: string) => void;

/** A {@link Progress} for the request `extra` belongs to; a no-op without a progress token. */
export function progressOf(extra: ToolExtra): Progress {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => undefined;
  let last = -1;
  return (progress, total, message) => {
    // The spec requires progress to increase with each notification.
    const value = progress > last ? progress : last + 0.001;
    last = value;
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress: value,
          ...(total !== undefined && { total }),
          message,
        },
      })
      .catch(() => undefined);
  };
}
