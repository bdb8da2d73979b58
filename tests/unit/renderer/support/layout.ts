/**
 * jsdom lays nothing out: every element is 0 px tall, so a virtualizer would show almost no row.
 * This gives the scroll containers of the virtualized tables a size, as a browser would.
 */
const SCROLLERS = ['devices-scroll', 'virtual-table-wrap', 'org-tree-scroll', 'zta-scroll', 'alarm-scroll'];

export function stubScrollerSize(height = 600, width = 1000): () => void {
  const proto = HTMLElement.prototype;
  const h = Object.getOwnPropertyDescriptor(proto, 'clientHeight');
  const w = Object.getOwnPropertyDescriptor(proto, 'clientWidth');
  const sized = (el: HTMLElement) => SCROLLERS.some((c) => el.classList.contains(c));
  Object.defineProperty(proto, 'clientHeight', { configurable: true, get(this: HTMLElement) { return sized(this) ? height : 0; } });
  Object.defineProperty(proto, 'clientWidth', { configurable: true, get(this: HTMLElement) { return sized(this) ? width : 0; } });
  return () => {
    if (h) Object.defineProperty(proto, 'clientHeight', h);
    if (w) Object.defineProperty(proto, 'clientWidth', w);
  };
}
