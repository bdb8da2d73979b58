/**
 * A scroller whose content overflows joins the Tab order (tabIndex 0), so the keyboard can scroll
 * it with the arrow keys when nothing inside it takes focus (WCAG 2.1.1; axe's
 * scrollable-region-focusable); one whose content fits stays out of it. Watches the scroller's size
 * and its content's (children that come and go included).
 */
import { useEffect, type RefObject } from 'react';

export function useScrollerFocus(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const update = () => {
      const scrolls = el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
      if (scrolls) el.tabIndex = 0;
      else el.removeAttribute('tabindex');
    };
    const sizes = new ResizeObserver(update);
    const watch = () => {
      sizes.disconnect();
      sizes.observe(el);
      for (const child of el.children) sizes.observe(child);
      update();
    };
    const content = new MutationObserver(watch);
    content.observe(el, { childList: true });
    watch();
    return () => {
      content.disconnect();
      sizes.disconnect();
    };
  }, [ref]);
}
