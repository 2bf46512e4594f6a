// The script injected into every document of a recorded session.
import { rrwebBundle } from './rrweb-bundle.js';

/** Name of the `Runtime.addBinding` function that carries events to the server. */
export const BINDING_NAME = '__svcRecordEvent';

/** Global flag that keeps a document from starting two recorders. */
const GUARD = '__svcRecording';

let cached: string | undefined;

/**
 * The recorder source for `Page.addScriptToEvaluateOnNewDocument` (and `Runtime.evaluate` on a page
 * already loaded). In the top frame it runs rrweb's `record` and ships each event as JSON through
 * the binding. A cross-origin frame runs its own recorder that posts its events to the parent
 * (rrweb's `recordCrossOriginIframes`); a same-origin frame is left to its parent's recorder, which
 * already observes it. `about:blank` documents are skipped. Password fields are masked (rrweb's
 * default).
 */
export function recorderScript(): string {
  if (cached) return cached;
  const { script } = rrwebBundle();
  cached = `(function () {
  if (window.${GUARD}) return;
  try { Object.defineProperty(window, '${GUARD}', { value: true }); } catch (e) { return; }
  var top = window === window.top;
  if (!top) {
    var sameOriginParent = false;
    try { sameOriginParent = !!window.parent.document; } catch (e) {}
    if (sameOriginParent) return;
  }
  if (location.href === 'about:blank') return;
  var ship = window['${BINDING_NAME}'];
  if (top && typeof ship !== 'function') return;
${script}
  rrweb.record({
    emit: top ? function (event) { ship(JSON.stringify(event)); } : function () {},
    recordCrossOriginIframes: true,
  });
})();`;
  return cached;
}
