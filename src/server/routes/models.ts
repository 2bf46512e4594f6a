import type { Hono } from 'hono';
import { CHAT_MODELS } from '../../protocol/index.js';
import type { AppEnv } from '../context.js';
import { HttpError } from '../http-error.js';

// A fixed creation time: the list must not change from one start to the next.
const CREATED = Math.floor(Date.UTC(2025, 0, 1) / 1000);

const modelObject = (id: string) => ({ id, object: 'model', created: CREATED, owned_by: 'svc' });

/**
 * `GET /models` and `GET /v1/models` (and `/{model}`): the chat models in the OpenAI list shape,
 * so OpenAI-compatible SDKs and tools that list models first work with either base URL.
 */
export function registerModelRoutes(app: Hono<AppEnv>): void {
  app.get('/models', (c) => c.json({ object: 'list', data: CHAT_MODELS.map(modelObject) }));
  app.get('/v1/models', (c) => c.json({ object: 'list', data: CHAT_MODELS.map(modelObject) }));
  for (const prefix of ['/models', '/v1/models']) {
    app.get(`${prefix}/:model`, (c) => {
      const id = c.req.param('model');
      if (!(CHAT_MODELS as readonly string[]).includes(id)) {
        throw new HttpError(404, `Model not found: ${id} (GET ${prefix} lists them)`, {
          code: 'model_not_found',
        });
      }
      return c.json(modelObject(id));
    });
  }
}
