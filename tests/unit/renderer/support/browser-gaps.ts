/**
 * What a browser has and jsdom does not, for the libraries the window uses: cmdk (command
 * palette, connection picker) observes its list's size and scrolls the highlighted option into
 * view. jsdom lays nothing out, so both do nothing here, as they would on an unchanging page.
 */
export function installBrowserGaps(): void {
  if (!('ResizeObserver' in window)) {
    class ResizeObserver {
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    Object.defineProperty(window, 'ResizeObserver', { configurable: true, value: ResizeObserver });
  }
  if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = function scrollIntoView() {};
}
