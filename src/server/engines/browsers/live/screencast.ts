// One session's live view on the CDP side: follow the active tab, screencast it, and dispatch the
// viewers' input to it.
import type { Logger } from '../../../logger.js';
import { CdpClient } from './cdp-client.js';
import type { LiveInput } from './input.js';

/** One screencast frame: a JPEG and the viewport it shows, in CSS pixels. */
export interface LiveFrame {
  /** Base64 JPEG. */
  data: string;
  width: number;
  height: number;
}

/** The tab a view shows. */
export interface LiveTab {
  url: string;
  title: string;
}

/** A connected viewer; `frame` may drop frames when the viewer is slow (only the latest matters). */
export interface LiveViewer {
  frame(frame: LiveFrame): void;
  /** The view now shows this tab (another tab, or the same tab at a new URL). */
  tab(tab: LiveTab): void;
  /** The session ended, or the browser went away. */
  end(reason: string): void;
}

/** Defaults of the screencast. */
export const DEFAULTS = {
  /** JPEG quality of frames. */
  quality: 70,
  /** Frames are scaled down to fit this box (the page keeps its own size). */
  maxWidth: 1920,
  maxHeight: 1080,
} as const;

const MOUSE_TYPES = { down: 'mousePressed', up: 'mouseReleased', move: 'mouseMoved' } as const;

/**
 * The live view of one browser. Connects over the server's own CDP connection when the first viewer
 * arrives and disconnects when the last leaves, so a session nobody watches pays nothing. The view
 * follows the newest tab: when the agent opens one, the view switches to it; when the shown tab
 * closes, it goes back to the newest remaining one.
 */
export class LiveScreencast {
  private readonly viewers = new Set<LiveViewer>();
  private cdp: CdpClient | undefined;
  private connecting: Promise<void> | undefined;
  /** Page targets in the order they appeared. */
  private pages: string[] = [];
  private active: { targetId: string; sessionId: string } | undefined;
  /**
   * The tab the view shows or is switching to: its URL is announced as soon as it changes, without
   * waiting for the screencast commands of a switch (a new tab's renderer may answer them late).
   */
  private wanted: string | undefined;
  private switching: Promise<void> = Promise.resolve();
  private lastFrame: LiveFrame | undefined;
  private lastTab: LiveTab | undefined;
  private ended = false;
  /** True while the targets that already exist are being announced. */
  private discovering = false;

  constructor(
    private readonly wsEndpoint: string,
    private readonly logger: Logger,
  ) {}

  /** Number of connected viewers. */
  get viewerCount(): number {
    return this.viewers.size;
  }

  /**
   * Adds a viewer; it gets the last frame at once when there is one.
   * @throws Error when the browser cannot be reached
   */
  async add(viewer: LiveViewer): Promise<void> {
    if (this.ended) {
      viewer.end('the browser session has ended');
      return;
    }
    this.viewers.add(viewer);
    try {
      await (this.connecting ??= this.connect());
    } catch (error) {
      this.viewers.delete(viewer);
      this.connecting = undefined;
      throw error;
    }
    if (this.lastTab) viewer.tab(this.lastTab);
    if (this.lastFrame) viewer.frame(this.lastFrame);
  }

  /** Removes a viewer; the last one out closes the CDP connection. */
  remove(viewer: LiveViewer): void {
    if (!this.viewers.delete(viewer) || this.viewers.size > 0) return;
    this.disconnect();
  }

  /**
   * Dispatches input to the shown tab. Positions are fractions (0..1) of the shown frame and are
   * scaled to the tab's viewport.
   * @throws Error when no tab is shown yet, or the browser refuses the event
   */
  async input(events: readonly LiveInput[]): Promise<void> {
    await this.switching;
    const active = this.active;
    const frame = this.lastFrame;
    if (!this.cdp || !active || !frame) throw new Error('No tab is shown yet');
    for (const e of events) {
      const x = (e.type === 'key' ? 0 : e.x) * frame.width;
      const y = (e.type === 'key' ? 0 : e.y) * frame.height;
      if (e.type === 'mouse') {
        await this.cdp.send(
          'Input.dispatchMouseEvent',
          {
            type: MOUSE_TYPES[e.action],
            x,
            y,
            button: e.action === 'move' && e.buttons === 0 ? 'none' : e.button,
            buttons: e.buttons,
            clickCount: e.clickCount,
            modifiers: e.modifiers,
          },
          active.sessionId,
        );
      } else if (e.type === 'wheel') {
        await this.cdp.send(
          'Input.dispatchMouseEvent',
          { type: 'mouseWheel', x, y, deltaX: e.dx, deltaY: e.dy, modifiers: e.modifiers },
          active.sessionId,
        );
      } else {
        await this.cdp.send('Input.dispatchKeyEvent', keyEvent(e), active.sessionId);
      }
    }
  }

  /** Ends every viewer with `reason` and disconnects for good (the session ended). */
  end(reason: string): void {
    this.ended = true;
    for (const v of this.viewers) v.end(reason);
    this.viewers.clear();
    this.disconnect();
  }

  private async connect(): Promise<void> {
    const cdp = await CdpClient.connect(this.wsEndpoint);
    if (this.viewers.size === 0 || this.ended) {
      cdp.close();
      return;
    }
    this.cdp = cdp;
    cdp.onClose(() => {
      if (this.cdp !== cdp) return;
      this.cdp = undefined;
      this.connecting = undefined;
      for (const v of this.viewers) v.end('the browser went away');
      this.viewers.clear();
    });
    cdp.on('Target.targetCreated', (p) => this.onTarget(p.targetInfo as TargetInfo));
    cdp.on('Target.targetInfoChanged', (p) => {
      const info = p.targetInfo as TargetInfo;
      if (info.targetId === this.wanted) this.announce(info);
    });
    cdp.on('Target.targetDestroyed', (p) => this.onGone(p.targetId as string));
    cdp.on('Target.detachedFromTarget', (p) => {
      // Detached under us (not by a switch): attach again if the tab still exists.
      const active = this.active;
      if (!active || p.sessionId !== active.sessionId) return;
      this.active = undefined;
      if (this.pages.includes(active.targetId)) this.show(active.targetId);
    });
    cdp.on('Page.screencastFrame', (p, sessionId) => this.onFrame(p, sessionId));
    // Existing targets are announced as targetCreated before this answers: show the newest.
    this.discovering = true;
    try {
      await cdp.send('Target.setDiscoverTargets', { discover: true });
    } finally {
      this.discovering = false;
    }
    const newest = this.pages.at(-1);
    if (newest) this.show(newest);
    await this.switching;
  }

  private disconnect(): void {
    const cdp = this.cdp;
    this.cdp = undefined;
    this.connecting = undefined;
    this.active = undefined;
    this.wanted = undefined;
    this.pages = [];
    this.lastFrame = undefined;
    this.lastTab = undefined;
    cdp?.close();
  }

  private onTarget(info: TargetInfo): void {
    if (info.type !== 'page' || this.pages.includes(info.targetId)) return;
    this.pages.push(info.targetId);
    if (!this.discovering) this.show(info.targetId);
  }

  private onGone(targetId: string): void {
    this.pages = this.pages.filter((id) => id !== targetId);
    // `active` is already unset when the detach of the closing tab came first.
    if (this.active && this.active.targetId !== targetId) return;
    this.active = undefined;
    const next = this.pages.at(-1);
    if (next) this.show(next);
  }

  /** Switches the screencast to `targetId`; switches run one after another. */
  private show(targetId: string): void {
    this.wanted = targetId;
    this.switching = this.switching.then(() => this.switchTo(targetId));
  }

  private async switchTo(targetId: string): Promise<void> {
    const cdp = this.cdp;
    if (!cdp || this.active?.targetId === targetId || !this.pages.includes(targetId)) return;
    // A later switch was asked for while this one waited: that one decides what is shown.
    if (this.wanted !== targetId) return;
    const info = await cdp.trySend('Target.getTargetInfo', { targetId });
    if (info && this.wanted === targetId) this.announce(info.targetInfo as TargetInfo);
    const previous = this.active;
    this.active = undefined;
    if (previous) {
      await cdp.trySend('Page.stopScreencast', {}, previous.sessionId);
      await cdp.trySend('Target.detachFromTarget', { sessionId: previous.sessionId });
    }
    const attached = await cdp.trySend('Target.attachToTarget', { targetId, flatten: true });
    const sessionId = attached?.sessionId;
    if (typeof sessionId !== 'string') return;
    this.active = { targetId, sessionId };
    const started = await cdp.trySend(
      'Page.startScreencast',
      {
        format: 'jpeg',
        quality: DEFAULTS.quality,
        maxWidth: DEFAULTS.maxWidth,
        maxHeight: DEFAULTS.maxHeight,
      },
      sessionId,
    );
    if (!started) this.logger.debug('live view could not start a screencast', { targetId });
  }

  private announce(info: TargetInfo): void {
    const tab = { url: info.url, title: info.title };
    if (tab.url === this.lastTab?.url && tab.title === this.lastTab.title) return;
    this.lastTab = tab;
    for (const v of this.viewers) v.tab(tab);
  }

  private onFrame(p: Record<string, unknown>, sessionId: string | undefined): void {
    if (!this.cdp || sessionId === undefined) return;
    void this.cdp.trySend('Page.screencastFrameAck', { sessionId: p.sessionId }, sessionId);
    if (sessionId !== this.active?.sessionId) return;
    const meta = p.metadata as { deviceWidth: number; deviceHeight: number };
    const frame: LiveFrame = {
      data: p.data as string,
      width: meta.deviceWidth,
      height: meta.deviceHeight,
    };
    this.lastFrame = frame;
    for (const v of this.viewers) v.frame(frame);
  }
}

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  title: string;
}

function keyEvent(e: Extract<LiveInput, { type: 'key' }>): Record<string, unknown> {
  const base = {
    key: e.key,
    code: e.code,
    windowsVirtualKeyCode: e.keyCode,
    nativeVirtualKeyCode: e.keyCode,
    modifiers: e.modifiers,
  };
  if (e.action === 'up') return { type: 'keyUp', ...base };
  // Ctrl/Alt/Meta chords are commands, not text.
  const text =
    e.modifiers & 7 ? undefined : e.key === 'Enter' ? '\r' : e.key.length === 1 ? e.key : undefined;
  return text === undefined
    ? { type: 'rawKeyDown', ...base }
    : { type: 'keyDown', text, unmodifiedText: text, ...base };
}
