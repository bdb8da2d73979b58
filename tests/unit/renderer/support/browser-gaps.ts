/**
 * What a browser has and jsdom does not, for the libraries the window uses: cmdk (command
 * palette, connection picker) observes its list's size and scrolls the highlighted option into
 * view; the router restores the window's scroll position on each page. jsdom lays nothing out, so
 * these do nothing here, as they would on an unchanging page (jsdom's own scrollTo logs "not
 * implemented" on every navigation).
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
  window.scrollTo = () => {};
}
