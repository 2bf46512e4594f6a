// The live view's wire shapes: what the viewer page may send (pointer, wheel and key events),
// validated before dispatch.
import { z } from 'zod';

const fraction = z.number().min(0).max(1);
const modifiers = z.int().min(0).max(15).default(0);

/**
 * Body of `POST /v1/browser/sessions/{id}/live/input`: up to 100 events, dispatched in order.
 * Positions are fractions (0..1) of the shown frame; `modifiers` is CDP's bit mask (Alt 1, Ctrl 2,
 * Meta 4, Shift 8).
 */
export const LiveInputRequestSchema = z.object({
  events: z
    .array(
      z.discriminatedUnion('type', [
        z.object({
          type: z.literal('mouse'),
          action: z.enum(['down', 'up', 'move']),
          x: fraction,
          y: fraction,
          button: z.enum(['left', 'middle', 'right', 'none']).default('left'),
          buttons: z.int().min(0).max(31).default(0),
          clickCount: z.int().min(0).max(3).default(1),
          modifiers,
        }),
        z.object({
          type: z.literal('wheel'),
          x: fraction,
          y: fraction,
          dx: z.number().min(-10_000).max(10_000),
          dy: z.number().min(-10_000).max(10_000),
          modifiers,
        }),
        z.object({
          type: z.literal('key'),
          action: z.enum(['down', 'up']),
          key: z.string().min(1).max(32),
          code: z.string().max(32).default(''),
          keyCode: z.int().min(0).max(255).default(0),
          modifiers,
        }),
      ]),
    )
    .min(1)
    .max(100),
});

/** One validated input event. */
export type LiveInput = z.output<typeof LiveInputRequestSchema>['events'][number];
