import { createContext, type RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** How close to the end counts as being there: a scroll that lands this near follows again. */
const AT_END_PX = 48;

/** Keys that scroll a box up when it has the focus (or an element inside it that does not use them). */
const UP_KEYS: ReadonlySet<string> = new Set(['PageUp', 'ArrowUp', 'Home']);

/**
 * Whether the transcript follows its end now, for what changes under the reader (a long turn folds its older
 * steps only while the view follows; a reader who scrolled up keeps the steps they are reading).
 */
export const FollowingContext = createContext<() => boolean>(() => true);

export interface FollowEnd {
  /** Go to the end now and follow what is added there (a new turn started, a recall asked for). */
  follow(): void;
  /** Stop following (the report asked for an older turn). */
  release(): void;
  /** Whether the view follows the end now (the same function on every render). */
  readonly isFollowing: () => boolean;
  /** The scroll box's handlers, to spread on it. */
  readonly handlers: {
    onScroll(event: Event): void;
    onWheel(event: WheelEvent): void;
    onKeyDown(event: KeyboardEvent): void;
    onPointerDown(event: PointerEvent): void;
  };
}

/** Whether something between `target` and `box` scrolls up itself (a recall's body, a code block): it takes the wheel. */
function innerScrollerTakes(target: EventTarget | null, box: HTMLElement, deltaY: number): boolean {
  for (let element = target instanceof Element ? target : null; element && element !== box; element = element.parentElement) {
    if (element.scrollHeight <= element.clientHeight) continue;
    const overflow = getComputedStyle(element).overflowY;
    if (overflow !== 'auto' && overflow !== 'scroll') continue;
    if (deltaY < 0 ? element.scrollTop > 0 : element.scrollTop + element.clientHeight < element.scrollHeight) return true;
  }
  return false;
}

/**
 * Follows the end of a scroll box while its content grows (a streaming turn), until the reader scrolls up;
 * scrolling back to the end follows again. Only the reader leaves the end: a scroll event is also sent for
 * the box's own moves (pinning to the end, a shrink that clamps), and one that arrives after the content
 * has grown again is far from the end without anyone having scrolled, so leaving is decided by what the
 * reader did (a wheel, a key, the scroll bar) or by a move up while the content kept its height (the focus
 * moved to an earlier line; scroll anchoring, which moves the view by itself, is off while following).
 */
export function useFollowEnd(box: RefObject<HTMLElement | null>, content: RefObject<HTMLElement | null>): FollowEnd {
  const state = useRef({ following: true, lastTop: 0, lastHeight: 0 }).current;
  const isFollowing = useRef(() => state.following).current;

  /**
   * While following, the browser's scroll anchoring is off: it would move the view up by what a fold removes
   * above, as if the reader had scrolled. While reading higher up it is on, and keeps the lines read in place.
   */
  const setFollowing = (following: boolean) => {
    state.following = following;
    const element = box.current;
    if (element) element.style.overflowAnchor = following ? 'none' : '';
  };

  const pin = () => {
    const element = box.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    state.lastTop = element.scrollTop;
    state.lastHeight = element.scrollHeight;
  };

  /** The reader scrolls up: stop following if the box itself can move up. */
  const leave = () => {
    const element = box.current;
    if (element && element.scrollTop > 0) setFollowing(false);
  };

  useEffect(() => {
    setFollowing(state.following);
    const inner = content.current;
    if (!inner || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (state.following) pin();
    });
    observer.observe(inner);
    return () => observer.disconnect();
  }, []);

  return {
    follow() {
      setFollowing(true);
      pin();
    },
    release() {
      setFollowing(false);
    },
    isFollowing,
    handlers: {
      onScroll(event) {
        const element = event.currentTarget as HTMLElement;
        const top = element.scrollTop;
        const height = element.scrollHeight;
        if (height - top - element.clientHeight < AT_END_PX) {
          if (!state.following) setFollowing(true);
        } else if (state.following && top < state.lastTop - 1 && height === state.lastHeight) setFollowing(false);
        state.lastTop = top;
        state.lastHeight = height;
      },
      onWheel(event) {
        const element = box.current;
        if (event.deltaY < 0 && element && !innerScrollerTakes(event.target, element, event.deltaY)) leave();
      },
      onKeyDown(event) {
        const target = event.target as HTMLElement | null;
        const typing = target?.closest('input, textarea, select, [contenteditable="true"]');
        if (UP_KEYS.has(event.key) && !typing && !event.defaultPrevented) leave();
      },
      onPointerDown(event) {
        const element = box.current;
        // A press on the box's own scroll bar (right of its content box) is the reader taking the thumb.
        if (element && event.target === element && event.offsetX >= element.clientWidth) leave();
      },
    },
  };
}
