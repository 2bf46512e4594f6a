// Injects the rrweb recorder into every page and frame of one browser over the server's own CDP
// connection, and hands the events it ships to a sink.
import type { Logger } from '../../../logger.js';
import { CdpClient } from '../live/cdp-client.js';
import { BINDING_NAME, recorderScript } from './script.js';

/** Receives one rrweb event (its JSON text) from tab number `tab` (1, 2, ... in order of opening). */
export type RecordingSink = (tab: number, eventJson: string) => void;

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  openerId?: string;
}

/**
 * A running recorder. Browser-level auto-attach (waiting for the debugger) reaches every page the
 * agent opens before its first script runs, so the recorder is in place before the first document
 * loads; each page auto-attaches its out-of-process frames the same way.
 */
export class Recorder {
  /** Tab number of each attached CDP session (frames map to their page's tab). */
  private readonly tabs = new Map<string, number>();
  private readonly tabOfTarget = new Map<string, number>();
  private readonly instrumenting = new Set<Promise<void>>();
  private nextTab = 1;

  private constructor(
    private readonly cdp: CdpClient,
    private readonly logger: Logger,
  ) {}

  /**
   * Connects to the browser at `wsEndpoint` and starts recording every page, current and future.
   * @throws Error when the browser cannot be reached or refuses auto-attach
   */
  static async start(wsEndpoint: string, sink: RecordingSink, logger: Logger): Promise<Recorder> {
    const cdp = await CdpClient.connect(wsEndpoint);
    const recorder = new Recorder(cdp, logger);
    try {
      cdp.on('Target.attachedToTarget', (params, parent) => recorder.onAttached(params, parent));
      cdp.on('Target.detachedFromTarget', (params) => {
        recorder.tabs.delete(params.sessionId as string);
      });
      cdp.on('Runtime.bindingCalled', (params, sessionId) => {
        if (params.name !== BINDING_NAME || sessionId === undefined) return;
        const tab = recorder.tabs.get(sessionId);
        if (tab !== undefined && typeof params.payload === 'string') sink(tab, params.payload);
      });
      await cdp.send('Target.setAutoAttach', {
        autoAttach: true,
        waitForDebuggerOnStart: true,
        flatten: true,
      });
      // The pages that already exist were announced before that answer: record them before the
      // session is handed out, so its first navigation is recorded.
      await Promise.all([...recorder.instrumenting]);
    } catch (error) {
      cdp.close();
      throw error;
    }
    return recorder;
  }

  /** Stops recording: the connection closes, which also removes the injected scripts' binding. */
  stop(): void {
    this.cdp.close();
  }

  private onAttached(params: Record<string, unknown>, parentSession: string | undefined): void {
    const sessionId = params.sessionId as string;
    const info = params.targetInfo as TargetInfo;
    const waiting = params.waitingForDebugger === true;
    if (info.type !== 'page' && info.type !== 'iframe') {
      // Workers and the like: let them run, and leave them.
      void this.release(sessionId, waiting).then(() =>
        this.cdp.trySend('Target.detachFromTarget', { sessionId }),
      );
      return;
    }
    let tab: number;
    if (info.type === 'iframe' && parentSession !== undefined) {
      tab = this.tabs.get(parentSession) ?? 0;
    } else {
      tab = this.tabOfTarget.get(info.targetId) ?? this.nextTab++;
      this.tabOfTarget.set(info.targetId, tab);
    }
    this.tabs.set(sessionId, tab);
    const work = this.instrument(sessionId, info, waiting);
    this.instrumenting.add(work);
    void work.finally(() => this.instrumenting.delete(work));
  }

  private async instrument(sessionId: string, info: TargetInfo, waiting: boolean): Promise<void> {
    const source = recorderScript();
    try {
      // Without Page.enable the script is not applied after a cross-process navigation, and without
      // Runtime.enable the binding is lost with the first document.
      await Promise.all([
        this.cdp.send('Page.enable', {}, sessionId),
        this.cdp.send('Runtime.enable', {}, sessionId),
        this.cdp.send('Runtime.addBinding', { name: BINDING_NAME }, sessionId),
        this.cdp.send('Page.addScriptToEvaluateOnNewDocument', { source }, sessionId),
        this.cdp.send(
          'Target.setAutoAttach',
          { autoAttach: true, waitForDebuggerOnStart: true, flatten: true },
          sessionId,
        ),
      ]);
      // A page that was already loaded when recording began gets its recorder now.
      if (!waiting && info.url !== 'about:blank' && info.url !== '') {
        await this.cdp.send('Runtime.evaluate', { expression: source }, sessionId);
      }
    } catch (error) {
      if (!this.cdp.isClosed) {
        this.logger.debug('recorder could not instrument a target', {
          type: info.type,
          error: (error as Error).message,
        });
      }
    } finally {
      await this.release(sessionId, waiting);
    }
  }

  private async release(sessionId: string, waiting: boolean): Promise<void> {
    if (waiting) await this.cdp.trySend('Runtime.runIfWaitingForDebugger', {}, sessionId);
  }
}
