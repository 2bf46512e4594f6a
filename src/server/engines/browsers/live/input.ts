// What the live-view page may send: the schema is the protocol's, shared with the route table.
export { LiveInputRequestSchema } from '../../../../protocol/browser-live.js';
export type { LiveInput } from '../../../../protocol/browser-live.js';
