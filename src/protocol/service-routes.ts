// Routes the embedded service serves beside the API of ROUTES: pages a browser opens (signed
// document links, the live view) and the OpenAI-style model list. They share RouteDef, so the
// server mounts them from the same table; the client does not call them.
import { z } from 'zod';
import { LiveInputRequestSchema } from './browser-live.js';
import type { RouteDef } from './route-types.js';

/** One model of `GET /models`, in the OpenAI list shape. */
export const ModelObjectSchema = z.looseObject({
  id: z.string(),
  object: z.literal('model'),
  created: z.int(),
  owned_by: z.string(),
});

/** Response of `GET /models`. */
export const ModelListResponseSchema = z.looseObject({
  object: z.literal('list'),
  data: z.array(ModelObjectSchema),
});

/** One model object. */
export type ModelObject = z.infer<typeof ModelObjectSchema>;
/** Model list response. */
export type ModelListResponse = z.infer<typeof ModelListResponseSchema>;

/** The service's own pages and the model list, keyed by id. */
export const SERVICE_ROUTES = {
  /** A local document as a readable page, opened by signed link (`?sig=`). */
  'docs.get': {
    id: 'docs.get',
    method: 'GET',
    kind: 'html',
    auth: 'signed-link',
    path: '/docs/{document_id}',
    pathParams: ['document_id'],
    response: null,
  },
  'models.list': {
    id: 'models.list',
    method: 'GET',
    kind: 'json',
    auth: 'bearer',
    path: '/models',
    aliases: ['/v1/models'],
    pathParams: [],
    response: ModelListResponseSchema,
  },
  'models.get': {
    id: 'models.get',
    method: 'GET',
    kind: 'json',
    auth: 'bearer',
    path: '/models/{model}',
    aliases: ['/v1/models/{model}'],
    pathParams: ['model'],
    response: ModelObjectSchema,
  },
  /** The live viewer page: static HTML that holds no data (404 once the session ended). */
  'browser.sessions.live.page': {
    id: 'browser.sessions.live.page',
    method: 'GET',
    kind: 'html',
    auth: 'public',
    path: '/v1/browser/sessions/{session_id}/live',
    pathParams: ['session_id'],
    response: null,
  },
  /** The live frames: `hello`, `frame`, `tab` and `end` events. */
  'browser.sessions.live.frames': {
    id: 'browser.sessions.live.frames',
    method: 'GET',
    kind: 'sse',
    auth: 'live-token',
    path: '/v1/browser/sessions/{session_id}/live/frames',
    pathParams: ['session_id'],
    response: null,
  },
  'browser.sessions.live.input': {
    id: 'browser.sessions.live.input',
    method: 'POST',
    kind: 'empty',
    auth: 'live-token',
    path: '/v1/browser/sessions/{session_id}/live/input',
    pathParams: ['session_id'],
    body: LiveInputRequestSchema,
    response: null,
    status: 204,
  },
} as const satisfies Record<string, RouteDef>;
