import { CHAT_MODELS } from '../../protocol/index.js';
import { NotFound } from '../errors.js';
import type { HandlersOf } from '../register-routes.js';

// A fixed creation time: the list must not change from one start to the next.
const CREATED = Math.floor(Date.UTC(2025, 0, 1) / 1000);

const modelObject = (id: string) => ({
  id,
  object: 'model' as const,
  created: CREATED,
  owned_by: 'svc',
});

/**
 * `GET /models` and `GET /v1/models` (and `/{model}`): the chat models in the OpenAI list shape,
 * so OpenAI-compatible SDKs and tools that list models first work with either base URL.
 */
export function modelHandlers(): HandlersOf<'models.list' | 'models.get'> {
  return {
    'models.list': () => ({ object: 'list', data: CHAT_MODELS.map(modelObject) }),
    'models.get': ({ path }, c) => {
      if (!(CHAT_MODELS as readonly string[]).includes(path.model)) {
        const list = c.req.path.startsWith('/v1/') ? '/v1/models' : '/models';
        throw new NotFound(`Model not found: ${path.model} (GET ${list} lists them)`, {
          code: 'model_not_found',
        });
      }
      return modelObject(path.model);
    },
  };
}
